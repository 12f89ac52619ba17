"""evolve(state, event) -> state, and replay(events) -> state."""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import TypeVar

from .events import Event
from .state import MatchState, replace

E = TypeVar("E", bound=Event)
APPLIERS: dict[type, Callable[[MatchState, Event], MatchState]] = {}


def applies(event_type: type[E]):
    def register(fn: Callable[[MatchState, E], MatchState]):
        APPLIERS[event_type] = fn
        return fn

    return register


def evolve(state: MatchState, event: Event) -> MatchState:
    """Apply one event. The new state's seq is the event's number."""
    state = APPLIERS[type(event)](replace(state, seq=state.seq + 1), event)
    # Undo reaches back only over consecutive state steps (conditions.py): any
    # other public event closes the window. Private events leave it alone, or
    # the opponent could see a private action by its undo button vanishing.
    if state.undo and event.private_to is None and not getattr(event, "keeps_undo", False):
        state = replace(state, undo=())
    return state


def evolve_all(state: MatchState, events: Iterable[Event]) -> MatchState:
    for event in events:
        state = evolve(state, event)
    return state


def replay(events: Iterable[Event]) -> MatchState:
    return evolve_all(MatchState(), events)
