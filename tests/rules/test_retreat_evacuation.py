"""RT — Retreat!: evacuated troopers (RT-6) and what they still count for
(RT-1, RT-2). Each test here pins a behaviour the other RT tests left open."""

import pytest

from tracker.rules.errors import NotAllowed
from tracker.rules.retreat import EvacuateTrooper
from tracker.rules.state import NORMAL, PLAYING, UNCONSCIOUS

from .game import Game, trooper
from .steps import end_turn, set_state, to_turn


def in_retreat():
    """Alice loses Big in Round 1: 25 of 100 survive (exactly 25%), so she is
    in Retreat! from the start of her Round 2 Player Turn."""
    a = [trooper("Lieutenant", 10), trooper("Other", 15), trooper("Big", 75)]
    b = [trooper("Alguacil", 10), trooper("Moblot", 10)]
    game = Game.started(a, b, first="A")
    set_state(game, "Big", UNCONSCIOUS, by="B")
    to_turn(game, 2, "A")
    assert game.state.seat("A").retreat
    return game


def test_rt_2_an_evacuated_trooper_no_longer_carries_a_retreat_marker():
    """RT-2 puts a marker beside each surviving trooper on the table; one that
    left by its deployment edge (RT-6) is off the table: no marker, for anyone."""
    game = in_retreat()
    game.do("A", EvacuateTrooper(trooper_id=game.id("Other")))
    for viewer in ("A", "B", None):
        marks = {t.name: t.retreat_marker for t in game.view(viewer).seat("A").troopers}
        assert marks == {"Lieutenant": True, "Other": False, "Big": False}


def test_rt_6_a_trooper_leaves_the_table_only_once():
    game = in_retreat()
    game.do("A", EvacuateTrooper(trooper_id=game.id("Other")))
    with pytest.raises(NotAllowed) as refused:
        game.do("A", EvacuateTrooper(trooper_id=game.id("Other")))
    assert refused.value.rule == "RT-6"
    assert [e.kind for e in game.events].count("TrooperEvacuated") == 1


def test_rt_1_an_evacuated_lieutenant_does_not_end_loss_of_lieutenant_with_retreat():
    """RT-X2 ends Retreat!; RT-1's Loss of Lieutenant ends with it only if the
    Lieutenant is still in the fight. One that left the table by its edge
    (RT-6) counts as a survivor for RT-A, but it is no Lieutenant on the table."""
    game = in_retreat()
    game.do("A", EvacuateTrooper(trooper_id=game.id("Lieutenant")))
    set_state(game, "Big", NORMAL)  # a Doctor brought Big back
    to_turn(game, 3, "A")
    assert not game.state.seat("A").retreat
    ended = [e for e in game.events if e.kind == "RetreatEnded"]
    assert [e.rule for e in ended] == ["RT-X2"]
    assert game.state.seat("A").loss_of_lieutenant
    assert game.view("B").seat("A").loss_of_lieutenant


def test_rt_6_no_trooper_leaves_the_table_once_the_match_is_over():
    """RT-6 is a move of the battle: an army still in Retreat! when the last
    Game Round ends evacuates nobody afterwards (the survivors are counted
    as the match ended)."""
    game = in_retreat()
    while game.state.phase == PLAYING:
        end_turn(game)
    assert game.state.seat("A").retreat
    with pytest.raises(NotAllowed):
        game.do("A", EvacuateTrooper(trooper_id=game.id("Other")))
    assert "TrooperEvacuated" not in [e.kind for e in game.events]
    assert not game.state.troopers[game.id("Other")].evacuated
