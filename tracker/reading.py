"""The read path: the match state from its log, and what one viewer may see.

States are cached per process by match and seq; a cached state is only ever
extended with the events after it, so the database stays the one truth and
several server processes never disagree.
"""

from __future__ import annotations

import json
import threading
from collections import OrderedDict
from dataclasses import dataclass
from datetime import datetime

from tracker import rules
from tracker.models import Match, MatchEvent
from tracker.rules.state import MatchState

_CACHE_SIZE = 256
_cache: OrderedDict[int, tuple[MatchState, dict[int, datetime]]] = OrderedDict()
_lock = threading.Lock()


def event_of(row: MatchEvent) -> rules.Event:
    return rules.event_from_data(row.kind, json.loads(row.data))


def _extend(match_id: int, state: MatchState, times: dict[int, datetime], upto: int):
    rows = MatchEvent.objects.filter(match_id=match_id, seq__gt=state.seq, seq__lte=upto).only(
        "seq", "kind", "data", "created_at"
    )
    times = dict(times)
    for row in rows.order_by("seq"):
        state = rules.evolve(state, event_of(row))
        times[row.seq] = row.created_at
    return state, times


def load(match: Match) -> tuple[MatchState, dict[int, datetime]]:
    """The state at `match.seq` and the time of each event."""
    with _lock:
        cached = _cache.get(match.pk)
    if cached and cached[0].seq <= match.seq:
        state, times = cached
    else:
        state, times = MatchState(), {}
    if state.seq < match.seq:
        state, times = _extend(match.pk, state, times, match.seq)
    with _lock:
        _cache[match.pk] = (state, times)
        _cache.move_to_end(match.pk)
        while len(_cache) > _CACHE_SIZE:
            _cache.popitem(last=False)
    return state, times


def load_state(match: Match) -> MatchState:
    return load(match)[0]


def forget(match_id: int | None = None) -> None:
    with _lock:
        if match_id is None:
            _cache.clear()
        else:
            _cache.pop(match_id, None)


@dataclass(frozen=True)
class Seen:
    """Everything one viewer is shown of a match, and nothing else."""

    match: Match
    view: rules.PlayerView
    times: dict[int, datetime]
    log: list


def seen_by(match: Match, viewer: str | None) -> Seen:
    state, times = load(match)
    view = rules.player_view(state, viewer)
    rows = (
        MatchEvent.objects.filter(match=match)
        .order_by("-seq")
        .only("seq", "kind", "data", "private_to")[:40]
    )
    recent = [(row.seq, event_of(row)) for row in reversed(rows)]
    log = rules.log_for(state, recent, viewer)
    return Seen(match=match, view=view, times=times, log=log)
