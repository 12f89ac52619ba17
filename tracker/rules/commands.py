"""decide(state, seat, command) -> events. Pure: no clock, no randomness, no I/O.

Anything random (ids, nonces) is chosen by the caller and travels inside the
command, so deciding the same command on the same state always gives the same
events, and the log replays exactly.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import TypeVar

from .errors import InvalidInput, NotAllowed, RuleViolation
from .events import Event
from .i18n import _
from .identity import aliases, rename
from .state import SEATS, MatchState

COMMAND_TYPES: dict[str, type[Command]] = {}
Handler = Callable[[MatchState, str, "Command"], list[Event]]
HANDLERS: dict[type, Handler] = {}


@dataclass(frozen=True, kw_only=True)
class Command:
    def __init_subclass__(cls, **kwargs):
        super().__init_subclass__(**kwargs)
        COMMAND_TYPES[cls.__name__] = cls


C = TypeVar("C", bound=Command)


def handles(
    command_type: type[C],
) -> Callable[[Callable[[MatchState, str, C], list[Event]]], Handler]:
    def register(handler):
        HANDLERS[command_type] = handler
        return handler

    return register


def decide(state: MatchState, seat: str, command: Command) -> list[Event]:
    """The events that `command` by `seat` produces, or a RuleViolation."""
    if seat not in SEATS:
        raise NotAllowed(_("Only the two players can act in a match."))
    handler = HANDLERS.get(type(command))
    if handler is None:
        raise InvalidInput(_("Unknown action."))
    try:
        return handler(state, seat, command)
    except RuleViolation as refusal:
        # A refusal names troopers the way the actor knows them (identity.py):
        # never the trooper under an enemy marker, never a masked true type.
        known = aliases(state, seat)
        if known and refusal.params:
            refusal.params = rename(refusal.params, known, state, seat)
            try:
                refusal.args = (refusal.message % refusal.params,)
            except (KeyError, TypeError, ValueError):
                refusal.args = (refusal.message,)
        raise


def accepts(state: MatchState, seat: str, command: Command) -> bool:
    """Whether `decide` would take `command`, for the forms' offers
    (token_offers.py, declaration_offers.py). The handler alone: a refusal
    asked here is never shown, so it skips decide's renaming for the viewer
    (identity.aliases), a fifth of what an offer costs (issue 18)."""
    handler = HANDLERS.get(type(command))
    if seat not in SEATS or handler is None:
        return False
    try:
        handler(state, seat, command)
    except RuleViolation:
        return False
    return True
