"""A tap whose seq a racing writer took (IntegrityError on the events'
unique (match, seq), where the row lock is weaker than assumed) is decided
again against the newer state and applied: the player is not asked to tap
again for a race the write path can heal (tracker/actions.append). Only
a third race in a row answers "busy", with nothing written."""

from __future__ import annotations

import pytest
from django.db import IntegrityError

from tracker import actions
from tracker.models import Match, MatchEvent

from .phone import PhoneError
from .table import error_of, seated

pytestmark = pytest.mark.django_db(transaction=True)


def _racing(monkeypatch, times: int) -> list[int]:
    """The events' insert loses the race `times` times, then works."""
    insert = actions._INSERT_EVENTS.run
    lost = []

    def run(rows, *args, **kwargs):
        if len(lost) < times:
            lost.append(rows[0].seq)
            raise IntegrityError("UNIQUE constraint failed: tracker_matchevent.match_id, seq")
        return insert(rows, *args, **kwargs)

    monkeypatch.setattr(actions._INSERT_EVENTS, "run", run)
    return lost


def test_a_tap_that_lost_two_races_for_its_seq_is_applied_once(alice, bob, monkeypatch):
    a, _b = seated(alice, bob)
    assert error_of(a.submit("draft/add", name="Kaplan", cost="20")) is None
    before = Match.objects.get().seq
    lost = _racing(monkeypatch, times=2)
    response = a.submit("LockArmyList")
    assert response.status_int == 200
    assert error_of(response) is None
    assert len(lost) == 2
    match = Match.objects.get()
    assert match.seq > before
    kinds = list(MatchEvent.objects.filter(seq__gt=before).values_list("kind", flat=True))
    assert kinds.count("ArmyListLocked") == 1, kinds


def test_a_tap_that_keeps_losing_the_race_is_answered_busy_with_nothing_written(
    alice, bob, monkeypatch
):
    a, _b = seated(alice, bob)
    assert error_of(a.submit("draft/add", name="Kaplan", cost="20")) is None
    before = Match.objects.get().seq
    _racing(monkeypatch, times=99)
    phone = a.phone
    with pytest.raises(PhoneError, match="answered 503"):
        phone.submit("LockArmyList")
    assert phone.last.headers["Retry-After"] == "1"
    assert Match.objects.get().seq == before
