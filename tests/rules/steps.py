"""Moving a test match through Player Turns and phases."""

from __future__ import annotations

from tracker.rules.command_tokens import s2_deciding
from tracker.rules.conditions import SetTrooperState
from tracker.rules.state import PLAYING, TACTICAL
from tracker.rules.turns import AdvancePhase, DeclineStrategicUse


def advance(game) -> None:
    """One tap on the active player's "End phase"; when the Order Count opens
    the TM-S2 moment, the second player lets it pass (tests of TM-S2 use
    count_orders instead)."""
    let_s2_pass(game)
    game.do(game.state.turn.seat, AdvancePhase(expected=game.state.turn.phase))
    let_s2_pass(game)


def let_s2_pass(game) -> None:
    deciding = s2_deciding(game.state)
    if deciding is not None:
        game.do(deciding, DeclineStrategicUse())


def count_orders(game) -> None:
    """The active player makes the Order Count and stays in the Tactical
    Phase: the TM-S2 moment, if any, is open."""
    assert game.state.turn.phase == TACTICAL
    game.do(game.state.turn.seat, AdvancePhase(expected=TACTICAL))


def to_phase(game, phase: str) -> None:
    """Advance the active player's Turn until `phase` (in this Turn)."""
    seat = game.state.turn.seat
    while game.state.turn.phase != phase:
        advance(game)
        assert game.state.turn is not None and game.state.turn.seat == seat, "phase not reached"


def end_turn(game) -> None:
    """Advance through the rest of the active Player Turn."""
    seat, round_ = game.state.turn.seat, game.state.turn.round
    while (
        game.state.phase == PLAYING
        and game.state.turn.seat == seat
        and game.state.turn.round == round_
    ):
        advance(game)


def to_turn(game, round_: int, seat: str) -> None:
    """Advance to the start of `seat`'s Player Turn in Game Round `round_`."""
    while (game.state.turn.round, game.state.turn.seat) != (round_, seat):
        end_turn(game)


def set_state(game, name: str, condition: str = "normal", tokens=(), by: str = "A") -> None:
    game.do(by, SetTrooperState(trooper_id=game.id(name), condition=condition, tokens=list(tokens)))
