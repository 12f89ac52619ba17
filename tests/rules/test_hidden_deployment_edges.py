"""HD — Hidden Deployment: HD-C2 against HD-C4 in the opponent's Impetuous
Phase, the HD-4 window, and a TM-S1 reserve that fails its Infiltration."""

import pytest

from tracker.rules.errors import NotAllowed
from tracker.rules.setup import SetInitiative
from tracker.rules.state import HD_POSITION, IMPETUOUS, IMPETUOUS_PHASE, ORDERS, RESERVE
from tracker.rules.visibility import log_for

from .game import Game, trooper
from .hidden_games import (
    NINJA_AT,
    YAOGAT_AT,
    army_a,
    army_b,
    aro,
    declare,
    end_turn,
    of_kind,
    report,
    secret,
    started,
    to_phase,
)


def bob_acts_in_his_impetuous_phase():
    """Bob plays first; his Impetuous Morat acts in his Impetuous Phase while
    Alice's Ninja and Yaogat are still in Hidden Deployment."""
    game = Game.started(
        army_a(),
        [*army_b(), trooper("Morat", 20, traits=[IMPETUOUS])],
        first="B",
        seal_a={
            "lieutenant": "Kaplan",
            "hd": {"Ninja": NINJA_AT, "Yaogat": YAOGAT_AT},
            "holoecho": {"Hassassin": "marker1"},
        },
    )
    to_phase(game, IMPETUOUS_PHASE)
    declare(game, "Morat", "move", seat="B")
    return game


def test_an_aro_in_the_opponents_impetuous_phase_ends_hd_by_hd_c2_not_hd_c4():
    """HD-C4 is the hidden trooper's own Impetuous Order; an ARO it declares
    in the opponent's Impetuous Phase is an ARO like any other (HD-C2)."""
    game = bob_acts_in_his_impetuous_phase()
    events = aro(game, "Ninja", "bs_attack", target="Morat")
    ended = of_kind(events, "HiddenDeploymentEnded")
    assert [e.rule for e in ended] == ["HD-C2"]
    seen = {s.id: s for s in game.view("B").seat("A").secrets}
    hd = seen[secret(game, "Ninja", HD_POSITION).id]
    assert hd.revealed_rule == "HD-C2" and hd.payload["position"] == NINJA_AT
    assert game.trooper("Yaogat").hidden


def test_the_infiltration_roll_is_not_reported_in_a_later_round_hd_4():
    """HD-4: the roll follows the written position, before play begins; the
    first Tactical Phase of Round 1 is the last moment, not any first player's
    Tactical Phase."""
    game = started()
    end_turn(game)
    end_turn(game)
    assert (game.state.turn.round, game.state.turn.seat) == (2, "A")
    assert game.state.turn.phase == "tactical" and game.trooper("Yaogat").hidden
    with pytest.raises(NotAllowed) as refused:
        report(game, "infiltration_failed", "Yaogat", by="A")
    assert refused.value.rule == "HD-4"
    assert game.trooper("Yaogat").hidden


def test_a_reserve_that_fails_its_infiltration_stays_sealed_until_deployment_ends_hd_4_tm_s1():
    """TM-S1: the reserve is deployed after the opponent. A reserved hidden
    infiltrator that fails its roll during deployment (HD-4) goes on its edge,
    but which trooper was held back is not told before Bob has deployed."""
    game = Game.listed(army_a(), army_b())
    game.do("A", SetInitiative(first_turn="A", deploys_first="A"))
    game.seal(
        "A",
        lieutenant="Kaplan",
        hd={"Ninja": NINJA_AT, "Yaogat": YAOGAT_AT},
        holoecho={"Hassassin": "model"},
        reserve="Yaogat",
    )
    events = report(game, "infiltration_failed", "Yaogat", by="A")
    assert of_kind(events, "HiddenDeploymentEnded")[0].on_edge
    reserve = next(s for s in game.state.secrets.values() if s.kind == RESERVE)
    assert not game.state.secrets[reserve.id].revealed
    seen = {s.id: s for s in game.view("B").seat("A").secrets}
    assert seen[reserve.id].payload is None and not seen[reserve.id].revealed
    assert not [e for e in events if e.kind == "SecretRevealed" and e.secret_kind == RESERVE]
    # Once Bob has sealed his deployment, the reserve is on the table: revealed.
    game.seal("B")
    assert game.state.secrets[reserve.id].revealed_rule == "TM-S1"


def test_a_reserve_deployed_hidden_stays_sealed_until_its_hidden_deployment_ends_hd_tm_s1():
    """TM-S1 + HD intro: a reserved trooper deployed in Hidden Deployment is
    not on the table when deployment ends, so its reserve seal stays closed:
    revealing it would name a trooper whose very existence is private. Bob
    reads nothing of it; the seal opens (TM-S1) once its HD ends (HD-C2)."""
    game = Game.listed(army_a(), army_b())
    game.do("A", SetInitiative(first_turn="A", deploys_first="A"))
    game.seal(
        "A",
        lieutenant="Kaplan",
        hd={"Ninja": NINJA_AT, "Yaogat": YAOGAT_AT},
        holoecho={"Hassassin": "model"},
        reserve="Ninja",
    )
    events = game.seal("B")
    ninja = game.trooper("Ninja")
    reserve = next(s for s in game.state.secrets.values() if s.kind == RESERVE)
    assert ninja.hidden and not game.state.secrets[reserve.id].revealed
    assert not [e for e in events if e.kind == "SecretRevealed"]
    for viewer in ("B", None):
        seen = repr(game.view(viewer)) + repr(
            [line.params for line in log_for(game.state, list(enumerate(game.events, 1)), viewer)]
        )
        assert "Ninja" not in seen and ninja.id not in seen
        assert reserve.id in seen  # its fingerprint: a reserve was made, not which
    # Every event naming the Ninja so far is Alice's alone: who may read an
    # event is the event's own say (Event.visible_to), line or no line today.
    assert all(e.private_to == "A" for e in game.events if ninja.id in repr(e))
    to_phase(game, ORDERS)
    declare(game, "Ninja", "move")
    assert game.state.secrets[reserve.id].revealed_rule == "TM-S1"
