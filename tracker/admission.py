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

When a kind's budget in the process is full, a request does not simply
bounce: if some client has more of that kind in flight than this one's
client would have with it by more than one, the newest waiting request of
the client with the most is answered busy instead (Shed), and this one
waits in its place. One client at a venue's address that kept the taps'
budget full with posts of its own (a thing anyone can send: a form posted
without its token is answered 403, after its turn) had every phone's tap
answered busy, 81 of 92 measured; now each phone, a client of its own,
takes the flooder's place, and the flooder keeps what is left.

No server or middleware we could find queues by kind and by client (daphne,
uvicorn, hypercorn and granian have one global concurrency limit at most),
hence this small scheduler of our own.
"""

from __future__ import annotations

import asyncio
from collections import OrderedDict, deque
from dataclasses import dataclass, field

TAP, PAGE, STATIC = "tap", "page", "static"


class Shed(Exception):
    """A waiting request that gave its place to another client's (answered
    busy, as if refused when it came)."""


def _budget_of(kind: str) -> str:
    """The budget a kind counts against: taps their own, page loads and
    static files one between them."""
    return TAP if kind == TAP else PAGE


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

    def newest_of(self, client: str) -> asyncio.Future | None:
        """Take `client`'s newest waiting request out of the line."""
        queue = self.waiting.get(client)
        while queue:
            future = queue.pop()
            self.size -= 1
            if not queue:
                del self.waiting[client]
            if not future.done():
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
        # In flight (waiting or running), by kind, and by (budget, client).
        self.in_flight = {TAP: 0, PAGE: 0, STATIC: 0}
        self.by_client: dict[tuple[str, str], int] = {}
        self._next_get = PAGE

    def refuses(self, kind: str, client: str, settings, budget: int | None = None) -> bool:
        """True when this request is over its budget and is answered busy.
        `budget`: the client's own page loads (HTTP_REQUESTS_PER_ADDRESS by
        default). With its kind's budget full, it may instead take the place
        of another client's waiting request (see the module's docstring)."""
        threads = settings.HTTP_THREADS
        mine = self.by_client.get((_budget_of(kind), client), 0)
        if kind == TAP:
            full = self.in_flight[TAP] >= threads + settings.HTTP_QUEUE
        else:
            if mine >= (settings.HTTP_REQUESTS_PER_ADDRESS if budget is None else budget):
                return True
            full = (
                self.in_flight[PAGE] + self.in_flight[STATIC] >= threads + settings.HTTP_PAGE_QUEUE
            )
        return full and not self._shed_for(_budget_of(kind), mine)

    def _shed_for(self, budget: str, mine: int) -> bool:
        """Answer busy the newest waiting request of the client with the most
        in flight against `budget`, if it has more than one more than the
        newcomer's client (`mine`): True if one was."""
        kinds = (TAP,) if budget == TAP else (PAGE, STATIC)
        most, line, whose = mine + 1, None, None
        for kind in kinds:
            for client in self.lines[kind].waiting:
                count = self.by_client.get((budget, client), 0)
                if count > most:
                    most, line, whose = count, self.lines[kind], client
        if line is None:
            return False
        future = line.newest_of(whose)
        if future is None:
            return False
        future.set_exception(Shed())
        return True

    async def enter(self, kind: str, client: str) -> None:
        """Wait for a thread. Pair every successful `enter` with `leave`.
        Raises Shed if another client's request took its place."""
        self.in_flight[kind] += 1
        key = (_budget_of(kind), client)
        self.by_client[key] = self.by_client.get(key, 0) + 1
        if self._may_start(kind):
            self._start(kind)
            return
        future = asyncio.get_running_loop().create_future()
        self.lines[kind].push(client, future)
        try:
            await future
        except Shed:
            self._forget(kind, client)  # (out of the line already)
            raise
        except asyncio.CancelledError:
            if future.done() and not future.cancelled() and future.exception() is None:
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
        key = (_budget_of(kind), client)
        left = self.by_client[key] - 1
        if left:
            self.by_client[key] = left
        else:
            del self.by_client[key]

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
