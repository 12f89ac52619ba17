"""Whether a tap landed (views.tap_status), and the CSRF token a page renews.

A Wi-Fi that fails towards the phone lets a tap land and holds back its
answer: the phone says "not saved". Once the link is back, app.js asks the
tracker whether its tap, by its action id, was applied, and takes the "not
saved" back if it was (tests/browser/test_link_faults.py plays it on a
phone). Only the seat's own taps are told: never the other seat's, never a
spectator's page, in the asker's language.

A login in another tab renews the browser's CSRF cookie: the page's token
is refused before anything is read, with a header app.js knows, and it asks
/csrf/ for the new one (tests/browser/test_venue_taps.py).
"""

import pytest
from django.conf import settings
from django.test import Client

from tracker.models import MatchEvent

from .phone import Phone
from .phone_flows import ok, started

pytestmark = pytest.mark.django_db

NOTE = {"label": "Objective", "text": "its answer held by the Wi-Fi"}


def asked(phone: Phone, action_id: str, status: int = 200):
    return phone.app.get(
        f"/m/{phone.code}/tap/{action_id}/", status=status, headers={"HX-Request": "true"}
    )


def test_a_player_is_told_whether_their_own_tap_landed():
    a, b, _ids = started()
    a.open()
    ok(a, a.submit("SealNote", action_id="landed-tap-0001", **NOTE))
    assert MatchEvent.objects.filter(action_id="landed-tap-0001").exists()

    answer = asked(a, "landed-tap-0001")
    assert answer.json == {"applied": True}
    assert answer.headers["Cache-Control"] == "no-store"
    assert asked(a, "never-sent-0001").json == {"applied": False}
    # The same id asked by the other seat: not theirs, so not applied for them.
    assert asked(b, "landed-tap-0001").json == {"applied": False}


@pytest.mark.parametrize(
    ("language", "words"),
    [("en", "Only a player of this match"), ("es", "Solo un jugador de esta partida")],
)
def test_attack_a_spectator_is_told_nothing_of_the_players_taps(language, words):
    a, _b, _ids = started()
    a.open()
    ok(a, a.submit("SealNote", action_id="landed-tap-0002", **NOTE))
    spectator = Phone(language=language)
    spectator.open(a.code)
    answer = asked(spectator, "landed-tap-0002", status=403)
    assert words in answer.text
    assert "applied" not in answer.text


def test_attack_a_foreign_csrf_token_is_refused_as_expired_and_a_page_renews_its_own():
    phone = Phone()
    phone.app.get("/")
    token = phone.app.get("/csrf/")
    assert token.headers["Cache-Control"] == "no-store"
    assert token.content_type == "text/plain" and len(token.text) >= 32

    # A post with a token that is not this browser's: refused before anything
    # is read, with the header app.js renews its token on.
    client = Client(enforce_csrf_checks=True)
    client.get("/")
    refused = client.post("/new/", {"name": "x"}, HTTP_X_CSRFTOKEN="0" * 64)
    assert refused.status_code == 403
    assert refused.headers["X-Tracker-Csrf"] == "expired"
    assert settings.CSRF_FAILURE_VIEW == "tracker.errors.csrf_failure"
