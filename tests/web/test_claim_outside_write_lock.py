"""A seat claim's PIN hash is made before the claim takes the database's
write lock (issue 18: a round starts with every table at once).

The PIN is stored as a slow hash (PBKDF2, about half a second of a core).
It was made inside the claim's transaction, and on the embedded database
(SQLite, IMMEDIATE transactions) a transaction holds the one write lock
from its start: every tap of every table at the venue waited behind each
claim, and at a round's start, with players claiming their new seats, taps
met "busy" or gave up. Here a claim is held while it hashes, and another
table's tap, sent from the form its page rendered, must land meanwhile.
"""

from __future__ import annotations

import threading
from urllib.parse import urlparse

import pytest

from tracker import seats
from tracker.models import Match

from .phone import Phone
from .phone_flows import ok, seated

pytestmark = pytest.mark.django_db(transaction=True)


def test_another_tables_tap_lands_while_a_seat_claim_hashes_its_pin(monkeypatch):
    playing, _opponent = seated("en", "es")
    links = Phone().create_match(name="Mesa 2")  # the next table, its host's page
    newcomer = Phone("es")
    newcomer.visit(urlparse(links["A"]).path)
    [claim_form] = [f for f in newcomer.forms() if "pin" in f.names()]
    claim_form.fill({"name": "Carla", "pin": "739164"})
    playing.open()
    tap = playing.form("draft/add")  # the first table's page, as just sent
    tap.fill({"name": "Kaplan", "cost": "20"})

    hashing, tapped = threading.Event(), threading.Event()
    slow_hash = seats.make_password

    def held_hash(pin):
        hashing.set()
        tapped.wait(10)  # as long as a slow machine's PBKDF2, and more
        return slow_hash(pin)

    monkeypatch.setattr(seats, "make_password", held_hash)
    claimed = {}
    claimer = threading.Thread(target=lambda: claimed.update(r=newcomer.send(claim_form)))
    claimer.start()
    try:
        assert hashing.wait(10), "the claim never hashed its PIN"
        answer = playing.send(tap, reload=False)
    finally:
        tapped.set()
        claimer.join(20)
    ok(playing, answer)
    assert "Kaplan" in playing.open().text
    # And the claim itself went through once the hash was made.
    assert claimed["r"].status_int in (200, 302)
    code = urlparse(links["A"]).path.split("/")[2]
    assert Match.objects.get(code=code).seats.get(letter="A").claimed
