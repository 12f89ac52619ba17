"""Classified Objectives exchanged more than once (CL-4), the phases they
are drawn in (CL-2) and accomplished in (CL-5): what planted faults in
tracker/rules/classified.py showed no test checked.

- CL-4: a second exchange deals from the cards the player has never seen,
  the card the first exchange dealt included: never a card twice.
- CL-2: they are drawn, kept and exchanged until the first turn, during
  deployment too, and not after.
- CL-5: accomplished in play only, with a proof of up to 300 characters.
- CL-1: a player may keep every card drawn.
- CL-2/CL-4: the organizer's check of the draw follows every exchange, in
  order: an honest draw with two exchanges checks out."""

from __future__ import annotations

import pytest

from tests.rules.game import nonce
from tests.rules.test_classified import configured, do_draw, do_keep, seed
from tracker.rules.classified import (
    MAX_PROOF,
    AccomplishClassified,
    ExchangeClassified,
    accomplished_points,
    check_draw,
    clean_config,
    draw,
    hand_of,
)
from tracker.rules.errors import InvalidInput, NotAllowed
from tracker.rules.setup import SetInitiative
from tracker.rules.state import DEPLOYMENT, PLAYING

DECK = ["Data Scan", "Sabotage", "Telemetry", "Test Run"]


def exchange(game, secret_id: str, n: int, new_id: str):
    game.do(
        "A",
        ExchangeClassified(secret_id=secret_id, seed=seed(n), new_secret_id=new_id, nonce=nonce(n)),
    )
    return game.state.secrets[new_id].payload


def test_a_second_exchange_never_deals_the_card_the_first_one_dealt_cl_4():
    game = configured(drawn=2, kept=1, exchanges=2, deck=DECK)
    do_draw(game, "A", n=1)
    do_keep(game, "A", [0])
    drawn = draw(DECK, seed(1), 2)
    (held,) = hand_of(game.state, "A")["held"]
    first = exchange(game, held, 40, "x0000001")
    assert sorted(first["pool"]) == sorted(c for c in DECK if c not in drawn)
    # One card of the deck is left unseen: the second exchange deals it,
    # whatever its seed.
    second = exchange(game, "x0000001", 41, "x0000002")
    (unseen,) = [c for c in DECK if c not in drawn and c != first["card"]]
    assert second["pool"] == [unseen] and second["card"] == unseen
    assert hand_of(game.state, "A")["held"] == ("x0000002",)


def test_the_draw_checks_out_after_two_exchanges_cl_2_cl_4():
    game = configured(drawn=3, kept=2, exchanges=2)
    do_draw(game, "A", n=6)
    do_keep(game, "A", [0, 2])
    one, two = hand_of(game.state, "A")["held"]
    exchange(game, one, 50, "x0000003")
    exchange(game, two, 51, "x0000004")
    assert check_draw(game.state, "A") == (True, "ok")


def test_classifieds_are_drawn_kept_and_exchanged_until_the_first_turn_cl_2():
    """CL-2: drawn and chosen before the first turn, deployment included
    (a player who had not drawn when the initiative was settled still
    can); once play starts, no more."""
    game = configured(drawn=3, kept=2, exchanges=1)
    game.do("A", SetInitiative(first_turn="A", deploys_first="A"))
    assert game.state.phase == DEPLOYMENT
    do_draw(game, "A", n=7)
    do_keep(game, "A", [1, 2])
    exchange(game, hand_of(game.state, "A")["held"][0], 60, "x0000005")
    game.seal("A")
    game.seal("B")
    assert game.state.phase == PLAYING
    with pytest.raises(NotAllowed):
        do_draw(game, "B", n=8)


def test_a_classified_is_accomplished_only_in_play_with_a_proof_up_to_300_characters_cl_5():
    game = configured(drawn=3, kept=2, points=2)
    do_draw(game, "A", n=12)
    do_keep(game, "A", [0, 1])
    done, other = hand_of(game.state, "A")["held"]
    game.do("A", SetInitiative(first_turn="A", deploys_first="A"))
    with pytest.raises(NotAllowed):  # deployment: not yet in play
        game.do("A", AccomplishClassified(secret_id=done, proof="Engineer on the console"))
    game.seal("A")
    game.seal("B")
    with pytest.raises(InvalidInput):
        game.do("A", AccomplishClassified(secret_id=done, proof="x" * (MAX_PROOF + 1)))
    game.do("A", AccomplishClassified(secret_id=done, proof="x" * MAX_PROOF))
    assert hand_of(game.state, "A")["held"] == (other,)
    assert accomplished_points(game.state, "A") == 2


def test_a_player_may_keep_every_card_drawn_cl_1():
    assert clean_config(2, 2, 0, 1, DECK)["kept"] == 2
