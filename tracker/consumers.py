"""One websocket per phone. It pushes the view of the seat it authenticated
at connect() (from the session cookie), never one the client names.

The channel layer only carries "seq n exists"; on that, and on a client's
resync, the consumer takes its own viewer's blocks (rendered once per seq and
viewer and shared, rendering.viewer_blocks) and sends the ones that changed.
Its database and render work runs on threads of the sockets' own
(tracker/socket_threads.py): a connect never waits behind pushes, and a
socket that falls behind renders only the newest seq.
Layers are at-most-once, so correctness never depends on a push: a
reconnecting phone always gets every block it does not already show, and a
connected one learns the match's newest seq from each pong
(tracker/match_seqs.py) and asks for it when a push went missing.

Every frame is rendered in the phone's language, chosen at the handshake the
way LocaleMiddleware chooses it for HTTP (the language cookie set by the
page's ES/EN buttons, then Accept-Language, then LANGUAGE_CODE): the
middleware does not run for websockets.
"""

from __future__ import annotations

import asyncio
import contextlib
import copy
import json
import logging
import threading
import time
from collections import OrderedDict
from http.cookies import SimpleCookie
from urllib.parse import parse_qs

# daphne (the only server we run) sends through autobahn, which raises this
# on a socket that closed meanwhile.
from autobahn.exception import Disconnected
from channels.generic.websocket import AsyncWebsocketConsumer, WebsocketConsumer
from django.conf import settings
from django.core.cache import cache
from django.db import InterfaceError, OperationalError
from django.db.models import Model
from django.utils import translation

from tracker import announce, known_sessions, seats
from tracker.admission import TAP, Admission
from tracker.compiled_queries import CompiledQuery
from tracker.event_clock import clock_key, render_clock
from tracker.heartbeat import Heartbeat, hand_over
from tracker.known_sessions import client_of
from tracker.match_seqs import newest_seqs
from tracker.models import Match, Seat
from tracker.rendering import blocks_for, changed_frame, digest_of_block, parse_shown
from tracker.socket_threads import connect_pool as _pool_of_connects
from tracker.socket_threads import on_connect_thread, on_push_thread

log = logging.getLogger(__name__)

MAX_MESSAGE = 2048
# A close code of our own (4000-4999): over the per-client socket limit.
TOO_MANY = 4429
# A frame no phone of ours sends (binary, not a JSON object, nested too
# deep), and one longer than MAX_MESSAGE: codes of our own, because daphne
# cannot send 1008 or 1009 (docs/security.md).
BAD_FRAME = 4008
TOO_BIG = 4009
# No counter outlives a crashed process for long: a socket's count expires.
COUNT_SECONDS = 6 * 60 * 60


class UnknownPathConsumer(WebsocketConsumer):
    """Any websocket path but a match's: refused cleanly, nothing logged."""

    def connect(self):
        self.close(code=4404)


def _session_key(scope) -> tuple[str, int] | None:
    """The per-session socket counter of this handshake and its limit, if
    its cookie names a session."""
    session_key = getattr(scope.get("session"), "session_key", None)
    if not session_key:
        return None
    return f"ws:session:{session_key}", settings.SOCKETS_PER_SESSION


def _address_key(scope) -> tuple[str, int]:
    """The per-address counter of the sockets that hold no seat."""
    client = scope.get("client") or ("?", 0)
    return f"ws:addr:{client[0]}", settings.SOCKETS_PER_ADDRESS


def _count(key: str, step: int) -> int:
    """One socket more (+1) or fewer (-1) on a per-client counter. Sync: run
    on the connects' threads (tracker/socket_threads.py), since the cache's
    async methods queue on Channels' one thread."""
    if step > 0:
        cache.add(key, 0, COUNT_SECONDS)
    try:
        return cache.incr(key) if step > 0 else cache.decr(key)
    except ValueError:  # expired meanwhile
        return 0


_turns: tuple[asyncio.AbstractEventLoop, Admission] | None = None


def _connect_turns() -> Admission:
    """Whose connect goes next to the connects' threads: clients in turn (a
    session this process knows to be real, else an address:
    tracker/known_sessions.py), a few connects at once. A venue is one
    address: one client there opening sockets as fast as it could (300 at a
    time) queued its connects ahead of every phone's, first come first
    served, and the phones' first frames came after app.js's 5 s (it says
    "Offline" and tries again, at the back of the queue). Now a phone's
    connect waits for one turn of each client that has one waiting."""
    global _turns
    loop = asyncio.get_running_loop()
    if _turns is None or _turns[0] is not loop:
        # One per loop: its waiting futures belong to the loop (a server has
        # one; a test process runs a loop per test). Twice the threads: one
        # connect's work is two jobs there, with the handshake and the
        # channel layer in between.
        _turns = (loop, Admission(2 * settings.SOCKET_CONNECT_THREADS))
    return _turns[1]


def _connect_client(scope) -> str:
    client = scope.get("client") or ("?", 0)
    return client_of(scope, client[0])[0]


class _Handshake:
    """What translation.get_language_from_request reads of a request."""

    def __init__(self, scope):
        headers = {k.decode("latin-1").lower(): v.decode("latin-1") for k, v in scope["headers"]}
        cookie = SimpleCookie()
        try:
            cookie.load(headers.get("cookie", ""))
        except Exception:  # a malformed cookie header: as if there were none
            cookie = SimpleCookie()
        self.COOKIES = {name: morsel.value for name, morsel in cookie.items()}
        self.META = {"HTTP_ACCEPT_LANGUAGE": headers.get("accept-language", "")}
        self.path_info = scope.get("path", "/")


def language_of(scope) -> str:
    """The language LocaleMiddleware would activate for this handshake."""
    return translation.get_language_from_request(_Handshake(scope))


def shown_digests(scope) -> set[str]:
    """The block digests the phone says it shows (?h=d1.d2...): only used to
    leave those blocks out of the first frame (rendering.parse_shown)."""
    query = parse_qs(scope.get("query_string", b"").decode("latin-1"))
    return parse_shown(query.get("h", [""])[0])


# Each push's read (tracker/compiled_queries.py).
_SEATS_OF_MATCH = CompiledQuery(
    lambda match_id: Seat.objects.select_related("match").filter(match_id=match_id), -1
)


def _seat_rows(match_id: int) -> list[Seat]:
    """The match's seat rows, each with the match (one query); [] for none."""
    rows = _SEATS_OF_MATCH.models(match_id)
    if rows:
        for row in rows[1:]:
            row.match = rows[0].match
    return rows


# (match id, code) -> the newest read of its seat rows (seat_rows_since).
_rows_read: OrderedDict[tuple[int, str], list[Seat]] = OrderedDict()
_rows_lock = threading.Lock()
_ROWS_KEPT = 4096
# Held while a match's seats are read (striped by match): see seat_rows_since.
_reading = [threading.Lock() for _ in range(64)]


def _kept(key: tuple[int, str], seq: int) -> list[Seat] | None:
    with _rows_lock:
        kept = _rows_read.get(key)
    return kept if kept is not None and kept[0].match.seq >= seq else None


def seat_rows_since(match_id: int, code: str, seq: int) -> list[Seat]:
    """The match's seat rows with the match, as read at or after the commit
    of seq `seq` (their match.seq is `seq` or later). A push for `seq` needs
    no fresher read: nothing takes a seat from a phone without a seq. A PIN
    move changes the seat, then appends its event (a read at that seq sees
    the move); a hand-off appends its event, then changes the seat (a read
    after that seq's announcement may miss it, as each socket's own read
    did; the next seq's read sees it, and a resync or a connect always
    reads afresh). The newest read is shared by the match's sockets in this
    process, each given copies of its own (renders mutate nothing, but the
    rows are model instances, and threads share none)."""
    key = (match_id, code)
    kept = _kept(key, seq)
    if kept is None:
        # The match's sockets push on several threads at once: one reads,
        # the others wait for its read rather than make the same one.
        with _reading[hash(key) % len(_reading)]:
            kept = _kept(key, seq)
            if kept is None:
                kept = _seat_rows(match_id)
                if not kept or kept[0].match.code != code:
                    return []  # gone, or its id is another match's now
                with _rows_lock:
                    newest = _rows_read.get(key)
                    if newest is None or newest[0].match.seq <= kept[0].match.seq:
                        _rows_read[key] = kept
                        _rows_read.move_to_end(key)
                        while len(_rows_read) > _ROWS_KEPT:
                            _rows_read.popitem(last=False)
    match = _copied(kept[0].match)
    rows = [_copied(row) for row in kept]
    for row in rows:
        row.match = match
    return rows


def _copied(row: Model) -> Model:
    """A shallow copy of a model instance, as copy.copy makes one, without
    its trip through pickling's protocol (Model.__reduce__ and
    __setstate__, with its Django version check): a push copies three."""
    new = row.__class__.__new__(row.__class__)
    new.__dict__.update(row.__dict__)
    new._state = copy.copy(row._state)
    new._state.fields_cache = dict(row._state.fields_cache)
    return new


class MatchConsumer(AsyncWebsocketConsumer):
    match_id: int | None = None
    code = ""
    letter: str | None = None
    language: str = ""
    # What this socket sent, block by block (name -> HTML): what the phone shows.
    shown: dict[str, str]
    last_seq = 0
    # The newest seq announced to this socket, and the push making it shown.
    wanted = 0
    pushing: asyncio.Task | None = None
    counted: list[str]
    # Answers the phone's pings, closes the socket once it falls silent (issue 17).
    heartbeat: Heartbeat | None = None
    # Counted among the sockets whose match's newest seq the pongs carry.
    watching = False
    # What the round clock this phone shows was rendered from (clock_key),
    # and what the newest render of the blocks found (see _clock_follows).
    clock_shown: tuple | None = None
    clock_found: tuple | None = None

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.counted = []
        # Held while this socket's counts change (on the connects' threads).
        self._counts_lock = threading.Lock()
        self._counts_released = False

    async def __call__(self, scope, receive, send):
        try:
            await super().__call__(scope, receive, send)
        finally:
            # disconnect() did not run when the app ended otherwise: daphne
            # cancels a closed socket's app that has not ended within its
            # close timeout (a connect queued behind many others), or the app
            # failed. Its counts were then kept for COUNT_SECONDS (6 h): after
            # enough of them, every socket of the address was refused.
            if not self._counts_released:
                _pool_of_connects().submit(self._release_counts)
            if self.watching:
                newest_seqs.unwatch(self.match_id)
                self.watching = False
            if self.heartbeat is not None:
                hand_over(self.scope, None)
                self.heartbeat.cancel()

    async def send(self, text_data=None, bytes_data=None, close=False):
        """A frame for a socket that closed meanwhile (the phone went away,
        or reconnects, while its frame was rendered) goes nowhere, and is no
        error: autobahn raised Disconnected, which ended the app with a
        traceback in the log before disconnect() could give back the
        socket's counts (one client closing its sockets as they opened
        used up its address's in seconds). The disconnect follows."""
        try:
            await super().send(text_data=text_data, bytes_data=bytes_data, close=close)
        except Disconnected:
            log.debug("a frame for match %s: the socket closed meanwhile", self.match_id)

    async def connect(self):
        announce.remember_loop(asyncio.get_running_loop())
        self.resyncs: list[float] = []
        self.pending: asyncio.Task | None = None
        self.shown = {}
        self.language = language_of(self.scope)
        code = self.code = self.scope["url_route"]["kwargs"]["code"]
        # Clients take turns at the connects' threads (see _connect_turns).
        client = _connect_client(self.scope)
        turns = _connect_turns()
        await turns.enter(TAP, client)
        try:
            await self._connect(code)
        finally:
            turns.leave(TAP, client)

    async def _connect(self, code: str) -> None:
        # Counting, authentication and the first frame run on the connects'
        # threads, never behind other sockets' pushes (issue 17): a phone
        # gets its socket back while pushes lag.
        admitted = await on_connect_thread(self._admit)(code)
        if admitted != "ok":
            await self.close(code=TOO_MANY if admitted == "too many" else 4404)
            return
        self.group = announce.group_of(self.match_id)
        await self.channel_layer.group_add(self.group, self.channel_name)
        await self.accept()
        newest_seqs.watch(self.match_id)
        self.watching = True
        self.heartbeat = Heartbeat(
            send=lambda text: self.send(text_data=text),
            close=lambda code: self.close(code=code),
            newest=self._newest_for_pong,
        )
        await self._push(full=True, shown=shown_digests(self.scope))
        # Pings answered as daphne reads them, where it can (fast_pongs.py);
        # not before the first frame, which app.js waits for to say "Live"
        # (until then, this consumer answers them, one message at a time).
        hand_over(self.scope, self.heartbeat)
        # Closed once silent for SOCKET_SILENCE_SECONDS from now, pings or not.
        self.heartbeat.watch()

    def _newest_for_pong(self) -> int | None:
        """The seq a pong tells the phone: the match's newest (as this process
        last read it), or, while a push for it is on its way to this socket
        (announced, queued or rendering), the seq this socket sent last. A
        phone behind the newest then asks for it only when its push was
        lost, not while a busy server is still sending it. A push given up
        (the database stayed busy) is on its way no longer: the pong says
        the newest again, or the phone would never ask for it."""
        newest = newest_seqs.newest(self.match_id)
        if newest is None:
            return None
        on_its_way = self.pushing is not None and newest <= self.wanted
        return self.last_seq if newest <= self.last_seq or on_its_way else newest

    def _admit(self, code: str) -> str:
        """ "ok", "too many" or "unknown". Per-client limits (no library counts
        websockets): a session that opens more sockets than a phone would is
        refused before anything is read for it. So is a socket that holds
        no seat (a spectator's, an organizer's screen, or a client's that
        never sat) past SOCKETS_PER_ADDRESS from its address; a player's
        socket of a seat it holds is not held to that: a venue is one
        address, and one client there held every socket the address may have
        (without a cookie, which no seat needs) while the tables' phones were
        refused theirs all night. A seat needs its session, which the
        per-session limit caps."""
        session = _session_key(self.scope)
        if session is not None and not self._counted(*session):
            return "too many"
        address = _address_key(self.scope)
        if session is None and not self._counted(*address):
            # No cookie, no seat: refused without a query.
            return "too many"
        if not self._authenticate(code):
            return "unknown"
        if session is not None and self.letter is None and not self._counted(*address):
            return "too many"
        return "ok"

    def _counted(self, key: str, limit: int) -> bool:
        """Count this socket on `key`; False (and every count of this socket
        undone: a refused socket holds no place) past `limit`, or if the
        socket's counts were given back already (its app ended meanwhile)."""
        with self._counts_lock:
            if self._counts_released:
                return False
            self.counted.append(key)
            if _count(key, +1) <= limit:
                return True
            for counted in self.counted:
                _count(counted, -1)
            self.counted = []
            return False

    def _release_counts(self) -> None:
        """Give back this socket's counts, once (on a connects' thread)."""
        with self._counts_lock:
            self._counts_released = True
            counted, self.counted = self.counted, []
        for key in counted:
            _count(key, -1)

    def _authenticate(self, code: str) -> bool:
        session = self.scope["session"]
        match, seat = seats.match_and_seat(session, code)
        if seat is not None:
            # A real session: its page loads count as its own from now on
            # (tracker/known_sessions.py), even if none got through yet (a
            # session another server process made after this one started,
            # during a flood of pages at the venue's address).
            known_sessions.remember(session.session_key)
        if match is None:
            return False
        self.match_id = match.pk
        self.letter = seat.letter if seat is not None else None
        return True

    async def disconnect(self, close_code):
        for task in (getattr(self, "pending", None), self.pushing):
            if task is not None:
                task.cancel()
                with contextlib.suppress(asyncio.CancelledError, Exception):
                    await task
        await on_connect_thread(self._release_counts)()
        if self.match_id is not None:
            await self.channel_layer.group_discard(self.group, self.channel_name)
        if self.watching:
            newest_seqs.unwatch(self.match_id)
            self.watching = False
        if self.heartbeat is not None:
            hand_over(self.scope, None)
            await self.heartbeat.stop()

    async def dispatch(self, message):
        """Pings and pushes skip Channels' dispatch (issue 18). It runs
        aclose_old_connections() before every handler: a hop to asgiref's
        one thread-sensitive thread and back, to close database connections
        this consumer never opens there (its database work runs on the
        sockets' own threads, tracker/socket_threads.py, which close their
        own). For a pong that hop was most of its CPU, and a phone pings
        once a second; for a push, one hop per socket per action (7 and
        15% of a served action by the medians of two alternated runs of
        bench/ab.py on loopback, nothing by their fastest rounds:
        docs/benchmarks-notes.md, the twenty-first round).
        Neither handler reads the database: a pong is built from memory
        (tracker/heartbeat.py), and match_changed only records the seq
        wanted and starts the push, which renders on the pushes' threads.
        This consumer's messages are still handled one at a time, in order.
        Connects, resyncs, redraws and the clock keep Channels' dispatch:
        they are rare beside pings and pushes, and the hop was not measured
        to cost anything there.

        A ping that reaches the consumer does so before its first frame, or
        under a server other than `serve`'s daphne, which answers the rest
        itself (tracker/fast_pongs.py)."""
        kind = message.get("type")
        if kind == "websocket.receive" and self.heartbeat is not None:
            # Every frame shows the link is alive, and a ping is answered
            # here, before anything else reads the frame (tracker/heartbeat.py).
            self.heartbeat.heard()
            if await self.heartbeat.answer(message.get("text")):
                return
        if kind == "match.changed":
            await self.match_changed(message)
            return
        await super().dispatch(message)

    async def receive(self, text_data=None, bytes_data=None):
        """The only message a phone sends: {"resync": true, "h": "d1.d2..."},
        after waking, or when a pong said a newer seq than it shows (a lost
        push); "h" names the blocks it shows, as ?h= at connecting, so the
        answer leaves out those that did not change. Any other JSON object is ignored; a frame no phone of
        ours sends closes the socket with a code of our own (issue 22):
        BAD_FRAME for binary, empty, non-JSON or too deeply nested JSON (or
        JSON that is not an object), TOO_BIG past MAX_MESSAGE characters.
        Not 1008/1009: daphne's autobahn refuses any server close code but
        1000 and 3000-4999 (WebSocketProtocol.sendClose raises), which is how
        the 1011 and traceback of issue 22 came about."""
        if text_data is None:
            await self.close(code=BAD_FRAME)
            return
        if len(text_data) > MAX_MESSAGE:
            await self.close(code=TOO_BIG)
            return
        try:
            message = json.loads(text_data)
        except (ValueError, RecursionError):
            # RecursionError: "[[[[...", deeper than the parser recurses.
            message = None
        if not isinstance(message, dict):
            await self.close(code=BAD_FRAME)
            return
        if message.get("resync"):
            shown = message.get("h")
            await self._resync(parse_shown(shown) if isinstance(shown, str) else set())

    async def _resync(self, shown: set[str]) -> None:
        """At most RESYNC_BURST full renders per RESYNC_WINDOW_SECONDS per
        socket (and sockets are capped per session and address): a phone
        waking up needs one. Beyond that, requests are coalesced into one
        render when the window allows, so a burst costs one render, and a
        phone that asked still gets its answer."""
        now = time.monotonic()
        window = settings.RESYNC_WINDOW_SECONDS
        self.resyncs = [t for t in self.resyncs if now - t < window]
        if len(self.resyncs) < settings.RESYNC_BURST:
            self.resyncs.append(now)
            await self._push(full=True, shown=shown)
        elif self.pending is None:
            # Coalesced: all blocks, since what the phone shows may change meanwhile.
            self.pending = asyncio.ensure_future(self._later(self.resyncs[0] + window - now))

    async def _later(self, delay: float) -> None:
        await asyncio.sleep(max(delay, 0))
        self.pending = None
        self.resyncs.append(time.monotonic())
        await self._push(full=True)

    async def clock_changed(self, event):
        """The round's clock changed (tracker/event_clock.py): render it in
        this phone's language and swap it in."""
        await self._send_clock()

    async def _send_clock(self) -> None:
        """Render the clock on the pushes' threads, not Channels' one thread
        (issue 17), and send it; a match gone (or whose id is another
        match's now) closes the socket with 4404, as a push would."""
        try:
            html = await on_push_thread(self._render_clock)(self.letter)
        except Match.DoesNotExist:
            with contextlib.suppress(Exception):  # the socket may be gone too
                await self.close(code=4404)
            return
        if html:
            await self.send(text_data=html)

    def _render_clock(self, letter: str | None) -> str:
        """The clock for the phone of seat `letter`: the seat its socket
        found last, or the one the render it goes with has just found."""
        match = Match.objects.select_related("event").get(pk=self.match_id, code=self.code)
        # Rendered from this read of the match: the key it was rendered from.
        self.clock_shown = clock_key(match, letter)
        with translation.override(self.language):
            return render_clock(match, letter, oob=True).strip()

    def _render_full(self):
        """A first frame's or a resync's render: the blocks (`_render`, the
        one place a socket reads its seat) and, on the same thread, an event
        table's clock (the page may be from before a pause, a resume or time
        called that this phone slept through: its countdown would say untrue
        things at zero; the clock is public, event_clock.py). One query more,
        for event tables only, on connects and resyncs only."""
        letter, seq, blocks = self._render()
        # For the seat this render found (self.letter is the last frame's:
        # a hand-off takes the seat after its event's push may have read it).
        clock = self._render_clock(letter) if self.clock_found is not None else ""
        return letter, seq, blocks, clock

    async def match_changed(self, event):
        """Never waits for the render: the socket keeps reading the phone
        while its push is queued, and pushes that arrive meanwhile are
        folded into the one queued (issue 18: a socket that is behind
        renders only the newest seq, once)."""
        seq = int(event.get("seq", 0))
        if seq <= max(self.last_seq, self.wanted):
            return
        self.wanted = seq
        if self.pushing is None:
            self.pushing = asyncio.ensure_future(self._push_newest())

    async def match_redraw(self, event):
        """What this phone shows changed outside the log, at no new seq
        (announce.redraw): render again and send the blocks that differ
        from those this socket sent, as a resync would."""
        sent = {digest_of_block(html) for html in self.shown.values()}
        await self._push(full=True, shown=sent)

    async def _push_newest(self) -> None:
        try:
            while self.wanted > self.last_seq:
                before = self.last_seq
                await self._push(full=False)
                if self.last_seq == before:
                    break  # skipped (database busy or gone): the next push or resync heals it
        except Disconnected:
            # The phone's socket closed while its push was rendered (it went
            # away, or reconnects): nobody to send it to, and no error. It
            # was logged with a traceback, many a night at a venue.
            log.debug("push for match %s: the socket closed meanwhile", self.match_id)
        except Exception:
            # As an exception in a consumer's handler did: the phone's socket
            # closes (and reconnects), the server's log has why.
            log.exception("push failed for match %s", self.match_id)
            with contextlib.suppress(Exception):
                await self.close(code=1011)
        finally:
            self.pushing = None

    def _render_push(self):
        if settings.SLOW_PUSH_RENDER_SECONDS:  # a test's backlog (settings.py)
            time.sleep(settings.SLOW_PUSH_RENDER_SECONDS)
        # The match's sockets in this process push the same seq at once:
        # one read of the seats serves them all (seat_rows_since).
        # (and no clock: a push's clock follows the table, _clock_follows)
        return (*self._render(since=self.wanted), "")

    def _render(self, since: int | None = None):
        # Re-read the seats each time: a PIN move takes the seat from this
        # phone. One query brings the match with them. `since`: a read made
        # once seq `since` was committed will do (a push for it).
        if since is None:
            rows = _seat_rows(self.match_id)
        else:  # (the code too: a test database may give a pk to a new match)
            rows = seat_rows_since(self.match_id, self.code, since)
        if not rows or rows[0].match.code != self.code:
            raise Match.DoesNotExist  # gone, or its id is another match's now
        match = rows[0].match
        seat = seats.held_seat(self.scope["session"], match, rows)
        moved = seat is None and seats.moved_away(self.scope["session"], rows)
        with translation.override(self.language):
            seq, blocks = blocks_for(match, seat, moved)
        letter = seat.letter if seat is not None else None
        # From the match row already read (status and result, public): no query.
        self.clock_found = clock_key(match, letter)
        return letter, seq, blocks

    async def _push(self, full: bool, shown: frozenset[str] | set[str] = frozenset()):
        """Send what the phone lacks. `full`: a first frame or a resync, on
        the connects' threads (the phone is waiting for it); otherwise a
        push, on the pushes' threads."""
        render = on_connect_thread(self._render_full) if full else on_push_thread(self._render_push)
        for _attempt in range(3):
            try:
                letter, seq, blocks, clock = await render()
            except Match.DoesNotExist:
                # Gone (or its id is another match's): 4404, which app.js
                # does not retry, from a push, a resync or a redraw alike.
                with contextlib.suppress(Exception):  # the socket may be gone too
                    await self.close(code=4404)
                return
            except (OperationalError, InterfaceError):
                # The pool stayed exhausted: skip this push. The next one (or
                # the phone's resync on waking) sends every block that
                # changed since, because `shown` was not updated.
                log.warning("push skipped for match %s: database busy", self.match_id)
                return
            # Renders of one socket run on two pools and may finish out of
            # order: blocks older than those sent are never sent over them.
            if seq >= self.last_seq:
                break
            if not full:
                return  # a newer frame went already
        else:
            return
        self.letter = letter
        if full:
            # What the phone named at connecting or in its resync.
            frame = changed_frame(blocks, seq, shown, {}) + clock
        else:
            # Push less: what this socket sent is what the phone shows; a
            # block where only trooper rows changed goes as those rows (a
            # trooper's State is the commonest action).
            sent = {digest_of_block(html) for html in self.shown.values()}
            frame = changed_frame(blocks, seq, sent, self.shown)
        # The same strings as the render cache's: no copy is kept.
        self.shown.update(blocks)
        self.last_seq = max(self.last_seq, seq)
        await self.send(text_data=frame)
        await self._clock_follows()

    async def _clock_follows(self) -> None:
        """The round clock's words follow the table (event_clock.todo_at_time:
        from deployment to play, a result proposed or confirmed, this phone's
        seat): when what the last render found differs from what the clock
        on the phone was rendered from, render the clock again, so neither
        the words shown nor the ones app.js swaps in at zero say something
        untrue. Rare (a few times a match), and one read when it happens."""
        found = self.clock_found
        if found == self.clock_shown:  # (a first frame or a resync carried the clock)
            return
        await self._send_clock()
