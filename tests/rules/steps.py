"""Moving a test match through Player Turns and phases."""

from __future__ import annotations

from tracker.rules.conditions import SetTrooperState
from tracker.rules.state import PLAYING
from tracker.rules.turns import AdvancePhase


def to_phase(game, phase: str) -> None:
    """Advance the active player's Turn until `phase` (in this Turn)."""
    seat = game.state.turn.seat
    while game.state.turn.phase != phase:
        game.do(seat, AdvancePhase(expected=game.state.turn.phase))
        assert game.state.turn is not None and game.state.turn.seat == seat, "phase not reached"


def end_turn(game) -> None:
    """Advance through the rest of the active Player Turn."""
    seat, round_ = game.state.turn.seat, game.state.turn.round
    while (
        game.state.phase == PLAYING
        and game.state.turn.seat == seat
        and game.state.turn.round == round_
    ):
        game.do(seat, AdvancePhase(expected=game.state.turn.phase))


def to_turn(game, round_: int, seat: str) -> None:
    """Advance to the start of `seat`'s Player Turn in Game Round `round_`."""
    while (game.state.turn.round, game.state.turn.seat) != (round_, seat):
        end_turn(game)


def set_state(game, name: str, condition: str = "normal", tokens=(), by: str = "A") -> None:
    game.do(by, SetTrooperState(trooper_id=game.id(name), condition=condition, tokens=list(tokens)))
