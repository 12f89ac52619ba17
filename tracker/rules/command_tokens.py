"""TM — Command Tokens: 4 per player per game; spending one is public.

This module holds the spending mechanism every use goes through (TM-0 and the
TM-S2 limit are checked in one place) and the uses themselves.
"""

from __future__ import annotations

from dataclasses import dataclass

from .errors import NotAllowed
from .events import Event
from .evolve import applies
from .i18n import _
from .state import MatchState


@dataclass(frozen=True, kw_only=True)
class CommandTokenSpent(Event):
    seat: str
    use: str  # the rule ID of the use, e.g. "TM-S1"
    describe_as = _("Seat %(seat)s spent a Command Token (%(use)s).")


def spend_token(state: MatchState, seat: str, use: str) -> CommandTokenSpent:
    """The event for spending one token on `use`, or a refusal naming the rule."""
    if state.seat(seat).command_tokens <= 0:
        raise NotAllowed(_("You have no Command Tokens left."), rule=use)
    return CommandTokenSpent(seat=seat, use=use, rule=use)


@applies(CommandTokenSpent)
def _spent(state: MatchState, event: CommandTokenSpent) -> MatchState:
    seat = state.seat(event.seat)
    state = state.with_seat(event.seat, command_tokens=seat.command_tokens - 1)
    if event.use.startswith("TM-S"):
        state = state.with_seat(event.seat, strategic_used=True)
    if state.turn is not None and state.turn.seat == event.seat:
        state = state.with_turn(tokens_spent=state.turn.tokens_spent + 1)
    return state
