"""The caches a venue leans on (issue 18, tracker/settings.py).

Sessions are kept in a cache in front of the database: a tap reads its
session from memory, not with a query and a signature check; the database
stays the truth, so a session the cache lost (a full cache, a restart of the
cache) still seats its player. And the per-client counters are sized for a
venue's phones: with Django's default of 300 entries, a night of 300 phones
culled a third of them at every new one, and a culled counter started again
from zero.
"""

from __future__ import annotations

import pytest
from django.core.cache import cache, caches
from django.db import connection
from django.test.utils import CaptureQueriesContext

from tracker.consumers import _count

from .table import error_of, seated

pytestmark = pytest.mark.django_db(transaction=True)


def _session_reads(queries) -> list[str]:
    return [q["sql"] for q in queries if "django_session" in q["sql"]]


def test_a_tap_reads_its_session_from_the_cache_not_the_database(alice, bob):
    a, b = seated(alice, bob)
    assert error_of(a.submit("draft/add", name="Hassassin Ayyar", cost="40")) is None
    tapped = a.phone.form("LockArmyList")  # from the page Alice was just sent
    with CaptureQueriesContext(connection) as queries:
        response = a.phone.send(tapped, reload=False)
    assert response.status_code == 200
    assert error_of(response) is None
    assert _session_reads(queries.captured_queries) == []


def test_a_player_whose_session_the_cache_lost_still_holds_the_seat(alice, bob):
    a, b = seated(alice, bob)
    assert error_of(a.submit("draft/add", name="Hassassin Ayyar", cost="40")) is None
    caches["sessions"].clear()  # as a full cache or a restarted Redis loses it
    with CaptureQueriesContext(connection) as queries:
        page = a.page()
    assert _session_reads(queries.captured_queries), "read from the database instead"
    # Still Alice's seat: her draft and its Lock form, not a spectator's page.
    assert "Hassassin Ayyar" in page
    assert error_of(a.submit("LockArmyList")) is None  # a spectator has no such form


def test_a_venue_of_phones_pushes_no_counter_out_of_the_cache():
    """600 phones' socket counters (a 300-table night): the first still holds."""
    first = "ws:session:first-phone"
    assert _count(first, +1) == 1
    for phone in range(600):
        _count(f"ws:session:phone-{phone}", +1)
    assert cache.get(first) == 1
    assert _count(first, +1) == 2  # counted on from 1, not started again
