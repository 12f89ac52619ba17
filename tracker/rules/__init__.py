"""The Infinity N4 rules of docs/rules.md, as pure Python (no Django).

Importing the package registers every rule module's commands, events and
hooks; callers use `decide`, `evolve`/`replay` and `player_view`.
"""

from . import (  # noqa: F401  (imported for their registrations)
    classified,
    command_tokens,
    conditions,
    fireteams,
    hidden_deployment,
    holoecho,
    holomask,
    orders,
    replacement,
    results,
    retreat,
    sealing,
    setup,
    token_tactical,
    token_uses,
    turns,
)
from .commands import COMMAND_TYPES, Command, decide
from .errors import InvalidInput, NotAllowed, RuleViolation, UnknownElement
from .events import EVENT_TYPES, Event, event_from_data
from .evolve import evolve, evolve_all, replay
from .state import MatchState
from .visibility import PlayerView, log_for, player_view, redact_log

__all__ = [
    "COMMAND_TYPES",
    "EVENT_TYPES",
    "Command",
    "Event",
    "InvalidInput",
    "MatchState",
    "NotAllowed",
    "PlayerView",
    "RuleViolation",
    "UnknownElement",
    "decide",
    "event_from_data",
    "evolve",
    "evolve_all",
    "log_for",
    "player_view",
    "redact_log",
    "replay",
]
