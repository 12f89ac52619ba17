"""A tap that meets a reader holding SQLite's table lock waits for it.

The tests' database is SQLite in memory with a shared cache: there a table
locked by another connection's open read is reported at once ("database
table is locked"), not waited on as the busy timeout waits on a file. The
write path tries again a few times, a little later each time, so the socket
threads reading a push while a player taps (as in the leak harness, which
saw one tap answered 503 on a busy CI machine) cost the tap a few
milliseconds, never a "busy, tap again".
"""

from __future__ import annotations

import threading

import pytest
from django.db import connection

from tracker.models import Match

from .table import error_of, seated

pytestmark = pytest.mark.django_db(transaction=True)


def _hold_a_read_of_the_events(started: threading.Event, seconds: float) -> None:
    try:
        connection.ensure_connection()
        cursor = connection.connection.cursor()  # the raw sqlite3 cursor
        cursor.execute("SELECT * FROM tracker_matchevent")
        cursor.fetchone()  # the statement stays open: its table stays read-locked
        started.set()
        threading.Event().wait(seconds)
        cursor.close()
    finally:
        started.set()
        connection.close()


def test_a_tap_meeting_an_open_read_of_the_log_waits_for_it_and_is_applied(alice, bob):
    if connection.vendor != "sqlite" or not connection.is_in_memory_db():
        pytest.skip("the shared-cache table lock is SQLite in memory's")
    a, b = seated(alice, bob)
    assert error_of(a.submit("draft/add", name="Hassassin Ayyar", cost="40")) is None
    assert error_of(b.submit("draft/add", name="Fusilier", cost="10")) is None
    assert error_of(a.submit("LockArmyList")) is None
    before = Match.objects.get().seq
    tapped = b.phone.form("LockArmyList")
    started = threading.Event()
    reader = threading.Thread(target=_hold_a_read_of_the_events, args=(started, 0.15))
    reader.start()
    started.wait(5)
    try:
        response = b.phone.send(tapped, reload=False)
    finally:
        reader.join()
    assert response.status_code == 200, response.status_code
    assert error_of(response) is None
    assert Match.objects.get().seq > before  # B's list locked, the match moved on
