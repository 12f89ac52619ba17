"""The run page's army lists follow what players do on their phones (issue
21): the roster says who has not handed a list in, and the lists section
how many, and the organizer locks the lists on that count. Loaded before a
player handed their list in through their private link, the page went on
saying "not submitted" and "2 players have not submitted a list" until
reloaded; its 10-second poll (event_run_live) now swaps in each roster
row's list state and the count, in the page's language, and, once the
lists lock on another device, the "Take a late list" button of a player
still without one."""

from __future__ import annotations

import pytest
from bs4 import BeautifulSoup
from django.contrib.auth.models import User
from django.test import Client

from tests.web.test_event_running import Organizer, list_link_of, submit_through_link
from tracker.models import TournamentEvent

pytestmark = pytest.mark.django_db

WORDS = {
    "en": {
        "missing": "not submitted",
        "in": "submitted (25 points)",
        "count": "1 player has not submitted a list.",
        "late": "Take a late list",
    },
    "es": {
        "missing": "sin entregar",
        "in": "entregada (25 puntos)",
        "count": "1 jugador no ha entregado su lista.",
        "late": "Aceptar una lista tardía",
    },
}


def polled(carol, poller, lang: str) -> BeautifulSoup:
    response = carol.get(poller["hx-get"], HTTP_HX_REQUEST="true", HTTP_ACCEPT_LANGUAGE=lang)
    assert response.status_code == 200
    return BeautifulSoup(response.content.decode(), "lxml")


def said(soup: BeautifulSoup, element_id: str) -> str:
    return " ".join(soup.select_one(f"#{element_id}").get_text(" ").split())


@pytest.mark.parametrize("lang", ["en", "es"])
def test_the_run_page_poll_brings_a_list_handed_in_through_a_link(carol, lang):
    carol.defaults["HTTP_ACCEPT_LANGUAGE"] = lang
    event = TournamentEvent.objects.create(name="Liga de jueves")
    org = Organizer(carol, event)
    assert org.submit("/roster/paste/", players="Ana, PanOceania\nBea, Yu Jing").status_code == 302
    ana, bea = event.roster.get(name="Ana"), event.roster.get(name="Bea")
    page = BeautifulSoup(org.page(), "lxml")
    poller = page.select_one("#run-live")
    ids = poller["hx-select-oob"].split(",")
    for element_id in ("lists-missing", f"list-{ana.pk}", f"list-{bea.pk}"):
        assert f"#{element_id}" in ids and page.select_one(f"#{element_id}") is not None
    assert said(page, f"list-{ana.pk}") == WORDS[lang]["missing"]

    # Ana hands her list in from her phone (in English) while the page sits open.
    submit_through_link(list_link_of(org, "Ana"), "Ana")
    live = polled(carol, poller, lang)
    assert said(live, f"list-{ana.pk}") == WORDS[lang]["in"]
    assert said(live, f"list-{bea.pk}") == WORDS[lang]["missing"]
    assert said(live, "lists-missing") == WORDS[lang]["count"]
    assert live.select_one(f"#list-{bea.pk} form") is None  # the lists are open

    # A second laptop locks the lists: Bea's row offers her late list.
    second = Client()
    second.force_login(User.objects.get(username="carol"))
    assert Organizer(second, event).submit("/lists/", within=".lock-now").status_code == 302
    live = polled(carol, poller, lang)
    late = live.select_one(f"#list-{bea.pk} form")
    assert late is not None and late["action"].endswith(f"/roster/{bea.pk}/late-list/")
    assert WORDS[lang]["late"] in said(live, f"list-{bea.pk}")
    # What the poll brings is what the page itself shows under the same ids.
    page = BeautifulSoup(org.page(), "lxml")
    for element_id in ("lists-missing", f"list-{ana.pk}", f"list-{bea.pk}"):
        assert said(page, element_id) == said(live, element_id)
