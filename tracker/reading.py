"""The read path: the match state from its log, and what one viewer may see.

States are cached per process by match and seq; a cached state is only ever
extended with the events after it, so the database stays the one truth and
several server processes never disagree.
"""

from __future__ import annotations

import json
import threading
from collections import OrderedDict
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from datetime import datetime
from types import MappingProxyType

from tracker import rules
from tracker.compiled_queries import CompiledQuery
from tracker.models import Match, MatchEvent
from tracker.rules.process_caches import emptied_by
from tracker.rules.state import MatchState
from tracker.rules.visibility import LogLine

# Matches whose state is kept, the least recently read dropped first: a
# state not kept is replayed from its whole log on the next read. 256 was
# below the matches of a 300-table night (README: one process carries a
# venue), where an action could replay its match; a kept state is tens of
# KB (its log's times included). A sizing by count, not measured at 300.
_CACHE_SIZE = 1024
# How many of the newest events a page's log shows (before redaction).
RECENT = 40


@dataclass(frozen=True)
class Loaded:
    """A match's state at one seq, the time of each event, and the newest
    RECENT events already parsed (the log block of every viewer reads them:
    kept here, they cost no query and no parse per render), with their log
    lines (seq -> rules.log_line), described once each in this process, as
    any viewer allowed to see them reads them: log_for checks each event
    against its viewer before it takes a line (issue 18)."""

    state: MatchState
    times: dict[int, datetime]
    recent: tuple[tuple[int, rules.Event], ...]
    lines: Mapping[int, LogLine | None] = field(default_factory=dict)


_cache: OrderedDict[int, Loaded] = OrderedDict()
_lock = threading.Lock()


# The events after a seq, up to another (compiled once: tracker/compiled_queries.py).
# Every render in a process that did not write them reads them so: on two
# processes, each push's and each tap's (issue 18). The stand-in seqs are
# positive: Django leaves a lookup below a positive field's range out of
# the SQL, which the compiled query would refuse.
_EVENTS_AFTER = CompiledQuery(
    lambda match_id, after, upto: (
        MatchEvent.objects.filter(match_id=match_id, seq__gt=after, seq__lte=upto)
        .order_by("seq")
        .values_list("seq", "kind", "data", "created_at")
    ),
    -1,
    1_000_001,
    1_000_002,
)


def _extend(match_id: int, loaded: Loaded, upto: int) -> Loaded:
    return _extended(loaded, _EVENTS_AFTER.rows(match_id, loaded.state.seq, upto))


def _extended(loaded: Loaded, rows: Iterable[tuple[int, str, str, datetime]]) -> Loaded:
    """`loaded` with the events `rows` (seq, kind, data, created_at) applied."""
    state, times, recent = loaded.state, dict(loaded.times), list(loaded.recent)
    for seq, kind, data, created_at in rows:
        event = rules.event_from_data(kind, json.loads(data))
        state = rules.evolve(state, event)
        times[seq] = created_at
        recent.append((seq, event))
    kept = tuple(recent[-RECENT:])
    # Only the kept events' lines, each described once: a match read from
    # its first event describes its last RECENT, not all of them.
    old = loaded.lines
    lines = {seq: old[seq] if seq in old else rules.log_line(seq, event) for seq, event in kept}
    return Loaded(state, times, kept, MappingProxyType(lines))


def load_all(match: Match) -> Loaded:
    """The state at `match.seq`, its event times and newest events."""
    with _lock:
        cached = _cache.get(match.pk)
    if cached is None or cached.state.seq > match.seq:
        cached = Loaded(MatchState(), {}, ())
    if cached.state.seq < match.seq:
        cached = _extend(match.pk, cached, match.seq)
    with _lock:
        _cache[match.pk] = cached
        _cache.move_to_end(match.pk)
        while len(_cache) > _CACHE_SIZE:
            _cache.popitem(last=False)
    return cached


def written(match_id: int, rows: list[MatchEvent]) -> None:
    """The write path's rows, once committed (tracker/actions.py): the cached
    state, if it is the one they were decided on, is extended with them
    from the rows in hand, exactly as from a read of them (their stored
    text parsed), so the answer's render does not read back what was just
    written. A cache at any other seq is left for load_all to bring on."""
    if not rows:
        return
    with _lock:
        cached = _cache.get(match_id)
    if cached is None or cached.state.seq != rows[0].seq - 1:
        return
    extended = _extended(cached, [(r.seq, r.kind, r.data, r.created_at) for r in rows])
    with _lock:
        if _cache.get(match_id) is cached:  # no newer state took its place meanwhile
            _cache[match_id] = extended
            _cache.move_to_end(match_id)


def load(match: Match) -> tuple[MatchState, dict[int, datetime]]:
    """The state at `match.seq` and the time of each event."""
    loaded = load_all(match)
    return loaded.state, loaded.times


def load_state(match: Match) -> MatchState:
    return load(match)[0]


@emptied_by
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
    # A spectator's view on a phone whose seat moved to another phone
    # (seats.moved_away): its header says so, not only "watching".
    moved_away: bool = False


def seen_by(match: Match, viewer: str | None) -> Seen:
    loaded = load_all(match)
    view = rules.player_view(loaded.state, viewer)
    log = rules.log_for(loaded.state, loaded.recent, viewer, loaded.lines)
    return Seen(match=match, view=view, times=loaded.times, log=log)
