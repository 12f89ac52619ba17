"""A tap's deadline (issue 17): app.js stamps each tap with the moment the
phone gives up on it, in the server's clock (X-Tracker-Deadline). A tap
that reaches the write path later (held by a stalled Wi-Fi, or waiting for
the match's lock) is refused unapplied, in the player's language: the phone
has already told the player "not saved", and only the player's "send it
again" may apply it. A repeat of a tap that did land still changes nothing,
and a page without the header (from before it) is served as before."""

import time

import pytest
from django.conf import settings
from django.test import RequestFactory

from tracker import actions
from tracker.forms import new_id, new_nonce
from tracker.models import Match, MatchEvent
from tracker.rules.sealing import SealNote
from tracker.taps import deadline_of

from .phone_flows import ok, started

pytestmark = pytest.mark.django_db

NOTE = {"label": "Objective", "text": "held by the Wi-Fi"}


def now_ms() -> int:
    return int(time.time() * 1000)


def seq() -> int:
    return Match.objects.get().seq


@pytest.mark.parametrize(
    ("language", "refusal"),
    [("en", "Not saved: this tap reached"), ("es", "No se ha guardado: este toque llegó")],
)
def test_a_tap_past_its_deadline_is_refused_unapplied_in_the_players_language(language, refusal):
    a, b, _ids = started()
    a.app.set_cookie(settings.LANGUAGE_COOKIE_NAME, language)
    a.open()
    before, notes = seq(), b.text.count("Objective")
    a.tap_deadline_ms = now_ms() - 1
    a.submit("SealNote", action_id="late-tap-0001", **NOTE)
    assert a.error is not None and a.error.startswith(refusal), a.error
    assert seq() == before
    assert not MatchEvent.objects.filter(action_id="late-tap-0001").exists()
    b.open()
    assert b.text.count("Objective") == notes
    # The player sends it again (a new deadline, the same id): applied once.
    a.tap_deadline_ms = now_ms() + 3500
    ok(a, a.submit("SealNote", action_id="late-tap-0001", **NOTE))
    assert seq() > before
    assert MatchEvent.objects.filter(action_id="late-tap-0001").count() == seq() - before


def test_a_late_repeat_of_a_tap_that_landed_changes_nothing_and_refuses_nothing():
    a, _b, _ids = started()
    a.tap_deadline_ms = now_ms() + 3500
    ok(a, a.submit("SealNote", action_id="landed-tap-01", **NOTE))
    after = seq()
    # The first send's answer was lost; the phone's retry arrives too late.
    a.tap_deadline_ms = now_ms() - 1
    ok(a, a.submit("SealNote", action_id="landed-tap-01", **NOTE))
    assert seq() == after


def test_a_page_without_the_deadline_is_served_as_before():
    a, _b, _ids = started()
    assert a.tap_deadline_ms is None
    before = seq()
    ok(a, a.submit("SealNote", **NOTE))
    assert seq() > before


def test_the_draft_refuses_a_late_tap_too():
    from .phone_flows import seated

    a, _b = seated()
    a.tap_deadline_ms = now_ms() - 1
    a.submit("draft/add", name="Fusilier", cost="10")
    assert a.error is not None and a.error.startswith("Not saved"), a.error
    a.open()
    assert "Fusilier" not in a.text


@pytest.mark.parametrize("header", ["", "soon", "-5", "1e12", "9" * 16, "１２３"])
def test_an_unreadable_deadline_is_no_deadline(header):
    request = RequestFactory().post("/", HTTP_X_TRACKER_DEADLINE=header)
    assert deadline_of(request) is None


def test_the_write_path_checks_the_deadline_under_the_lock():
    started()
    match = Match.objects.get()
    note = SealNote(secret_id=new_id(), nonce=new_nonce(), label="x", text="y")
    before = seq()
    with pytest.raises(actions.TooLate):
        actions.perform(match, "A", note, "path-late-01", time.time() - 1)
    assert seq() == before
    actions.perform(match, "A", note, "path-late-01", time.time() + 5)
    assert seq() > before


def test_a_late_pasted_list_is_not_imported():
    from .phone_flows import seated

    a, _b = seated()
    a.tap_deadline_ms = now_ms() - 1
    a.submit("draft/import", text="Fusilier 10\n")
    assert a.error is not None and a.error.startswith("Not saved"), a.error
    a.open()
    assert "Fusilier" not in a.text
