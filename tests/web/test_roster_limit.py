"""An event holds at most 500 players (tracker/event_running.MAX_ROSTER),
those already on its roster counted with the pasted ones: a paste that
would take the roster past 500 is refused whole, one that brings it to 500
exactly is taken, and a full roster takes no one more through the add
form either (it took a 501st player). A paste counted alone let a second
paste of 400 into a roster of 400."""

from __future__ import annotations

import pytest
from bs4 import BeautifulSoup

from tests.web.test_event_running import Organizer
from tracker.models import TournamentEvent

pytestmark = pytest.mark.django_db


def players(first: int, count: int) -> str:
    return "".join(f"Player {n:03d}, PanOceania\n" for n in range(first, first + count))


def test_a_paste_is_counted_with_the_roster_it_joins(carol):
    event = TournamentEvent.objects.create(name="Liga")
    org = Organizer(carol, event)
    assert org.submit("/roster/paste/", players=players(1, 498)).status_code == 302
    refused = org.submit("/roster/paste/", players=players(499, 3))
    assert refused.status_code == 400
    text = " ".join(BeautifulSoup(refused.content.decode(), "lxml").get_text(" ").split())
    assert "At most 500 players in an event." in text
    assert event.roster.count() == 498
    assert org.submit("/roster/paste/", players=players(499, 2)).status_code == 302
    assert event.roster.count() == 500


def test_a_full_roster_takes_no_one_more_through_the_add_form(carol):
    event = TournamentEvent.objects.create(name="Liga")
    org = Organizer(carol, event)
    assert org.submit("/roster/paste/", players=players(1, 500)).status_code == 302
    refused = org.submit("/roster/", name="Player 501", faction="Tohaa", club="")
    assert refused.status_code == 400
    text = " ".join(BeautifulSoup(refused.content.decode(), "lxml").get_text(" ").split())
    assert "At most 500 players in an event." in text
    assert event.roster.count() == 500
