"""A player the organizer dropped by mistake comes back with the same
button ("Back in"): paired again from the next round (issue 21)."""

import pytest

from tests.web.rendered_forms import submit
from tests.web.test_event_running import Organizer, roster_row
from tracker.models import EventPlayer, TournamentEvent

pytestmark = pytest.mark.django_db


def test_a_dropped_player_comes_back_with_back_in(carol):
    assert carol.post("/organizer/events/", {"name": "Spring Open", "date": "2026-04-18"})
    org = Organizer(carol, TournamentEvent.objects.get(name="Spring Open"))
    assert org.submit("/roster/paste/", players="Ana Arroyo, PanOceania\nBea Blanco, Yu Jing\n")
    assert submit(carol, str(roster_row(org, "Bea Blanco")), "/drop/").status_code == 302
    assert EventPlayer.objects.get(name="Bea Blanco").dropped
    row = roster_row(org, "Bea Blanco")
    assert "Back in" in row.get_text()
    assert submit(carol, str(row), "/drop/").status_code == 302
    assert not EventPlayer.objects.get(name="Bea Blanco").dropped
    assert "Bea Blanco is back in the event." in org.text()
    assert "Drop" in roster_row(org, "Bea Blanco").get_text()
