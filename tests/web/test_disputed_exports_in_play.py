"""A result disputed while the match is still in play (time called, a
proposal, the opponent disagrees) leaves the match DISPUTED with its sealed
information still sealed: the event's JSON export lists it by its public
facts only (its disputed result among them), as any match in play, until the organizer opens it from its
audit page (which both players are told of)."""

import json

import pytest

from tests.web.organizer_table import NINJA_POSITION, fresh, playing
from tests.web.table import error_of
from tracker.models import Match, MatchEvent, TournamentEvent
from tracker.reading import load_state
from tracker.rules.state import PLAYING

pytestmark = pytest.mark.django_db


def disputed_in_play(alice, bob):
    a, b = playing(alice, bob, rounds=3)
    response = a.submit("ProposeResult", objective_a=7, objective_b=3, army_a=90, army_b=25)
    assert error_of(response) is None
    assert error_of(b.submit("DisputeResult", reason="I held the objective")) is None
    match = fresh(a.match)
    assert match.status == Match.Status.DISPUTED
    assert load_state(match).phase == PLAYING
    return a, b


def test_the_event_export_keeps_a_disputed_match_in_play_sealed(alice, bob, carol):
    a, _b = disputed_in_play(alice, bob)
    spring = TournamentEvent.objects.create(name="Spring Open")
    Match.objects.filter(pk=a.match.pk).update(event=spring)
    response = carol.get(f"/organizer/events/{spring.pk}/export.json")
    assert response.status_code == 200
    export = json.loads(response.content)
    [entry] = export["matches"]
    assert entry["in_progress"] is True and entry["events"] is None
    # Its public facts say the result waits for the organizer's ruling.
    assert entry["match"]["result"]["status"] == "disputed"
    assert entry["match"]["result"]["disputed_by"] == "B"
    text = response.content.decode()
    assert NINJA_POSITION not in text
    assert not any(s.nonce in text for s in load_state(fresh(a.match)).secrets.values())
    # Nothing was opened, so nothing is recorded in the match's log.
    assert not MatchEvent.objects.filter(match=a.match, actor="organizer").exists()
