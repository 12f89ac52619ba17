"""HoloMask (HE-9, RT-5): the troop type the opponent reads is the masked
one, sealed at deployment, until HoloMask ends; then the true type is
revealed with its proof. HE-9: the Holoecho token goes down at the first
activation in the Active Turn."""

import json

import pytest

from tracker.rules.errors import InvalidInput, NotAllowed
from tracker.rules.holoecho import PlaceHoloechoToken
from tracker.rules.orders import DeclareSkill, EndOrder
from tracker.rules.retreat import RETREAT_ENTERED
from tracker.rules.sealing import RevealSecret
from tracker.rules.setup import SetInitiative
from tracker.rules.state import (
    CUBE,
    DOCTOR,
    HOLOECHO,
    HOLOMASK,
    HOLOMASK_TYPE,
    HOLOPROJECTOR,
    ORDERS,
)
from tracker.rules.visibility import log_for

from .game import Game, trooper
from .hidden_games import secret, to_phase

TRUE_TYPE = "Hassassin Ayyar"
SHOWN = "Ghulam Sniper"


def lists():
    return (
        [trooper(TRUE_TYPE, 40, traits=[HOLOPROJECTOR, HOLOMASK]), trooper("Kaplan", 20)],
        [trooper("Fusilier", 10), trooper("Bolt", 15)],
    )


def masked_game(real="marker1") -> Game:
    a, b = lists()
    return Game.started(
        a,
        b,
        seal_a={
            "lieutenant": "Kaplan",
            "holoecho": {TRUE_TYPE: real},
            "holomask": {TRUE_TYPE: SHOWN},
        },
    )


def bob_reads(game) -> str:
    view = game.view("B")
    log = log_for(game.state, list(enumerate(game.events, 1)), "B")
    return repr(view) + json.dumps([line.params for line in log], default=str)


def test_the_mask_is_sealed_at_deployment_he_9():
    a, b = lists()
    game = Game.listed(a, b)
    game.do("A", SetInitiative(first_turn="A", deploys_first="A"))
    with pytest.raises(InvalidInput) as refused:
        game.seal("A", lieutenant="Kaplan", holoecho={TRUE_TYPE: "model"})
    assert refused.value.rule == "HE-9"
    # Before the seal the opponent reads no troop type at all for it.
    assert TRUE_TYPE not in bob_reads(game)
    game.seal("A", lieutenant="Kaplan", holoecho={TRUE_TYPE: "model"}, holomask={TRUE_TYPE: SHOWN})
    assert secret(game, TRUE_TYPE, HOLOMASK_TYPE).payload["masked_as"] == SHOWN


def test_the_opponent_reads_the_masked_troop_type_he_9():
    game = masked_game()
    to_phase(game, ORDERS)
    game.do("A", DeclareSkill(trooper_id=game.id(TRUE_TYPE), skill="move"))
    seen = bob_reads(game)
    assert TRUE_TYPE not in seen and HOLOMASK not in seen
    shown = game.view("B").trooper(game.id(TRUE_TYPE))
    assert shown.name == SHOWN and HOLOMASK not in shown.traits and shown.cost == 15
    # No fingerprint either: a seal listed would say which one is masked.
    assert HOLOMASK_TYPE not in [s.kind for s in game.view("B").seat("A").secrets]
    assert game.view("A").trooper(game.id(TRUE_TYPE)).name == TRUE_TYPE


def test_the_holoecho_seal_of_a_masked_trooper_does_not_name_it():
    """Revealing which Holoecho is real must not give the true type away."""
    game = masked_game()
    assert "name" not in secret(game, TRUE_TYPE, HOLOECHO).payload


def test_its_owner_ends_it_and_the_true_type_comes_with_its_proof():
    game = masked_game()
    mask = secret(game, TRUE_TYPE, HOLOMASK_TYPE)
    game.do("A", RevealSecret(secret_id=mask.id))
    seen = {s.id: s for s in game.view("B").seat("A").secrets}[mask.id]
    assert seen.verified and seen.payload["name"] == TRUE_TYPE
    assert game.view("B").trooper(game.id(TRUE_TYPE)).name == TRUE_TYPE
    assert "HoloMaskEnded" in game.kinds()


def test_retreat_ends_holomask_rt_5():
    game = masked_game()
    for hook in RETREAT_ENTERED:
        game.apply(hook(game.state, "A"))
    mask = secret(game, TRUE_TYPE, HOLOMASK_TYPE)
    assert mask.revealed and mask.revealed_rule == "RT-5"
    assert game.view("B").trooper(game.id(TRUE_TYPE)).name == TRUE_TYPE


def test_the_holoecho_token_is_asked_for_at_the_first_activation_he_9():
    game = masked_game()
    to_phase(game, ORDERS)
    hassassin = game.id(TRUE_TYPE)
    game.do("A", DeclareSkill(trooper_id=hassassin, skill="move"))
    with pytest.raises(NotAllowed) as refused:
        game.do("A", EndOrder())
    assert refused.value.rule == "HE-9"
    game.do("A", PlaceHoloechoToken(trooper_id=hassassin, element="marker2"))
    game.do("A", EndOrder())
    assert game.view("B").trooper(hassassin).holoecho_token == "marker2"


def test_the_reroll_offer_names_a_masked_target_by_its_masked_type_he_9_tm_t5():
    """HE-9 + TM-T5: Bob's Trauma Doc may re-roll a failed WIP Roll on any
    trooper with a Cube he sees, Alice's masked one too. His phone lists that
    target by the masked troop type, as everything else he reads names it."""
    game = Game.started(
        [trooper(TRUE_TYPE, 40, traits=[HOLOMASK, CUBE]), trooper("Kaplan", 20)],
        [trooper("Trauma Doc", 15, traits=[DOCTOR]), trooper("Bolt", 15)],
        first="B",
        seal_a={"lieutenant": "Kaplan", "holomask": {TRUE_TYPE: SHOWN}},
    )
    to_phase(game, ORDERS)
    game.do("B", DeclareSkill(trooper_id=game.id("Trauma Doc"), skill="roll_skill"))
    (offer,) = game.view("B").token_offers.t5
    assert offer.targets == ((game.id(TRUE_TYPE), SHOWN),)
    assert TRUE_TYPE not in repr(game.view("B"))
