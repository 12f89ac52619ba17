"""A result disputed once the match is over (the last round played, one
player proposes, the other disputes) leaves the match DISPUTED with nothing
sealed any more: the event's JSON export carries its whole audit, events
and revealed secrets, as for any finished match. Only a match disputed
while still in play is listed by its public facts alone
(tests/web/test_disputed_exports_in_play.py)."""

import json

import pytest

from tests.web.organizer_table import NINJA_POSITION, fresh, play_out, playing
from tests.web.table import error_of
from tracker.models import Match, MatchEvent, TournamentEvent
from tracker.reading import load_state
from tracker.rules.state import FINISHED

pytestmark = pytest.mark.django_db


def test_the_event_export_carries_a_match_disputed_after_its_end(alice, bob, carol):
    a, b = playing(alice, bob)
    play_out(a, b)
    response = a.submit("ProposeResult", objective_a=7, objective_b=3, army_a=90, army_b=25)
    assert error_of(response) is None
    assert error_of(b.submit("DisputeResult", reason="I held the objective")) is None
    match = fresh(a.match)
    assert match.status == Match.Status.DISPUTED
    assert load_state(match).phase == FINISHED
    spring = TournamentEvent.objects.create(name="Spring Open")
    Match.objects.filter(pk=match.pk).update(event=spring)
    event_page = carol.get(f"/organizer/events/{spring.pk}/").content.decode()
    assert f"/organizer/events/{spring.pk}/export.json" in event_page
    response = carol.get(f"/organizer/events/{spring.pk}/export.json")
    assert response.status_code == 200
    [entry] = json.loads(response.content)["matches"]
    assert not entry.get("in_progress")
    assert len(entry["events"]) == MatchEvent.objects.filter(match=match).count()
    assert NINJA_POSITION in response.content.decode()
