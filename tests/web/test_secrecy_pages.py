"""Sealed secrets never reach the opponent's bytes before their reveal:
pages, htmx partials, error responses.

Players act through the forms their pages render (tests/web/phone.py); the
requests a page never sends (revealing the opponent's secret) are forged
with `raw_post_as`."""

import pytest

from tracker.models import Match
from tracker.reading import load_state

from .phone import Phone
from .phone_flows import CANARY_NINJA, CANARY_POSITION, ok, seal_both, seated, set_up
from .table import error_of, raw_post_as

pytestmark = pytest.mark.django_db


def everything_bob_can_fetch(b: Phone) -> bytes:
    code = b.code
    b.open()
    return b"".join(
        [
            b.app.get(f"/m/{code}/").body,
            b.app.get(f"/m/{code}/blocks/", headers={"HX-Request": "true"}).body,
            # A refused action renders an error partial (forged: no Undo is offered).
            raw_post_as(b, "UndoLastStep").body,
        ]
    )


def secret_of(kind: str, seat: str = "A"):
    return next(
        s
        for s in load_state(Match.objects.get()).secrets.values()
        if s.kind == kind and s.seat == seat
    )


def test_hidden_trooper_and_its_position_never_reach_the_opponent():
    a, b = set_up()
    seal_both(a, b)
    a.open()
    assert CANARY_POSITION in a.text
    mallory = Phone()
    mallory.visit(f"/m/{a.code}/")
    for client_bytes in (everything_bob_can_fetch(b), mallory.html.encode()):
        assert CANARY_NINJA.encode() not in client_bytes
        assert CANARY_POSITION.encode() not in client_bytes
        assert b"Hidden Deployment position" not in client_bytes


def test_lieutenant_and_real_holoecho_stay_private_until_revealed():
    a, b = set_up()
    ids = seal_both(a, b, holoecho="marker1")
    bob_bytes = everything_bob_can_fetch(b)
    assert b"The real one is" not in bob_bytes
    assert b"Kaplan</strong>" not in bob_bytes
    lieutenant = secret_of("lieutenant")
    assert lieutenant.nonce.encode() not in bob_bytes
    assert ids["Kaplan"].encode() in bob_bytes  # Kaplan itself is public, only its role is not
    # The fingerprint of the seal is shown to Bob.
    from tracker.rules.commitments import fingerprint

    assert fingerprint(lieutenant.commitment).encode() in bob_bytes


def test_a_revealed_lieutenant_shows_verified_on_the_opponents_page():
    a, b = set_up()
    seal_both(a, b)
    lieutenant = secret_of("lieutenant")
    a.open()
    ok(a, a.submit("RevealSecret", secret_id=lieutenant.id))
    b.open()
    assert "Kaplan</strong>" in b.html
    assert "Matches what was sealed at" in b.text
    assert lieutenant.nonce in b.html


def test_opponent_cannot_reveal_or_even_name_a_hidden_secret_forged():
    a, b = set_up()
    seal_both(a, b)
    hd = secret_of("hd_position")
    b.open()
    assert not b.can("RevealSecret", secret_id=hd.id)  # no page offers it
    theirs = error_of(raw_post_as(b, "RevealSecret", secret_id=hd.id))
    nothing = error_of(raw_post_as(b, "RevealSecret", secret_id="abcdef123456"))
    assert theirs == nothing == "There is no such secret."
    assert not load_state(Match.objects.get()).secrets[hd.id].revealed


def test_draft_list_is_private_until_locked():
    a, b = seated()
    ok(a, a.submit("draft/add", name="Draft-only-canary", cost="25"))
    b.open()
    assert "Draft-only-canary" not in b.html
    assert "Draft-only-canary" in a.html


def test_opponent_counts_do_not_change_with_a_hidden_trooper():
    """HD intro / HD-3: the order pool and trooper list Bob sees are what they
    would be if the hidden trooper were not in Alice's list at all."""
    a, b = set_up()
    seal_both(a, b)
    # What Bob's phone shows (his HTML), not the view object it is made from.
    b.open()
    alice_block = b.soup.select_one("#blk-seat_A")
    assert [n.get_text() for n in alice_block.select(".name")] == ["Hassassin Ayyar", "Kaplan"]
    assert len(alice_block.select("li.trooper")) == 2
    assert "Group 1: 2" in alice_block.get_text(" ")
    assert CANARY_NINJA not in b.text and "Hidden Deployment" not in alice_block.get_text(" ")
    # Alice's own phone lists the Ninja (so the check above reads real rows);
    # its Order is kept apart from her Order Pool (HD-3).
    a.open()
    mine = a.soup.select_one("#blk-seat_A")
    assert len(mine.select("li.trooper")) == 3 and CANARY_NINJA in mine.get_text(" ")


def test_a_hidden_trooper_is_not_among_the_opponents_state_taps():
    """Issue 18: the page's one State form takes its trooper from a row's
    tap; the rows Bob may tap are Alice's troopers he sees, and the form
    itself names none, so the hidden Ninja is in neither."""
    a, b = set_up()
    seal_both(a, b)
    a.open()
    ninja = a.trooper_id(CANARY_NINJA)
    # Not even its owner sets a hidden trooper's state: no tap on its row.
    assert a.soup.select_one(f"#trooper-{ninja} > button.name") is None
    b.open()
    tappable = b.soup.select("#blk-seat_A li.trooper > button.name")
    assert [n.get_text() for n in tappable] == ["Hassassin Ayyar", "Kaplan"]
    state_form = b.form("SetTrooperState")
    assert state_form.node.select_one("input[name=trooper_id]")["value"] == ""
    assert ninja.encode() not in b.html.encode()
    with pytest.raises(AssertionError, match="no row offers"):
        b.form("SetTrooperState", trooper_id=ninja)
    # And a forged post for it changes nothing.
    before = load_state(Match.objects.get()).troopers[ninja]
    raw_post_as(b, "SetTrooperState", trooper_id=ninja, condition="dead")
    assert load_state(Match.objects.get()).troopers[ninja] == before
