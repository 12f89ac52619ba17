""" "Send it again" of a tap given up on (static/tracker/app.js) names the
seq of the page the tap was first made on (X-Tracker-Again). If the match
moved on since, the tap is refused unapplied, in the player's language: the
bar offered a tap the player made on an older page, and replayed it unasked
after she had moved on (a second Order spent, her proposal put over the
opponent's newer one). A tap that did land is answered as landed; from the
page it was made on, it is sent as any tap."""

import pytest
from django.conf import settings

from tracker.models import Match, MatchEvent

from .phone_flows import ok, started

pytestmark = pytest.mark.django_db

NOTE = {"label": "Objective", "text": "given up in a stall"}
MOVED_ON = {
    "en": "Not sent again: the match has moved on since this tap.",
    "es": "No se ha enviado otra vez: la partida ha seguido desde ese toque.",
}


def seq() -> int:
    return Match.objects.get().seq


@pytest.mark.parametrize("language", ["en", "es"])
def test_send_again_after_her_own_later_tap_is_refused_unapplied(language):
    a, _b, _ids = started()
    a.app.set_cookie(settings.LANGUAGE_COOKIE_NAME, language)
    a.open()
    made_on = seq()  # Alice's tap is given up on this page; she taps on
    ok(a, a.submit("SealNote", label="Later", text="landed"))
    a.again_from_seq = made_on
    a.submit("SealNote", action_id="given-up-0001", **NOTE)
    assert a.error is not None and a.error.startswith(MOVED_ON[language]), a.error
    assert not MatchEvent.objects.filter(action_id="given-up-0001").exists()
    # The answer is the page as it is now.
    assert f'data-seq="{seq()}"' in a.html


def test_send_again_after_only_the_opponent_acted_is_applied():
    a, b, _ids = started()
    made_on = seq()
    ok(b, b.submit("SealNote", label="Bob's", text="meanwhile"))
    a.again_from_seq = made_on
    ok(a, a.submit("SealNote", action_id="given-up-0004", **NOTE))
    assert MatchEvent.objects.filter(action_id="given-up-0004").exists()


def test_send_again_of_a_proposal_after_the_opponent_s_newer_one_is_refused():
    """Alice's proposal was given up; Bob proposed meanwhile. Sent again, it
    put her numbers over his without a word: refused, his stays to answer."""
    a, b, _ids = started()
    a.open()
    made_on = seq()
    ok(b, b.submit("ProposeResult", objective_a=5, objective_b=5, army_a=10, army_b=10))
    a.again_from_seq = made_on
    a.submit(
        "ProposeResult",
        action_id="given-up-0005",
        objective_a=7,
        objective_b=3,
        army_a=10,
        army_b=10,
    )
    assert a.error is not None and a.error.startswith(MOVED_ON["en"]), a.error
    result = Match.objects.get().result
    assert result["proposed_by"] == "B" and result["objective_points"] == {"A": 5, "B": 5}


def test_send_again_from_the_page_it_was_made_on_is_applied():
    a, _b, _ids = started()
    a.again_from_seq = seq()
    ok(a, a.submit("SealNote", action_id="given-up-0002", **NOTE))
    assert MatchEvent.objects.filter(action_id="given-up-0002").exists()


def test_send_again_of_a_tap_that_landed_is_answered_as_landed():
    """A one-way stall held back its answer: it landed, and the match moved
    on with it. Sent again, it changes nothing and refuses nothing."""
    a, _b, _ids = started()
    made_on = seq()
    ok(a, a.submit("SealNote", action_id="given-up-0003", **NOTE))
    after = seq()
    a.again_from_seq = made_on
    ok(a, a.submit("SealNote", action_id="given-up-0003", **NOTE))
    assert seq() == after


@pytest.mark.parametrize("sent", ["\u00b2", "9" * 5000], ids=["superscript-two", "5000-digits"])
def test_attack_a_seq_that_is_no_number_counts_as_none(sent):
    """The header is the phone's to write: "²" (a digit to str.isdigit, not
    to int()) or 5000 digits (past int()'s limit) were a 500 with its
    traceback. Read as no header, the tap is sent as any tap."""
    a, _b, _ids = started()
    a.again_from_seq = sent
    ok(a, a.submit("SealNote", action_id="given-up-0006", **NOTE))
    assert MatchEvent.objects.filter(action_id="given-up-0006").exists()
