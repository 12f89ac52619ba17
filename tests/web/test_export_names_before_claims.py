"""Before a paired table's players take their seats, the organizer's CSV and
JSON exports name them as the pairings do (the seat's listed name): the
sheet a judge prints mid-round must say who plays where."""

import csv
import io
import json

import pytest

from tracker.models import TournamentEvent

pytestmark = pytest.mark.django_db

PAIRINGS = "Table, Player A, Player B\n1, Alice Arroyo, Bob Bravo\n"


def test_unclaimed_paired_seats_are_named_as_the_pairings_say(carol):
    assert carol.post("/organizer/events/", {"name": "Spring Open", "date": "2026-04-18"})
    spring = TournamentEvent.objects.get(name="Spring Open")
    data = {"points_limit": 300, "rounds": 3, "mission": "Supplies", "pairings": PAIRINGS}
    assert carol.post(f"/organizer/events/{spring.pk}/", data).status_code == 302
    response = carol.get(f"/organizer/events/{spring.pk}/export.csv")
    [row] = list(csv.DictReader(io.StringIO(response.content.decode("utf-8-sig"))))
    assert (row["player_a"], row["player_b"]) == ("Alice Arroyo", "Bob Bravo")
    export = json.loads(carol.get(f"/organizer/events/{spring.pk}/export.json").content)
    [entry] = export["matches"]
    assert entry["match"]["players"] == {"A": "Alice Arroyo", "B": "Bob Bravo"}
