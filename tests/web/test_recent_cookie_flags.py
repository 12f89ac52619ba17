"""The cookie that remembers the match a phone opened last (the start page
lists it first) names the matches this browser plays: like the session
cookie, scripts cannot read it and other sites' requests do not carry it.
Only a match this browser plays or created is remembered, not one watched."""

import pytest

from .table import seated

pytestmark = pytest.mark.django_db


def test_the_recent_matches_cookie_is_http_only_and_same_site(alice, bob):
    a, _b = seated(alice, bob)
    response = alice.get(f"/m/{a.match.code}/")
    cookie = response.cookies["tracker_recent"]
    assert cookie.value == a.match.code
    assert cookie["httponly"] is True
    assert cookie["samesite"] == "Lax"


def test_a_spectator_is_given_no_recent_matches_cookie(alice, bob, mallory):
    a, _b = seated(alice, bob)
    response = mallory.get(f"/m/{a.match.code}/")
    assert response.status_code == 200
    assert "tracker_recent" not in response.cookies
