"""The organizer's JSON export of a match says, line by line of its
timeline, which seat an event was private to (as the audit page marks it):
a reader of the export can tell a player's sealed notes from what both
players saw at the table."""

import json

import pytest

from tests.web.organizer_table import finished
from tracker.models import MatchEvent

pytestmark = pytest.mark.django_db


def test_the_export_timeline_marks_each_private_event_with_its_seat(alice, bob, carol):
    a, _b = finished(alice, bob)
    private = dict(MatchEvent.objects.filter(match=a.match).values_list("seq", "private_to"))
    assert "A" in private.values()
    response = carol.get(f"/organizer/matches/{a.match.code}/export.json")
    timeline = json.loads(response.content)["timeline"]
    assert timeline
    for entry in timeline:
        assert (entry["private_to"] or "") == private[entry["seq"]]
    assert {e["seq"] for e in timeline if e["private_to"] == "A"} == {
        seq for seq, to in private.items() if to == "A"
    }
