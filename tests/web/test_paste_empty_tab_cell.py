"""A spreadsheet copied with an empty cell between two others pastes as two
tabs in a row. The spaces read around a quoted cell took a tab as well, so
the empty cell was swallowed: "Ana Arroyo<tab><tab>Club Norte" (a name, no
faction, a club) registered Ana with "Club Norte" as her faction, without a
word. An empty cell is a cell: the line is refused as any line without a
faction is, in both languages, and nothing is registered. A pairings line
with an empty column reads as four cells, and is refused the same way."""

from __future__ import annotations

import pytest
from bs4 import BeautifulSoup

from tests.web.rendered_forms import submit_on
from tests.web.test_event_running import Organizer
from tracker.models import EventPlayer, Match, TournamentEvent

pytestmark = pytest.mark.django_db

NO_FACTION = {
    "en": "Line 2: write the player's name, their faction and, if any, their club.",
    "es": "Línea 2: escribe el nombre del jugador, su facción y, si tiene, su club.",
}


def text_of(response) -> str:
    return " ".join(BeautifulSoup(response.content.decode(), "lxml").get_text(" ").split())


@pytest.mark.parametrize("lang", ["en", "es"])
def test_an_empty_cell_between_two_tabs_is_a_missing_faction(carol, lang):
    carol.defaults["HTTP_ACCEPT_LANGUAGE"] = lang
    org = Organizer(carol, TournamentEvent.objects.create(name="Liga"))
    pasted = "Bea Blanco\tYu Jing\tClub Sur\nAna Arroyo\t\tClub Norte\n"
    response = org.submit("/roster/paste/", players=pasted)
    assert response.status_code == 400
    assert NO_FACTION[lang] in text_of(response)
    assert not EventPlayer.objects.exists()


def test_a_pairings_line_with_an_empty_column_is_refused(carol):
    event = TournamentEvent.objects.create(name="Liga")
    response = submit_on(
        carol,
        f"/organizer/events/{event.pk}/",
        "card",
        pairings="1\tAna Arroyo\t\tBea Blanco",
        mission="Supplies",
    )
    assert response.status_code == 400
    assert "Line 1: write the table number, then the two players' names." in text_of(response)
    assert not Match.objects.exists()
