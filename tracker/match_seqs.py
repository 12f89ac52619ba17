"""The newest seq of every match with a socket open in this process, for the
heartbeat's pongs (issue 18: a phone that misses a push resyncs).

A push is at most once: the channel layer drops a message past its expiry
or capacity, a Redis restart drops them all, and a phone whose push was lost
would show an old seq until the match's next push. Each pong therefore says
the match's newest seq (tracker/heartbeat.py), and app.js, seeing one newer
than it shows for a while, asks for what it lacks.

Read from the database, the only place that knows a seq whatever happened
to its announcement: one query a second per process for all its matches
(`SELECT id, seq ... WHERE id IN (...)`), not one per ping (each phone
pings once a second). A pong answers from the last read, so it never waits
for the database; the seq it carries is at most SEQ_POLL_SECONDS old.
"""

from __future__ import annotations

import asyncio
import logging
from collections import Counter

from django.conf import settings
from django.db import DatabaseError, InterfaceError

from tracker.models import Match
from tracker.socket_threads import on_connect_thread

log = logging.getLogger(__name__)


def _read(ids: list[int]) -> dict[int, int]:
    return dict(Match.objects.filter(pk__in=ids).values_list("pk", "seq"))


class NewestSeqs:
    """One per process: matches watched by their open sockets, read together."""

    def __init__(self) -> None:
        self._watchers: Counter[int] = Counter()
        self._seqs: dict[int, int] = {}
        self._task: asyncio.Task | None = None

    def watch(self, match_id: int) -> None:
        """A socket of `match_id` opened (call on the server's loop)."""
        self._watchers[match_id] += 1
        task = self._task
        # A test's loop may have ended with its task: start one on this loop.
        if task is None or task.done() or task.get_loop() is not asyncio.get_running_loop():
            self._task = asyncio.ensure_future(self._poll())

    def unwatch(self, match_id: int) -> None:
        self._watchers[match_id] -= 1
        if self._watchers[match_id] <= 0:
            del self._watchers[match_id]
            self._seqs.pop(match_id, None)

    def newest(self, match_id: int | None) -> int | None:
        """The match's seq at the last read, or None before the first."""
        return self._seqs.get(match_id) if match_id is not None else None

    async def _poll(self) -> None:
        while self._watchers:
            ids = list(self._watchers)
            try:
                found = await on_connect_thread(_read)(ids)
            # Busy: the next read will do. InterfaceError too (a connection
            # the pool handed over dead), which is no DatabaseError and, as
            # busy.py and consumers._push take it for busy, must not end the
            # poll: the pongs said the last good read's seq until another
            # socket connected, so a phone never asked for a push it lost.
            except (DatabaseError, InterfaceError) as error:
                log.warning("newest seqs not read: %r", error)
            except Exception:
                # Anything else is a bug, logged as one; the poll still goes
                # on, since every pong of this process depends on it.
                log.exception("newest seqs not read")
            else:
                self._seqs = {pk: seq for pk, seq in found.items() if pk in self._watchers}
            await asyncio.sleep(settings.SEQ_POLL_SECONDS)
        if self._task is asyncio.current_task():
            self._task = None


newest_seqs = NewestSeqs()
