"""Tests from a mutation round on the write path of a player's tap
(tracker/actions.py, taps.py, busy.py and views.act / tap_status): small
changes to that code which the tests before them let pass, each of which
would lose a tap, apply a late one, or answer a phone with something that
is not true.

- A tap that was in time when it reached the tracker but waited for the
  match's lock past its deadline is refused unapplied (issue 17): the view
  hands the deadline on to the write path, which checks it under the lock.
  Only actions.append was tested with a deadline; the view could drop it.
- A tap refused past its deadline is answered 200 with X-Tracker-Late: 1.
  app.js takes any other answer as the tap's final one ("landed", the
  refusal shown) and, while it is still waiting, would not send it again:
  the tap would be lost though the player never gave up on it (issue 17).
- The answer to a tap shows the match as the tap left it: the view renders
  it from the row the write path hands back (Outcome.bring_up_to_date),
  not read again. Left as read before the tap, the answer showed the
  page from before it: only test_render_once noticed, by counting renders,
  as the tap tests re-read the page after each tap.
- A retry of a tap that landed (issue 8) is answered with the match as it
  is under the lock: another seat's tap that landed after the view read
  the match is in the answer, not a page from before it.
- An action id stands for one tap of one match: the same id sent in
  another match (two tables' phones) is a tap of its own there, applied.
"""

import time
from types import SimpleNamespace

import pytest

from tracker import actions, taps, views
from tracker.forms import new_id, new_nonce
from tracker.models import Match, MatchEvent
from tracker.rules.sealing import SealNote

from .phone_flows import ok, started

pytestmark = pytest.mark.django_db

NOTE = {"label": "Relay-7f2c", "text": "held at the lock"}


def now_ms() -> int:
    return int(time.time() * 1000)


def seq() -> int:
    return Match.objects.get().seq


def sealed_note(phone, action_id: str, reload: bool = True):
    """The player's note form as the page shows it, sent with `action_id`
    (a retry of one tap sends the same id, as app.js does)."""
    rendered = phone.form("SealNote")
    rendered.fill(NOTE)
    return phone.send(rendered, action_id=action_id, reload=reload)


def test_a_tap_in_time_at_the_door_that_reaches_the_lock_past_its_deadline_is_refused_unapplied(
    monkeypatch,
):
    a, _b, _ids = started()
    a.open()
    before = seq()
    a.tap_deadline_ms = now_ms() - 1
    # The view's first look (taps.is_late) happens a moment before the tap
    # reaches the match's lock; here it sees a clock from before the
    # deadline, as when the tap then waited for the lock behind others.
    door = SimpleNamespace(time=lambda: a.tap_deadline_ms / 1000 - 1)
    monkeypatch.setattr(taps, "time", door)
    sealed_note(a, "lock-late-0001", reload=False)
    assert a.last.status_int == 200
    assert a.error is not None and a.error.startswith("Not saved"), a.error
    assert a.last.headers[taps.LATE_HEADER] == "1"
    assert seq() == before
    assert not MatchEvent.objects.filter(action_id="lock-late-0001").exists()
    # The player sends it again (a new deadline, the same id): applied once.
    monkeypatch.undo()
    a.open()
    a.tap_deadline_ms = now_ms() + 3500
    ok(a, sealed_note(a, "lock-late-0001"))
    assert MatchEvent.objects.filter(action_id="lock-late-0001").count() == seq() - before > 0


def test_a_late_tap_is_answered_as_one_that_did_not_land_so_a_waiting_phone_sends_it_again():
    a, _b, _ids = started()
    a.open()
    before = seq()
    a.tap_deadline_ms = now_ms() - 1
    sealed_note(a, "door-late-0001", reload=False)
    assert a.last.status_int == 200
    assert a.error is not None and a.error.startswith("Not saved"), a.error
    assert a.last.headers[taps.LATE_HEADER] == "1"
    assert seq() == before
    # A late repeat of a tap that did land is answered as it was: landed.
    a.open()
    a.tap_deadline_ms = now_ms() + 3500
    ok(a, sealed_note(a, "door-late-0002"))
    after = seq()
    a.tap_deadline_ms = now_ms() - 1
    ok(a, sealed_note(a, "door-late-0002", reload=False))
    assert taps.LATE_HEADER not in a.last.headers
    assert seq() == after


def test_the_answer_to_a_tap_shows_what_the_tap_did():
    a, _b, _ids = started()
    a.open()
    assert "Relay-7f2c" not in a.text
    answer = sealed_note(a, "answered-tap-01", reload=False)
    # The phone shows its blocks as they were: the answer brings the block
    # that now lists the sealed note, at the seq the tap made.
    assert f'data-seq="{seq()}"' in answer.text
    assert "Relay-7f2c" in answer.text


def test_a_retry_of_a_tap_that_landed_is_answered_with_the_match_as_it_is_under_the_lock(
    monkeypatch,
):
    a, _b, _ids = started()
    a.open()
    ok(a, sealed_note(a, "retried-tap-01"))
    applied = MatchEvent.objects.filter(action_id="retried-tap-01").count()
    a.open()
    real = views.build_command

    def other_seat_lands_first(*args, **kwargs):
        # The retry has read the match; before it reaches the lock, Bob's
        # tap lands (a race played here in one thread).
        note = SealNote(secret_id=new_id(), nonce=new_nonce(), label="Bob's", text="first")
        actions.perform(Match.objects.get(), "B", note, "bobs-tap-00001")
        return real(*args, **kwargs)

    monkeypatch.setattr(views, "build_command", other_seat_lands_first)
    before_retry = seq()
    answer = sealed_note(a, "retried-tap-01", reload=False)
    ok(a, answer)
    assert seq() > before_retry  # Bob's tap landed
    assert MatchEvent.objects.filter(action_id="retried-tap-01").count() == applied
    assert f'data-seq="{seq()}"' in answer.text


def test_an_action_id_seen_in_another_match_is_a_new_tap_in_this_one():
    first, _b1, _ids1 = started()
    second, _b2, _ids2 = started()
    first.open()
    ok(first, sealed_note(first, "same-id-tap-01"))
    match = Match.objects.get(code=second.code)
    before = match.seq
    second.open()
    ok(second, sealed_note(second, "same-id-tap-01"))
    match.refresh_from_db()
    assert match.seq > before
    assert MatchEvent.objects.filter(match=match, action_id="same-id-tap-01").count() == (
        match.seq - before
    )
