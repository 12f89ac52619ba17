"""Before a paired table's players take their seats, the organizer's CSV and
JSON exports name them as the pairings do (the seat's listed name): the
sheet a judge prints mid-round must say who plays where."""

import csv
import io
import json

import pytest
from bs4 import BeautifulSoup

from tracker.models import TournamentEvent

from .phone import Phone
from .test_handed_list_keeps_drafts import open_event, pair_round, seat_link

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


def _event_link(carol, event, text: str) -> str:
    """The link the event's page shows under `text` (Export CSV, Export JSON)."""
    soup = BeautifulSoup(carol.get(f"/organizer/events/{event.pk}/").content, "lxml")
    [link] = [a["href"] for a in soup.select("a[href]") if a.get_text(strip=True) == text]
    return link


def test_a_seat_taken_is_named_as_its_player_typed_it_not_as_the_pairings(carol):
    """Once a player takes a paired seat, the name she typed is the name on
    record, in the CSV as in the JSON's log header; an unclaimed seat keeps
    the pairings' name."""
    spring = open_event(carol, "Spring Open")
    match = pair_round(carol, spring, 1)
    alice = Phone()
    alice.claim(seat_link(match), "Ali Arroyo")
    response = carol.get(_event_link(carol, spring, "Export CSV"))
    [row] = list(csv.DictReader(io.StringIO(response.content.decode("utf-8-sig"))))
    assert (row["player_a"], row["player_b"]) == ("Ali Arroyo", "Bob Bravo")
    export = json.loads(carol.get(_event_link(carol, spring, "Export JSON")).content)
    [entry] = export["matches"]
    assert entry["match"]["players"] == {"A": "Ali Arroyo", "B": "Bob Bravo"}
