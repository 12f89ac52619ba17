"""Sealed secrets never reach the opponent's bytes before their reveal:
pages, htmx partials, error responses."""

import re

import pytest

from tracker.models import Match
from tracker.reading import load_state

from .flows import CANARY_NINJA, CANARY_POSITION, seal_both, set_up
from .leaks import blocks_in
from .table import error_of

pytestmark = pytest.mark.django_db


def everything_bob_can_fetch(b):
    code = b.match.code
    return b"".join(
        [
            b.client.get(f"/m/{code}/").content,
            b.client.get(f"/m/{code}/blocks/", HTTP_HX_REQUEST="true").content,
            b.act("UndoLastStep").content,  # a refused action renders an error partial
        ]
    )


def test_hidden_trooper_and_its_position_never_reach_the_opponent(alice, bob, mallory):
    a, b = set_up(alice, bob)
    seal_both(a, b, load_state(Match.objects.get()))
    assert CANARY_POSITION.encode() in alice.get(f"/m/{a.match.code}/").content
    for client_bytes in (everything_bob_can_fetch(b), mallory.get(f"/m/{a.match.code}/").content):
        assert CANARY_NINJA.encode() not in client_bytes
        assert CANARY_POSITION.encode() not in client_bytes
        assert b"Hidden Deployment position" not in client_bytes


def test_lieutenant_and_real_holoecho_stay_private_until_revealed(alice, bob):
    a, b = set_up(alice, bob)
    ids = seal_both(a, b, load_state(Match.objects.get()), holoecho="marker1")
    bob_bytes = everything_bob_can_fetch(b)
    assert b"The real one is" not in bob_bytes
    assert b"Kaplan</strong>" not in bob_bytes
    lieutenant = next(
        s
        for s in load_state(Match.objects.get()).secrets.values()
        if s.kind == "lieutenant" and s.seat == "A"
    )
    assert lieutenant.nonce.encode() not in bob_bytes
    assert ids["Kaplan"].encode() in bob_bytes  # Kaplan itself is public, only its role is not
    # The fingerprint of the seal is shown to Bob.
    from tracker.rules.commitments import fingerprint

    assert fingerprint(lieutenant.commitment).encode() in bob_bytes


def test_a_revealed_lieutenant_shows_verified_on_the_opponents_page(alice, bob):
    a, b = set_up(alice, bob)
    seal_both(a, b, load_state(Match.objects.get()))
    lieutenant = next(
        s
        for s in load_state(Match.objects.get()).secrets.values()
        if s.kind == "lieutenant" and s.seat == "A"
    )
    assert error_of(a.act("RevealSecret", secret_id=lieutenant.id)) is None
    page = b.page()
    assert "Kaplan</strong>" in page
    assert "Matches what was sealed at" in page
    assert lieutenant.nonce in page


def test_opponent_cannot_reveal_or_even_name_a_hidden_secret(alice, bob):
    a, b = set_up(alice, bob)
    seal_both(a, b, load_state(Match.objects.get()))
    hd = next(
        s for s in load_state(Match.objects.get()).secrets.values() if s.kind == "hd_position"
    )
    theirs = error_of(b.act("RevealSecret", secret_id=hd.id))
    nothing = error_of(b.act("RevealSecret", secret_id="abcdef123456"))
    assert theirs == nothing == "There is no such secret."
    assert not load_state(Match.objects.get()).secrets[hd.id].revealed


def test_draft_list_is_private_until_locked(alice, bob):
    from .table import seated

    a, b = seated(alice, bob)
    a.add_trooper("Draft-only-canary", 25)
    assert b"Draft-only-canary" not in bob.get(f"/m/{a.match.code}/").content
    assert b"Draft-only-canary" in alice.get(f"/m/{a.match.code}/").content


def test_opponent_counts_do_not_change_with_a_hidden_trooper(alice, bob):
    """HD intro / HD-3: the order pool and trooper list Bob sees are what they
    would be if the hidden trooper were not in Alice's list at all."""
    a, b = set_up(alice, bob)
    seal_both(a, b, load_state(Match.objects.get()))
    # What Bob's phone shows (his HTML), not the view object it is made from.
    html = b.page()
    alice_block = blocks_in(html)["blk-seat_A"]
    assert re.findall(r'<span class="name">([^<]*)</span>', alice_block) == [
        "Hassassin Ayyar",
        "Kaplan",
    ]
    assert len(re.findall(r'<li class="trooper', alice_block)) == 2
    order_pool = re.search(r"Order Pool: (.*?)</p>", alice_block, re.S).group(1)
    assert re.sub(r"<[^>]+>|\s+", " ", order_pool).split() == ["Group", "1:", "2"]
    assert CANARY_NINJA not in html and "Hidden Deployment" not in alice_block
    # Alice's own phone lists the Ninja (so the check above reads real rows);
    # its Order is kept apart from her Order Pool (HD-3).
    mine = blocks_in(a.page())["blk-seat_A"]
    assert len(re.findall(r'<li class="trooper', mine)) == 3 and CANARY_NINJA in mine
