"""Which cookies count as a session of their own for page loads
(tracker/known_sessions.py): a session a response showed to exist, never a
value a client made up (that would let one client at a venue's address
take a fresh budget, and a fresh turn, with every request)."""

from __future__ import annotations

import pytest

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
