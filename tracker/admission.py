"""Who gets the next of the HTTP threads (issue 22: one client cannot starve
the others).

A request waits here, on the event loop, for its turn at the HTTP_THREADS
threads (tracker/http.py). Three kinds wait in three lines of their own,
each with its own budget, so that one kind never crowds out another:

- taps (a POST: a player's action) go first whenever a thread frees up, and
  are shed with 503 "busy, tap again" only past HTTP_THREADS + HTTP_QUEUE
  taps in flight. Page loads do not count toward that, and hold at most
  HTTP_PAGE_THREADS of the threads: a flood of GETs leaves the others to
  the taps, and never makes one refused.
- page loads and static files take turns after the taps, one of each in
  turn, and past their own budgets (HTTP_PAGE_QUEUE in all, and the
  client's own) are answered 503 at once rather than queued without end.

A client is a session this process knows to be real (its budget
HTTP_REQUESTS_PER_SESSION), or else an address (HTTP_REQUESTS_PER_ADDRESS):
tracker/known_sessions.py. Within each line, clients take turns (round
robin): a client with a hundred requests waiting is served one of them,
then the next client's; a venue's phones behind one NAT are each a client
of their own, so one of them flooding pages is served no more than any
other.
Taps have no per-address cap: a venue behind one NAT sends every table's
taps from one address, and the tap budget is sized for a 50-table event.

No server or middleware we could find queues by kind and by client (daphne,
uvicorn, hypercorn and granian have one global concurrency limit at most),
hence this small scheduler of our own.
"""

from __future__ import annotations

import asyncio
from collections import OrderedDict, deque
from dataclasses import dataclass, field

TAP, PAGE, STATIC = "tap", "page", "static"


@dataclass
class _Line:
    # client -> the futures of its waiting requests, in arrival order; the
    # first client is served next, then moved to the end.
    waiting: OrderedDict[str, deque[asyncio.Future]] = field(default_factory=OrderedDict)
    size: int = 0

    def push(self, client: str, future: asyncio.Future) -> None:
        self.waiting.setdefault(client, deque()).append(future)
        self.size += 1

    def pop(self) -> asyncio.Future | None:
        while self.waiting:
            client, queue = next(iter(self.waiting.items()))
            future = queue.popleft()
            self.size -= 1
            if queue:
                self.waiting.move_to_end(client)
            else:
                del self.waiting[client]
            if not future.done():  # cancelled futures are skipped
                return future
        return None

    def discard(self, client: str, future: asyncio.Future) -> None:
        queue = self.waiting.get(client)
        if queue is not None and future in queue:
            queue.remove(future)
            self.size -= 1
            if not queue:
                del self.waiting[client]


class Admission:
    """`slots` requests let through to the threads at once, of which at most
    `get_slots` page loads and static files: the others are kept for taps,
    which then never wait for a render to end, and share the interpreter
    with fewer of them. The next in line: taps first, then pages and static
    files in turn, clients in turn within each kind."""

    def __init__(self, slots: int, get_slots: int | None = None) -> None:
        self.slots = slots
        self.get_slots = max(1, min(get_slots or slots, slots))
        self.running = 0
        self.running_gets = 0
        self.lines = {TAP: _Line(), PAGE: _Line(), STATIC: _Line()}
        # In flight (waiting or running), by kind, and page loads and static
        # files by client.
        self.in_flight = {TAP: 0, PAGE: 0, STATIC: 0}
        self.by_client: dict[str, int] = {}
        self._next_get = PAGE

    def refuses(self, kind: str, client: str, settings, budget: int | None = None) -> bool:
        """True when this request is over its budget and is answered busy.
        `budget`: the client's own (HTTP_REQUESTS_PER_ADDRESS by default)."""
        threads = settings.HTTP_THREADS
        if kind == TAP:
            return self.in_flight[TAP] >= threads + settings.HTTP_QUEUE
        if self.in_flight[PAGE] + self.in_flight[STATIC] >= threads + settings.HTTP_PAGE_QUEUE:
            return True
        if budget is None:
            budget = settings.HTTP_REQUESTS_PER_ADDRESS
        return self.by_client.get(client, 0) >= budget

    async def enter(self, kind: str, client: str) -> None:
        """Wait for a thread. Pair every successful `enter` with `leave`."""
        self.in_flight[kind] += 1
        if kind != TAP:
            self.by_client[client] = self.by_client.get(client, 0) + 1
        if self._may_start(kind):
            self._start(kind)
            return
        future = asyncio.get_running_loop().create_future()
        self.lines[kind].push(client, future)
        try:
            await future
        except asyncio.CancelledError:
            if future.done() and not future.cancelled():
                self._release(kind)  # it was given a thread just as it went away
            else:
                self.lines[kind].discard(client, future)
            self._forget(kind, client)
            raise

    def leave(self, kind: str, client: str) -> None:
        self._forget(kind, client)
        self._release(kind)

    def _may_start(self, kind: str) -> bool:
        if self.running >= self.slots:
            return False
        if kind == TAP:
            return not self.lines[TAP].size
        waiting = any(line.size for line in self.lines.values())
        return self.running_gets < self.get_slots and not waiting

    def _start(self, kind: str) -> None:
        self.running += 1
        if kind != TAP:
            self.running_gets += 1

    def _release(self, kind: str) -> None:
        """A thread is free: give it to the next in line that may have it."""
        self.running -= 1
        if kind != TAP:
            self.running_gets -= 1
        while self.running < self.slots:
            future, started = self._next()
            if future is None:
                return
            self._start(started)
            future.set_result(None)

    def _forget(self, kind: str, client: str) -> None:
        self.in_flight[kind] -= 1
        if kind != TAP:
            left = self.by_client[client] - 1
            if left:
                self.by_client[client] = left
            else:
                del self.by_client[client]

    def _next(self) -> tuple[asyncio.Future | None, str]:
        future = self.lines[TAP].pop()
        if future is not None:
            return future, TAP
        if self.running_gets >= self.get_slots:
            return None, ""
        first = self._next_get
        second = STATIC if first == PAGE else PAGE
        for kind in (first, second):
            future = self.lines[kind].pop()
            if future is not None:
                self._next_get = second if kind == first else first
                return future, kind
        return None, ""
