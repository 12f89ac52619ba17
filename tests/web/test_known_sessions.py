"""Which cookies count as a session of their own for page loads
(tracker/known_sessions.py): a session a response showed to exist, never a
value a client made up (that would let one client at a venue's address
take a fresh budget, and a fresh turn, with every request)."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.conf import settings
from django.contrib.sessions.models import Session
from django.utils import timezone

from tracker import known_sessions

from .table import seated

pytestmark = pytest.mark.django_db


def test_a_seated_phones_session_is_known_after_its_page_load(alice, bob):
    a, _b = seated(alice, bob)
    key = alice.cookies["sessionid"].value
    known_sessions.forget(key)
    assert alice.get(f"/m/{a.match.code}/").status_code == 200
    assert known_sessions.is_known(key)


@pytest.mark.parametrize("made_up", ["x" * 32, "abcdefgh12345678"])
def test_attack_a_made_up_session_cookie_is_never_known(alice, bob, mallory, made_up):
    a, _b = seated(alice, bob)
    mallory.cookies["sessionid"] = made_up
    assert mallory.get(f"/m/{a.match.code}/").status_code == 200
    assert mallory.get("/").status_code == 200
    assert not known_sessions.is_known(made_up)


def test_a_session_cycled_away_is_forgotten(alice, bob):
    """A seat claimed cycles the session's key: the old one is no more."""
    a, _b = seated(alice, bob)
    known_sessions.remember("stale-key-of-a-flushed-session")
    alice.cookies["sessionid"] = "stale-key-of-a-flushed-session"
    alice.get(f"/m/{a.match.code}/")
    assert not known_sessions.is_known("stale-key-of-a-flushed-session")


def _scope(cookie: str | None) -> dict:
    headers = [(b"cookie", f"sessionid={cookie}".encode())] if cookie else []
    return {"type": "http", "headers": headers}


def test_a_restarted_process_budgets_a_seated_phones_loads_by_its_session(alice, bob):
    """The laptop restarted: the new process has seen no response for any
    session, and learns the stored ones at start (manage.py serve), so a
    seated phone's first page loads count against its own session, not the
    venue's one address. A made-up cookie still counts against its address."""
    seated(alice, bob)
    keys = [alice.cookies["sessionid"].value, bob.cookies["sessionid"].value]
    for key in keys:
        known_sessions.forget(key)  # nothing in the new process's memory

    assert known_sessions.learn_stored() >= 2

    for key in keys:
        assert known_sessions.client_of(_scope(key), "10.0.0.1") == (
            f"session:{key}",
            settings.HTTP_REQUESTS_PER_SESSION,
        )
    for forged in ("x" * 32, None):
        assert known_sessions.client_of(_scope(forged), "10.0.0.1") == (
            "address:10.0.0.1",
            settings.HTTP_REQUESTS_PER_ADDRESS,
        )


def test_an_expired_stored_session_is_not_learned_at_start(alice, bob):
    seated(alice, bob)
    key = alice.cookies["sessionid"].value
    Session.objects.filter(session_key=key).update(expire_date=timezone.now() - timedelta(days=1))
    known_sessions.forget(key)
    known_sessions.learn_stored()
    assert not known_sessions.is_known(key)
