"""RT — Retreat! (RULES.md RT-A, RT-1..RT-7, RT-X1, RT-X2).

RETREAT_ENTERED hooks run when an army enters Retreat!: marker states and
Holoechoes end there (RT-5, HD-C4, HE-C6), registered by their own modules.
"""

from __future__ import annotations

from collections.abc import Callable

from .events import Event
from .state import MatchState

# fn(state_after_retreat_declared, seat) -> events
RETREAT_ENTERED: list[Callable[[MatchState, str], list[Event]]] = []
