"""The Infinity N4 rules of docs/rules.md, as pure Python (no Django).

Importing the package registers every rule module's commands, events and
hooks; callers use `decide`, `evolve`/`replay` and `player_view`.
"""

import importlib
import pkgutil

from .commands import COMMAND_TYPES, Command, decide
from .errors import InvalidInput, NotAllowed, RuleViolation, UnknownElement
from .events import EVENT_TYPES, Event, event_from_data
from .evolve import evolve, evolve_all, replay
from .state import MatchState
from .visibility import PlayerView, log_for, log_line, player_view, redact_log

# Every module of the package, none forgotten (#20): a rule module registers
# its commands, events, hooks and secret kinds when it is imported, so one
# left out of a hand-kept list would be silently missing at the table.
for _module in pkgutil.iter_modules(__path__):
    importlib.import_module(f"{__name__}.{_module.name}")

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
    "log_line",
    "player_view",
    "redact_log",
    "replay",
]
