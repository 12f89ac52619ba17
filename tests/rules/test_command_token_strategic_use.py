"""TM — Command Tokens: what spends the once-per-game Strategic Use (TM-S1
and TM-S2 only)."""

from tracker.rules.state import ORDERS
from tracker.rules.token_tactical import ForceGutsRoll

from .game import Game, trooper
from .steps import to_phase


def new_game():
    """Round 1, Alice plays first and is in her Tactical Phase."""
    a = [trooper("Kaplan", 20), trooper("Fusilier", 10), trooper("Bolt", 15, group=2)]
    b = [trooper("Alguacil", 10), trooper("Moblot", 10, group=2)]
    return Game.started(a, b, first="A")


def test_a_tactical_use_does_not_spend_the_strategic_use():
    """Only TM-S1 and TM-S2 are the once-per-game Strategic Use; a Tactical
    Use (TM-T2) spends a token and nothing more, on every phone."""
    game = new_game()
    to_phase(game, ORDERS)
    game.do("A", ForceGutsRoll(trooper_id=game.id("Fusilier"), passed=True))
    assert game.state.seat("A").command_tokens == 3
    assert not game.state.seat("A").strategic_used
    for viewer in ("A", "B", None):
        assert not game.view(viewer).seat("A").strategic_used
