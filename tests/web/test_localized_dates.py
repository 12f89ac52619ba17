"""Dates the pages show read as the reader's language writes them (Django's
localized DATE_FORMAT / DATETIME_FORMAT), not as ISO; the date and
datetime pickers keep ISO values, which is all a browser takes."""

import pytest
from bs4 import BeautifulSoup
from django.test import Client

from tests.web.rendered_forms import submit_on
from tests.web.test_event_running import Organizer, list_link_of
from tracker.models import TournamentEvent

pytestmark = pytest.mark.django_db

EVENT_DAY = {"en": "Dec. 3, 2026", "es": "3 de diciembre de 2026"}
DEADLINE = {
    "en": "Lists lock at Dec. 3, 2099, 6:05 p.m.",
    "es": "Las listas se cierran el 3 de diciembre de 2099 a las 18:05.",
}


def text_of(client: Client, url: str) -> str:
    response = client.get(url)
    assert response.status_code == 200
    return " ".join(BeautifulSoup(response.content, "lxml").get_text(" ").split())


def test_event_dates_and_the_lists_deadline_read_localized_in_each_language(carol):
    response = submit_on(carol, "/organizer/events/", "card", name="Winter Open", date="2026-12-03")
    assert response.status_code == 302
    event = TournamentEvent.objects.get(name="Winter Open")
    org = Organizer(carol, event)
    assert org.submit("/roster/paste/", players="Ana Arroyo, PanOceania").status_code == 302
    assert org.submit("/lists/", within="#lists", deadline="2099-12-03T18:05").status_code == 302
    list_link = list_link_of(org, "Ana Arroyo")
    for language in ("en", "es"):
        carol.defaults["HTTP_ACCEPT_LANGUAGE"] = language
        player = Client(HTTP_ACCEPT_LANGUAGE=language)
        for text in (
            text_of(carol, "/organizer/events/"),
            text_of(carol, f"/organizer/events/{event.pk}/"),
            text_of(player, f"/e/{event.pk}/"),
        ):
            assert EVENT_DAY[language] in text and "2026-12-03" not in text
        deadline_page = text_of(player, list_link)
        assert DEADLINE[language] in deadline_page and "2099-12-03" not in deadline_page
