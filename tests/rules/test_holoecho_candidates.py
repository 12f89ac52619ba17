"""Which troopers a player is offered Holoecho for (holoecho.holoecho_candidates)
is what ActivateHoloecho takes: one list of checks (holoecho.activation_refusal),
the rules' own, carried by the player's view. The page kept a copy of them,
which had fallen behind once (a Dead trooper was offered it, and refused)."""

import pytest

from tracker.rules.errors import NotAllowed
from tracker.rules.holoecho import ActivateHoloecho, activation_refusal, holoecho_candidates
from tracker.rules.state import HOLOECHO, UNCONSCIOUS, replace

from .game import Game, nonce, trooper
from .steps import set_state, to_turn

ECHOES = {"Echo": "marker1", "Other": "marker2"}


def in_retreat():
    """Alice is in Retreat! in her Round 2 turn (25 of 100 points left): her
    Other's Holoecho ended with it (HE-C6); her Echo, a Veteran, ignores
    Retreat! and is still in Holoecho."""
    a = [
        trooper("Lieutenant", 5),
        trooper("Echo", 10, traits=("holoprojector", "veteran")),
        trooper("Other", 10, traits=("holoprojector",)),
        trooper("Big", 75),
    ]
    b = [trooper("Alguacil", 10), trooper("Moblot", 10)]
    game = Game.started(a, b, first="A", seal_a={"holoecho": ECHOES})
    set_state(game, "Big", UNCONSCIOUS, by="B")
    to_turn(game, 2, "A")
    assert game.state.seat("A").retreat
    return game


def activate(game, name):
    return ActivateHoloecho(
        trooper_id=game.id(name), real="marker1", secret_id=nonce(7)[:16], nonce=nonce(8)
    )


def out_of_holoecho(state, trooper_id, **changes):
    """`state` with the trooper's Holoecho over (and `changes` to it)."""
    secrets = {
        key: secret
        for key, secret in state.secrets.items()
        if not (secret.kind == HOLOECHO and secret.trooper_id == trooper_id)
    }
    state = replace(state, secrets=secrets)
    return state.with_trooper(trooper_id, holoechoes=(), **changes)


def test_he_c6_and_he_a2_in_retreat_neither_holoprojector_is_offered_holoecho():
    game = in_retreat()
    assert game.trooper("Other").holoechoes == ()
    assert game.view("A").holoecho_candidates == ()
    assert game.view("B").holoecho_candidates == ()
    for name, rule in (("Other", "HE-C6"), ("Echo", "HE-A2")):
        with pytest.raises(NotAllowed) as refused:
            game.do("A", activate(game, name))
        assert refused.value.rule == rule


def test_the_veteran_out_of_holoecho_is_offered_it_and_once_evacuated_is_not():
    game = in_retreat()
    echo = game.id("Echo")
    state = out_of_holoecho(game.state, echo)
    assert holoecho_candidates(state, "A") == (echo,)
    gone = out_of_holoecho(game.state, echo, evacuated=True)
    assert holoecho_candidates(gone, "A") == ()
    refusal = activation_refusal(gone, "A", gone.troopers[echo])
    assert isinstance(refusal, NotAllowed) and refusal.rule == "RT-6"
