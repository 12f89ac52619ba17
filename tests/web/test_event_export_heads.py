"""The event's JSON export pins every match's log down (docs/security.md):
each match's head (code, last seq, last hash) with the short receipt code
its phones show, and each match named by its table number as paired."""

import json

import pytest

from tracker import audit
from tracker.models import Match, TournamentEvent

pytestmark = pytest.mark.django_db

PAIRINGS = "Table, Player A, Player B\n4, Alice Arroyo, Bob Bravo\n7, Carla Cruz, Dani Díaz\n"


def test_the_event_export_carries_every_head_with_its_receipt_code(carol):
    assert carol.post("/organizer/events/", {"name": "Spring Open", "date": "2026-04-18"})
    spring = TournamentEvent.objects.get(name="Spring Open")
    data = {"points_limit": 300, "rounds": 3, "pairings": PAIRINGS, "event_round": 1}
    assert carol.post(f"/organizer/events/{spring.pk}/", data).status_code == 302
    export = json.loads(carol.get(f"/organizer/events/{spring.pk}/export.json").content)
    matches = {m.code: m for m in Match.objects.filter(event=spring)}
    assert {head["code"] for head in export["heads"]} == set(matches)
    for head in export["heads"]:
        match = matches[head["code"]]
        assert (head["seq"], head["last_hash"]) == (match.seq, match.last_hash)
        assert head["short_code"] == audit.receipt_code(match.last_hash)
    tables = {entry["match"]["code"]: entry["match"]["table"] for entry in export["matches"]}
    assert tables == {code: match.table_number for code, match in matches.items()}
    assert sorted(tables.values()) == [4, 7]
