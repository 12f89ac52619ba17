"""The Impetuous Phase (N4; RULES.md names it in RT-4, HD-C4 and HE-C6).

Only a trooper with an Impetuous Order acts there, once, on that Order; any
other trooper's Order is spent in the Orders Phase, so declaring it in the
Impetuous Phase is refused and the Order Pool is untouched.
"""

import pytest

from tracker.rules.errors import NotAllowed
from tracker.rules.orders import DeclareSkill, EndOrder, ReportOutcome
from tracker.rules.state import FRENZY, IMPETUOUS, IMPETUOUS_PHASE, ORDERS

from .game import Game, trooper
from .steps import end_turn, to_phase


def game_in_impetuous_phase():
    a = [
        trooper("Kaplan", 20),
        trooper("Fusilier", 10),
        trooper("Morat", 20, traits=[IMPETUOUS]),
        trooper("Berserker", 25, traits=[FRENZY]),
    ]
    b = [trooper("Bolt", 15)]
    game = Game.started(a, b, first="B")
    end_turn(game)
    to_phase(game, IMPETUOUS_PHASE)
    return game


def test_a_non_impetuous_troopers_order_is_refused_in_the_impetuous_phase():
    """Impetuous Phase: no Regular Order is spent there for free."""
    game = game_in_impetuous_phase()
    before = dict(game.view("A").orders_left)
    with pytest.raises(NotAllowed) as refused:
        game.do("A", DeclareSkill(trooper_id=game.id("Fusilier"), skill="move"))
    assert "Impetuous" in str(refused.value)
    assert game.state.turn.order is None
    assert game.view("A").orders_left == before
    # A Frenzy trooper is not Impetuous until the table says it became so.
    with pytest.raises(NotAllowed):
        game.do("A", DeclareSkill(trooper_id=game.id("Berserker"), skill="move"))


def test_an_impetuous_trooper_acts_once_on_its_impetuous_order_outside_the_pool():
    game = game_in_impetuous_phase()
    before = dict(game.view("A").orders_left)
    events = game.do("A", DeclareSkill(trooper_id=game.id("Morat"), skill="move"))
    assert events[0].kind == "OrderStarted" and events[0].source == "impetuous"
    game.do("A", EndOrder())
    assert game.view("A").orders_left == before
    with pytest.raises(NotAllowed, match="already used its Impetuous Order"):
        game.do("A", DeclareSkill(trooper_id=game.id("Morat"), skill="move"))
    # In the Orders Phase the same trooper uses a Regular Order, as anyone.
    to_phase(game, ORDERS)
    game.do("A", DeclareSkill(trooper_id=game.id("Morat"), skill="move"))
    assert game.view("A").orders_left[1] == before[1] - 1


def test_the_phone_offers_the_impetuous_order_only_to_troopers_that_have_one():
    game = game_in_impetuous_phase()
    assert game.view("A").impetuous_ids == (game.id("Morat"),)
    assert game.view("B").impetuous_ids == () and game.view(None).impetuous_ids == ()
    # A Frenzy trooper reported Impetuous by the table has one from then on.
    game.do("B", ReportOutcome(outcome="impetuous", trooper_id=game.id("Berserker")))
    assert set(game.view("A").impetuous_ids) == {game.id("Morat"), game.id("Berserker")}
    game.do("A", DeclareSkill(trooper_id=game.id("Morat"), skill="move"))
    assert game.view("A").impetuous_ids == ()  # an Order is in progress
    game.do("A", EndOrder())
    assert game.view("A").impetuous_ids == (game.id("Berserker"),)
