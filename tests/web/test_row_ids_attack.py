"""A trooper's id (its army list row's, tracker/row_ids.py) tells the
opponent nothing about a trooper in Hidden Deployment (HD intro: its very
existence is private).

The opponent may know the seat's link token: whoever created the match read
both seat links on the host page, and the QR codes are shown at the table.
The opponent also reads the id of every visible trooper of the locked list.
Ids hashed from the token and the rows before them let him recompute the id
that follows Alice's first trooper, see that her next visible one has
another (so a trooper sits hidden between them), read the hidden trooper's
own id, and try names and points until the next id matched."""

from __future__ import annotations

import hashlib
import re

import pytest

from tracker.handed_lists import rows_for
from tracker.models import HandedList, Match
from tracker.row_ids import ROW_ID_LENGTH
from tracker.rules.commitments import canonical_json

from .phone import Phone
from .phone_flows import CANARY_NINJA, lists_locked

pytestmark = pytest.mark.django_db


def recomputed(token: str, rows: list[dict]) -> set[str]:
    """Every id the opponent can compute from the token: after each prefix of
    `rows` (the visible rows and, at its place, a right guess of the hidden
    one), and a handed list's row at each place."""
    after_prefix = {
        hashlib.sha256((token + canonical_json(rows[:n])).encode()).hexdigest()[:ROW_ID_LENGTH]
        for n in range(len(rows) + 1)
    }
    handed = {
        hashlib.sha256(f"{token}\nhanded\n{index}".encode()).hexdigest()[:ROW_ID_LENGTH]
        for index in range(len(rows) + 1)
    }
    return after_prefix | handed


def test_attack_the_host_s_opponent_cannot_recompute_trooper_ids_from_the_seat_link():
    bob = Phone()
    links = bob.create_match()  # Bob hosts: the host page shows both seat links
    alice_token = links["A"].rstrip("/").split("/")[-1]
    alice = Phone()
    alice.claim(links["A"], "Alice")
    bob.claim(links["B"], "Bob")
    lists_locked(alice, bob)

    bob.open()
    page = bob.app.get(f"/m/{bob.code}/").text
    assert CANARY_NINJA not in page
    alice_rows = Match.objects.get().seats.get(letter="A").draft
    visible = {row["id"] for row in alice_rows if "hidden_deployment" not in row["traits"]}
    shown = set(re.findall(r'id="trooper-([0-9a-f]{8})"', page)) & visible
    assert shown == visible  # Bob reads the id of each of Alice's visible troopers

    guessed = recomputed(alice_token, alice_rows)
    assert not guessed & {row["id"] for row in alice_rows}


def test_attack_a_handed_list_s_row_ids_are_not_its_places():
    bob = Phone()
    links = bob.create_match()
    seat = Match.objects.get().seats.get(letter="A")
    assert links["A"].rstrip("/").endswith(seat.token)
    handed = HandedList(rows=[{"name": f"Trooper {n}", "cost": 10} for n in range(4)])
    ids = {row["id"] for row in rows_for(seat, handed)}
    assert len(ids) == 4
    assert not ids & recomputed(seat.token, handed.rows)
