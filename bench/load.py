"""The load generator of `make bench`: phones as asyncio tasks.

Each match has two phones, each behaving as static/tracker/app.js does: it
loads the match page (session cookie, CSRF cookie and token as a browser
gets them), opens the match's websocket with an Origin header and the
digests of the blocks it shows (?h=), pings on it once a second and keeps
the server's clock from the pongs, and taps the State form on one of its
own troopers as that page prefills it from the trooper's row (toggling Prone), naming the blocks
it shows (X-Tracker-Shown) and a deadline in the server's clock
(X-Tracker-Deadline, 3.5 s after sending: app.js gives up at 4 s). Taps are
open loop: each falls on its schedule whether or not the last one was
answered, the match's players taking turns. Latency of an action: from the
POST leaving to the moment both phones have a frame at that action's seq or
later (on any of their sockets, or a page they loaded since).

The relay run does the same over bench/relay.py: one message per match per
second from the first socket, timed until both sockets have it.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import random
import re
import secrets
import statistics
import time
from dataclasses import dataclass, field
from html.parser import HTMLParser
from pathlib import Path

import aiohttp

SEQ = re.compile(r'id="seq"[^>]*data-seq="(\d+)"')
CSRF = re.compile(r'"X-CSRFToken": "([^"]+)"')
ERROR = re.compile(r'<p class="error[^"]*" role="alert">(.*?)</p>', re.S)
# Issue 18: the page's one State form, which a row's name opens (app.js),
# prefilled from the row: its condition (data-cond, none for Normal) and
# tokens (data-tokens). A row whose name is a button is one the phone may tap.
STATE_FORM = re.compile(r'<form hx-post="([^"]*/act/SetTrooperState/)" data-state-form[^>]*>')
TAPPABLE_ROW = re.compile(
    r'<li (?:hx-swap-oob="true" )?class="trooper[^"]*" id="trooper-(\w+)"([^>]*)><button class="name">'
)
COND = re.compile(r'data-cond="(\w+)"')
TOKENS = re.compile(r'data-tokens="([^"]*)"')


def row_state(attrs: str) -> tuple[str, list[str]]:
    """(condition, tokens) of a row, from its attributes, as app.js reads them."""
    cond, tokens = COND.search(attrs), TOKENS.search(attrs)
    return (cond.group(1) if cond else "normal"), (tokens.group(1).split() if tokens else [])


SHOWN = re.compile(r'<section data-h="([0-9a-f]{16})"')
BLOCK = re.compile(
    r'<section (?:hx-swap-oob="true" )?data-h="([0-9a-f]{16})" id="blk-([A-Za-z_]+)"'
)
NOTES = re.compile(r'id="seq"[^>]*data-blocks="([^"]*)"')


def note_prone(html: str, prone: dict[str, bool]) -> None:
    """What the phone's rows show of its own troopers (Prone or not), which
    the State form is prefilled from, from a page, an answer or a frame, as
    a player reads it before tapping: a tap that was shed, or answered after
    the phone gave up, changes nothing on the server, and toggling from a
    guess would then send "nothing changed"."""
    for trooper, attrs in TAPPABLE_ROW.findall(html):
        if trooper in prone:
            prone[trooper] = "prone" in row_state(attrs)[1]


def note_blocks(html: str, shown: dict[str, str]) -> None:
    """What a phone's app.js records of the blocks it shows (name -> digest),
    from a page, an answer or a frame: whole blocks, and the digest notes of
    blocks sent as rows."""
    for digest, name in BLOCK.findall(html):
        shown[name] = digest
    found = NOTES.search(html)
    if found:
        for note in found.group(1).split(","):
            name, _, digest = note.partition(":")
            if name and digest:
                shown[name] = digest


TIMEOUT = aiohttp.ClientTimeout(total=15)
# app.js: REQUEST_TIMEOUT, DEADLINE_MARGIN, PING_EVERY, CATCH_UP.
REQUEST_TIMEOUT_MS = 4000
DEADLINE_MARGIN_MS = 500
PING_EVERY = 1.0
CATCH_UP = 2.5
TAP_TIMEOUT = aiohttp.ClientTimeout(total=REQUEST_TIMEOUT_MS / 1000)


@dataclass
class Socket:
    """One phone's websocket: when each seq first arrived, and how often."""

    seen_at: dict[int, float] = field(default_factory=dict)
    frames_per_seq: dict[int, int] = field(default_factory=dict)
    newest: int = 0
    changed: asyncio.Event = field(default_factory=asyncio.Event)
    ws: aiohttp.ClientWebSocketResponse | None = None
    # The phone's blocks (name -> digest), shared with its Phone.
    shown: dict[str, str] = field(default_factory=dict)
    # Its own troopers' Prone as its forms show them, shared with its Phone.
    prone: dict[str, bool] = field(default_factory=dict)
    task: asyncio.Task | None = None
    pinger: asyncio.Task | None = None
    bytes: int = 0
    first_frame_bytes: int = 0
    # The server's clock minus ours (seconds), from the pong with the
    # shortest round trip of the last eight, as app.js keeps it.
    clock: list[tuple[float, float]] = field(default_factory=list)
    connects: int = 0
    # A seq framed twice on one connection (a new connection's first frame
    # repeating the current seq is not a double).
    repeats: int = 0
    _this_connection: set[int] = field(default_factory=set)
    # app.js's catch-up (issue 18): since when a pong has said a newer seq
    # than the phone shows; the resyncs asked for (resync()).
    behind_since: float | None = None
    resyncs: int = 0

    @property
    def doubled(self) -> int:
        """Frames repeating a seq on its connection, less one per resync the
        phone asked for (its answer may repeat the seq a push brought)."""
        return max(0, self.repeats - self.resyncs)

    def got(self, seq: int, size: int) -> None:
        now = time.perf_counter()
        if not self.frames_per_seq:
            self.first_frame_bytes = size
        self.bytes += size
        self.frames_per_seq[seq] = self.frames_per_seq.get(seq, 0) + 1
        if seq in self._this_connection:
            self.repeats += 1
        self._this_connection.add(seq)
        self.saw(seq, now)

    def lagging(self, message: dict) -> bool:
        """app.js's behind(): True when a pong has said a newer seq than
        the phone shows for CATCH_UP seconds (then ask for it, once a period)."""
        seq = message.get("seq")
        if not isinstance(seq, int) or seq <= self.newest:
            self.behind_since = None
            return False
        now = time.perf_counter()
        if self.behind_since is None:
            self.behind_since = now
            return False
        if now - self.behind_since < CATCH_UP:
            return False
        self.behind_since = None
        return True

    def saw(self, seq: int, at: float) -> None:
        """The phone shows seq `seq` from `at` on (a frame or a page)."""
        if seq > self.newest:
            self.newest = seq
        self.seen_at.setdefault(seq, at)
        self.changed.set()

    def pong(self, message: dict) -> None:
        sent, server_ms = message.get("pong"), message.get("t")
        if not isinstance(sent, int | float) or not isinstance(server_ms, int | float):
            return
        rtt = time.perf_counter() * 1000 - sent
        if 0 <= rtt < 10000:
            self.clock.append((rtt, server_ms + rtt / 2 - time.time() * 1000))
            del self.clock[:-8]

    def deadline(self) -> str | None:
        """X-Tracker-Deadline for a tap sent now, in the server's clock at
        the earliest (app.js's serverNowAtTheEarliest): None before a pong."""
        if not self.clock:
            return None
        rtt, offset = min(self.clock)
        now = time.time() * 1000 + offset - rtt / 2
        return str(int(now + REQUEST_TIMEOUT_MS - DEADLINE_MARGIN_MS))

    def arrival(self, seq: int) -> float | None:
        """When a frame at `seq` or later first arrived."""
        times = [t for s, t in self.seen_at.items() if s >= seq]
        return min(times) if times else None


@dataclass
class Phone:
    base: str
    code: str
    session: str
    # The cookies the server set (CSRF, the offline copy's tag), sent back as
    # a browser does: a phone that never returned tracker_copy had it set
    # again on every answer (tracker/offline_copy.py), work no phone causes.
    jar: dict[str, str] = field(default_factory=dict)
    csrf_token: str = ""
    form_url: str = ""
    troopers: list[tuple[str, str]] = field(default_factory=list)  # (id, condition)
    socket: Socket = field(default_factory=Socket)
    page_seq: int = 0
    page_bytes: int = 0
    answer_bytes: int = 0  # the POST answers' bodies, summed
    shown: list[str] = field(default_factory=list)
    run: str = field(default_factory=lambda: secrets.token_hex(4))  # one per phone per run
    # As app.js: a deadline on each tap and its 4 s timeout. Off for the
    # closed-loop correctness burst (tests/scale/test_burst.py), whose phones
    # wait as long as it takes.
    as_app: bool = True

    @property
    def prone(self) -> dict[str, bool]:
        return self.socket.prone

    def cookies(self) -> str:
        jar = {"sessionid": self.session, **self.jar}
        return "; ".join(f"{name}={value}" for name, value in jar.items())

    def keep_cookies(self, response: aiohttp.ClientResponse) -> None:
        """What a browser keeps of the response's Set-Cookie headers."""
        for name, morsel in response.cookies.items():
            if morsel.value:
                self.jar[name] = morsel.value
            else:  # deleted (an empty value, expired)
                self.jar.pop(name, None)


async def load_page(http: aiohttp.ClientSession, phone: Phone) -> None:
    async with http.get(
        f"{phone.base}/m/{phone.code}/", headers={"Cookie": phone.cookies()}, timeout=TIMEOUT
    ) as response:
        body = await response.text()
        if response.status != 200:
            raise RuntimeError(f"page {response.status}")
        phone.keep_cookies(response)
    phone.page_bytes = len(body.encode())
    phone.csrf_token = CSRF.search(body).group(1)
    phone.page_seq = int(SEQ.search(body).group(1))
    phone.socket.saw(phone.page_seq, time.perf_counter())
    phone.shown = SHOWN.findall(body)
    phone.socket.shown.clear()
    note_blocks(body, phone.socket.shown)
    # This seat's own block comes first; it taps the State form on its own troopers.
    own = body.split('id="blk-seat_', 1)[1]
    letter = own[0]
    phone.troopers.clear()
    phone.form_url = STATE_FORM.search(body).group(1)
    for trooper, attrs in TAPPABLE_ROW.findall(body):
        if trooper.startswith(letter.lower()):
            condition, tokens = row_state(attrs)
            phone.troopers.append((trooper, condition))
            phone.prone[trooper] = "prone" in tokens


async def _read(ws: aiohttp.ClientWebSocketResponse, socket: Socket) -> None:
    async for message in ws:
        if message.type != aiohttp.WSMsgType.TEXT:
            break
        if message.data.startswith("{"):  # a pong
            try:
                pong = json.loads(message.data)
            except ValueError:
                continue
            socket.pong(pong)
            if socket.lagging(pong):  # a push went missing: ask, naming what it shows
                await resync(socket)
            continue
        found = SEQ.search(message.data)
        note_blocks(message.data, socket.shown)
        note_prone(message.data, socket.prone)
        if found:
            socket.got(int(found.group(1)), len(message.data.encode()))


async def resync(socket: Socket) -> None:
    """app.js's resync(): ask over the socket for what the phone lacks,
    naming the blocks it shows."""
    if socket.ws is None or socket.ws.closed:
        return
    shown = ".".join(socket.shown.values())
    socket.resyncs += 1
    with contextlib.suppress(OSError, aiohttp.ClientError, RuntimeError):
        await socket.ws.send_str(json.dumps({"resync": True, "h": shown}))


async def _ping(ws: aiohttp.ClientWebSocketResponse) -> None:
    """app.js's heartbeat: {"ping": performance.now()} once a second."""
    with contextlib.suppress(OSError, aiohttp.ClientError, RuntimeError):
        while not ws.closed:
            await ws.send_str(json.dumps({"ping": time.perf_counter() * 1000}))
            await asyncio.sleep(PING_EVERY)


async def open_socket(http: aiohttp.ClientSession, phone: Phone, ws_base: str) -> None:
    # The blocks the phone shows now (its page and every frame since).
    shown = ".".join(phone.socket.shown.values())
    url = f"{ws_base}/ws/m/{phone.code}/?h={shown}"
    ws = await http.ws_connect(
        url,
        headers={"Cookie": phone.cookies(), "Origin": phone.base},
        timeout=aiohttp.ClientWSTimeout(ws_receive=None, ws_close=5),
        max_msg_size=0,
    )
    socket = phone.socket
    socket.ws = ws
    socket.connects += 1
    socket._this_connection = set()
    socket.task = asyncio.create_task(_read(ws, socket))
    socket.pinger = asyncio.create_task(_ping(ws))


async def close_socket(phone: Phone) -> None:
    """Let go of the socket as app.js's forget() does."""
    socket = phone.socket
    for task in (socket.pinger, socket.task):
        if task is not None:
            task.cancel()
    if socket.ws is not None:
        with contextlib.suppress(OSError, aiohttp.ClientError, asyncio.TimeoutError):
            await socket.ws.close()
    socket.ws = socket.task = socket.pinger = None


def machine_busy() -> float:
    """CPU seconds every core of the machine has been busy (/proc/stat):
    the servers, the driver, PostgreSQL, Redis and anything else."""
    fields = Path("/proc/stat").read_text().split("\n", 1)[0].split()[1:]
    idle = int(fields[3]) + int(fields[4])  # idle + iowait
    return (sum(int(f) for f in fields[:8]) - idle) / os.sysconf("SC_CLK_TCK")


async def _machine_after(delay: float) -> tuple[float, float]:
    """machine_busy() and the time, `delay` seconds from now."""
    await asyncio.sleep(delay)
    return machine_busy(), time.perf_counter()


@dataclass
class Result:
    latencies: list[float] = field(default_factory=list)
    served: int = 0
    errors: list[str] = field(default_factory=list)
    lost: int = 0
    duplicated: int = 0
    seconds: float = 0.0
    cpu: float = 0.0  # server CPU seconds while playing and settling
    # The driver's own CPU seconds while playing (this process): on two
    # cores what it takes is not the servers' to have.
    driver_cpu: float = 0.0
    answer_bytes: int = 0  # POST answers, summed
    push_bytes: int = 0  # socket frames to both phones, summed
    offered: int = 0  # taps sent
    shed: int = 0  # taps answered "busy" (503) or refused as late
    unanswered: int = 0  # taps with no answer within app.js's 4 s
    reloads: int = 0
    reconnects: int = 0
    # Asked for by phones a pong said were behind (a lost push), or sent an
    # answer older than a push they had (app.js drops it and resyncs).
    resyncs: int = 0
    # Cores the whole machine kept busy while every match tapped (not while
    # the first taps spread out nor while the last answers and pushes
    # settled): a machine saturated while tapping looked 0.4 of 2 cores
    # idle over playing and settling together (the twenty-second round).
    machine_tapping: float = 0.0


async def tap(http: aiohttp.ClientSession, phone: Phone, n: int) -> tuple[int, str]:
    trooper, condition = phone.troopers[n % len(phone.troopers)]
    wanted = not phone.prone[trooper]
    data = [("trooper_id", trooper), ("condition", condition)]
    if wanted:
        data.append(("tokens", "prone"))
    # Unique per run: a match plays in several runs, and a repeated id is
    # (rightly) a duplicate tap that appends nothing and pushes nothing.
    data.append(("action_id", f"bench-{phone.run}-{phone.code}-{n:06d}"))
    headers = {
        "Cookie": phone.cookies(),
        "X-CSRFToken": phone.csrf_token,
        "HX-Request": "true",
        "Origin": phone.base,
        "Referer": f"{phone.base}/m/{phone.code}/",
        # As app.js does: the answer then carries only what changed.
        "X-Tracker-Shown": ".".join(phone.socket.shown.values()),
    }
    deadline = phone.socket.deadline() if phone.as_app else None
    if deadline is not None:
        headers["X-Tracker-Deadline"] = deadline
    async with http.post(
        phone.base + phone.form_url,
        data=data,
        headers=headers,
        timeout=TAP_TIMEOUT if phone.as_app else TIMEOUT,
    ) as response:
        body = await response.text()
        phone.keep_cookies(response)
        phone.answer_bytes += len(body.encode())
        if response.status != 200:
            return 0, f"HTTP {response.status}: {body[:120]}"
        answered = SEQ.search(body)
        if answered and int(answered.group(1)) < phone.socket.newest:
            # app.js's checkAnswer: a push for a newer seq came first, so the
            # answer shows the past. It is not swapped in (its digests are
            # not the page's); the phone resyncs over its socket instead.
            await resync(phone.socket)
            return int(answered.group(1)), ""
        note_blocks(body, phone.socket.shown)
        error = ERROR.search(body)
        phone.prone[trooper] = wanted if not error else not wanted
        note_prone(body, phone.prone)  # what the answer shows, if it shows the row
        if error:
            return 0, f"refused: {error.group(1).strip()[:120]}"
        return int(SEQ.search(body).group(1)), ""


LATE = "after your phone gave up"


async def one_tap(
    http: aiohttp.ClientSession,
    phones: tuple[Phone, Phone],
    actor: Phone,
    n: int,
    result: Result,
    pending: list,
) -> None:
    result.offered += 1
    sent = time.perf_counter()
    try:
        seq, error = await tap(http, actor, n)
    except (TimeoutError, aiohttp.ClientError) as failure:
        seq, error = 0, f"no answer: {failure!r}"[:160]
        result.unanswered += 1
    if not error:
        result.served += 1
        pending.append(([p.socket for p in phones], seq, sent))
        return
    result.errors.append(error)
    if error.startswith("HTTP 503") or LATE in error:
        result.shed += 1


async def play_match(
    http: aiohttp.ClientSession,
    phones: tuple[Phone, Phone],
    seconds: float,
    result: Result,
    pending: list,
    every: float = 1.0,
    jitter: float = 0.0,
    churn_every: float = 0.0,
    open_loop: bool = True,
) -> None:
    """Open loop: the match's taps fall on their schedule (one per `every`
    seconds, each gap moved by up to ±`jitter` of it), whether or not the
    last one was answered, the players taking turns. With `churn_every`,
    one phone reloads its page (and connects again) and the other drops its
    socket and connects again, once per `churn_every` seconds each, as
    phones that sleep, switch apps or lose the Wi-Fi do."""
    await asyncio.sleep(random.random() * every)  # spread the matches over the period
    start = time.perf_counter()
    taps: set[asyncio.Task] = set()
    churns: list[asyncio.Task] = []
    if churn_every:
        for n, phone in enumerate(phones):
            churns.append(
                asyncio.create_task(
                    churn_phone(
                        http, phone, start + seconds, churn_every, reload=n == 0, result=result
                    )
                )
            )
    n, due = 0, start
    while due < start + seconds:
        delay = due - time.perf_counter()
        if delay > 0:
            await asyncio.sleep(delay)
        if open_loop:
            task = asyncio.create_task(one_tap(http, phones, phones[n % 2], n, result, pending))
            taps.add(task)
            task.add_done_callback(taps.discard)
        else:
            await one_tap(http, phones, phones[n % 2], n, result, pending)
        n += 1
        due += every * (1 + jitter * (2 * random.random() - 1))
    await asyncio.gather(*taps, *churns)


async def churn_phone(
    http: aiohttp.ClientSession,
    phone: Phone,
    until: float,
    every: float,
    reload: bool,
    result: Result,
) -> None:
    await asyncio.sleep(random.random() * every)
    while time.perf_counter() < until:
        try:
            await close_socket(phone)
            if reload:
                await load_page(http, phone)
            await open_socket(http, phone, phone.base.replace("http://", "ws://"))
            if reload:
                result.reloads += 1
            else:
                result.reconnects += 1
        except (OSError, TimeoutError, aiohttp.ClientError, RuntimeError) as error:
            result.errors.append(f"{'reload' if reload else 'reconnect'} failed: {error!r}"[:160])
            await asyncio.sleep(1)
            continue
        await asyncio.sleep(every * (0.5 + random.random()))


async def settle(pending: list, result: Result, wait: float, quiet: float = 4.0) -> None:
    """Wait (bounded) for every served action's frame on each of its sockets
    (`pending`: (sockets, seq, sent) per action), then count latencies, lost
    pushes and doubled ones. A push still coming is late, not lost: wait
    while frames keep arriving (at most `wait` seconds), and stop after
    `quiet` seconds without one, unless a phone's pongs have said it is
    behind: its resync, CATCH_UP seconds after, heals a push the layer or
    a busy server dropped, as on a phone (one lost there is still lost
    at `wait`)."""
    deadline = time.perf_counter() + wait
    sockets_all = {id(s): s for sockets, _, _ in pending for s in sockets}
    last_count, last_change = -1, time.perf_counter()
    while time.perf_counter() < deadline:
        if all(s.newest >= seq for sockets, seq, _ in pending for s in sockets):
            break
        count = sum(len(s.seen_at) for s in sockets_all.values())
        if count != last_count:
            last_count, last_change = count, time.perf_counter()
        elif time.perf_counter() - last_change > quiet and not any(
            s.behind_since is not None for s in sockets_all.values()
        ):
            break
        await asyncio.sleep(0.05)
    for sockets, seq, sent in pending:
        arrivals = [s.arrival(seq) for s in sockets]
        if any(a is None for a in arrivals):
            result.lost += 1
        else:
            result.latencies.append(max(arrivals) - sent)
    result.duplicated = sum(s.doubled for s in sockets_all.values())


def percentile(values: list[float], q: float) -> float:
    if not values:
        return float("nan")
    if len(values) == 1:
        return values[0]
    return statistics.quantiles(values, n=100, method="inclusive")[q - 1]


class Fleet:
    """The phones of a run's matches, connected once and played in growing
    subsets (make bench's 10, 50, 250 matches on one server): each size
    connects only the matches it adds, and plays exactly the first N pairs,
    so no idle phone's pings weigh on a smaller size's CPU per action."""

    def __init__(
        self, http: aiohttp.ClientSession, bases: list[str], open_loop: bool = True
    ) -> None:
        self.http, self.bases, self.open_loop = http, bases, open_loop
        self.pairs: list[tuple[Phone, Phone]] = []
        self.failed: list[str] = []

    async def connect(self, matches: list[dict], connect_limit: int = 20) -> None:
        """Load the page and open the socket of both phones of each match in
        `matches` not connected yet (A on the first process, B on the last).
        A match whose phones could not connect plays no part (its error is
        counted in the next play)."""
        known = {pair[0].code for pair in self.pairs}
        new = [
            (
                Phone(self.bases[0], m["code"], m["A"], as_app=self.open_loop),
                Phone(self.bases[-1], m["code"], m["B"], as_app=self.open_loop),
            )
            for m in matches
            if m["code"] not in known
        ]
        gate = asyncio.Semaphore(connect_limit)

        async def ready(phone: Phone) -> bool:
            async with gate:
                for attempt in range(3):
                    try:
                        await load_page(self.http, phone)
                        await open_socket(self.http, phone, phone.base.replace("http://", "ws://"))
                        return True
                    except (OSError, TimeoutError, aiohttp.ClientError, RuntimeError) as error:
                        if attempt == 2:
                            self.failed.append(f"could not load and connect: {error!r}"[:160])
                        await asyncio.sleep(0.5 * (attempt + 1))
                return False

        ok = await asyncio.gather(*(ready(p) for pair in new for p in pair))
        self.pairs += [pair for n, pair in enumerate(new) if ok[2 * n] and ok[2 * n + 1]]
        # The first frame: only the seq marker, if the page was current.
        await asyncio.sleep(1.0)

    async def only_ping(self, count: int) -> None:
        """Only the first `count` pairs ping (those about to play): phones
        connected for a larger N wait quietly, so that their pings do not
        weigh on a smaller N's CPU per action, nor on the floors (count 0).
        A socket the server closed meanwhile is opened again."""
        for n, pair in enumerate(self.pairs):
            for phone in pair:
                socket = phone.socket
                if n >= count:
                    if socket.pinger is not None:
                        socket.pinger.cancel()
                        socket.pinger = None
                    continue
                if socket.ws is None or socket.ws.closed:
                    with contextlib.suppress(OSError, TimeoutError, aiohttp.ClientError):
                        await close_socket(phone)
                        await open_socket(self.http, phone, phone.base.replace("http://", "ws://"))
                elif socket.pinger is None:
                    socket.pinger = asyncio.create_task(_ping(socket.ws))

    async def play(
        self,
        count: int,
        seconds: float,
        cpu=None,
        every: float = 1.0,
        jitter: float = 0.0,
        churn_every: float = 0.0,
        settle_wait: float = 20.0,
    ) -> Result:
        """The first `count` pairs play for `seconds` (play_match)."""
        await self.only_ping(count)
        pairs = self.pairs[:count]
        for pair in pairs:
            for phone in pair:
                # Action ids of its own: the same ids again would be (rightly)
                # duplicate taps, answered with the old seq and pushing nothing.
                phone.run = secrets.token_hex(4)
                phone.answer_bytes = 0
                phone.socket.frames_per_seq.clear()
                phone.socket.seen_at.clear()
                phone.socket.bytes = 0
                phone.socket.repeats = 0
                phone.socket.resyncs = 0
        result = Result(errors=list(self.failed))
        self.failed.clear()
        pending: list = []
        cpu_before = cpu() if cpu else 0.0
        driver_before = time.process_time()
        started = time.perf_counter()
        # The machine's cores from when every match taps (play_match spreads
        # their first taps over `every`) until the taps end.
        steady = asyncio.ensure_future(_machine_after(min(every, seconds / 2)))
        await asyncio.gather(
            *(
                play_match(
                    self.http,
                    pair,
                    seconds,
                    result,
                    pending,
                    every,
                    jitter,
                    churn_every,
                    self.open_loop,
                )
                for pair in pairs
            )
        )
        ended = time.perf_counter()
        result.seconds = ended - started
        if steady.done():
            busy_then, then = steady.result()
            result.machine_tapping = (machine_busy() - busy_then) / max(ended - then, 1e-9)
        else:  # the taps ended before every match had started
            steady.cancel()
        result.driver_cpu = time.process_time() - driver_before
        await settle(pending, result, wait=settle_wait)
        result.cpu = (cpu() - cpu_before) if cpu else 0.0
        result.answer_bytes = sum(p.answer_bytes for pair in pairs for p in pair)
        result.push_bytes = sum(p.socket.bytes for pair in pairs for p in pair)
        result.resyncs = sum(p.socket.resyncs for pair in pairs for p in pair)
        return result

    async def keep(self, count: int) -> None:
        """Close every pair past the first `count`."""
        for pair in self.pairs[count:]:
            for phone in pair:
                await close_socket(phone)
        del self.pairs[count:]

    async def close(self) -> None:
        await self.keep(0)


def session() -> aiohttp.ClientSession:
    """The bench's HTTP client: no connection limit, cookies set by hand."""
    return aiohttp.ClientSession(
        connector=aiohttp.TCPConnector(limit=0), cookie_jar=aiohttp.DummyCookieJar()
    )


async def run_tracker(
    bases: list[str],
    matches: list[dict],
    seconds: float,
    connect_limit: int = 20,
    cpu=None,
    every: float = 1.0,
    jitter: float = 0.0,
    churn_every: float = 0.0,
    open_loop: bool = True,
) -> tuple[Result, list[Phone]]:
    """One run of `matches` on fresh phones (a Fleet of its own). Phones of a
    match on different processes when there are two. `open_loop` False: the
    closed-loop correctness burst (play_match)."""
    async with session() as http:
        fleet = Fleet(http, bases, open_loop)
        await fleet.connect(matches, connect_limit)
        result = await fleet.play(len(matches), seconds, cpu, every, jitter, churn_every)
        phones = [p for pair in fleet.pairs for p in pair]
        await fleet.close()
        return result, phones


async def run_relay(
    bases: list[str], count: int, seconds: float, tag: str, bare: bool = False, cpu=None
) -> Result:
    """The floors: `count` pairs of bare relay sockets (bench/relay.py), one
    message per pair per second, open loop. Sent over the first socket (the
    bare relay), or with `bare` as a POST to the bare Django action
    (bench/bare.py: the same middleware, one row, one group_send)."""
    connector = aiohttp.TCPConnector(limit=0)
    async with aiohttp.ClientSession(
        connector=connector, cookie_jar=aiohttp.DummyCookieJar()
    ) as http:
        pairs = []
        tokens: dict[int, tuple[str, str]] = {}
        for n in range(count):
            pair = []
            for base in (bases[0], bases[-1]):
                for attempt in range(3):
                    try:
                        ws = await http.ws_connect(
                            f"{base.replace('http://', 'ws://')}/ws/relay/{tag}-{n}/",
                            headers={"Origin": base},
                            max_msg_size=0,
                        )
                        break
                    except (OSError, aiohttp.ClientError):
                        if attempt == 2:
                            raise
                        await asyncio.sleep(0.5)
                socket = Socket(ws=ws)
                socket.task = asyncio.create_task(_read_relay(ws, socket))
                pair.append(socket)
            pairs.append(pair)
            if bare:
                async with http.get(f"{bases[0]}/bench/bare/{tag}-{n}/") as response:
                    token = await response.text()
                    tokens[n] = (token, response.cookies["csrftoken"].value)
        result = Result()
        pending: list = []

        async def post(n: int, pair: list[Socket], k: int) -> None:
            token, cookie = tokens[n]
            sent = time.perf_counter()
            result.offered += 1
            try:
                async with http.post(
                    f"{bases[0]}/bench/bare/{tag}-{n}/",
                    data={"n": str(k)},
                    headers={
                        "Cookie": f"csrftoken={cookie}",
                        "X-CSRFToken": token,
                        "Origin": bases[0],
                        "Referer": f"{bases[0]}/",
                    },
                    timeout=TAP_TIMEOUT,
                ) as response:
                    body = await response.read()
                    result.answer_bytes += len(body)
                    if response.status != 200:
                        result.errors.append(f"bare HTTP {response.status}")
                        result.shed += response.status == 503
                        return
            except (TimeoutError, aiohttp.ClientError) as error:
                result.errors.append(f"bare no answer: {error!r}"[:160])
                result.unanswered += 1
                return
            result.served += 1
            pending.append((pair, k, sent))

        async def one(n: int, pair: list[Socket]) -> None:
            await asyncio.sleep(random.random())
            start = time.perf_counter()
            k = 0
            sending: set[asyncio.Task] = set()
            while time.perf_counter() - start < seconds:
                k += 1
                if bare:
                    task = asyncio.create_task(post(n, pair, k))
                    sending.add(task)
                    task.add_done_callback(sending.discard)
                else:
                    sent = time.perf_counter()
                    result.offered += 1
                    try:
                        await pair[0].ws.send_str(f'<div id="seq" data-seq="{k}"></div>')
                    except (OSError, aiohttp.ClientError) as error:
                        result.errors.append(f"relay send failed: {error!r}"[:160])
                        return
                    result.served += 1
                    pending.append((pair, k, sent))
                delay = start + k - time.perf_counter()
                if delay > 0:
                    await asyncio.sleep(delay)
            await asyncio.gather(*sending)

        cpu_before = cpu() if cpu else 0.0
        driver_before = time.process_time()
        started = time.perf_counter()
        await asyncio.gather(*(one(n, pair) for n, pair in enumerate(pairs)))
        result.seconds = time.perf_counter() - started
        result.driver_cpu = time.process_time() - driver_before
        await settle(pending, result, wait=10, quiet=2.0)
        result.cpu = (cpu() - cpu_before) if cpu else 0.0
        result.push_bytes = sum(s.bytes for pair in pairs for s in pair)
        for pair in pairs:
            for s in pair:
                await s.ws.close()
                s.task.cancel()
        return result


async def _read_relay(ws, socket: Socket) -> None:
    async for message in ws:
        if message.type != aiohttp.WSMsgType.TEXT:
            break
        found = SEQ.search(message.data)
        note_blocks(message.data, socket.shown)
        if found:
            socket.got(int(found.group(1)), len(message.data))


async def churn(base: str, matches: list[dict], seconds: float) -> int:
    """Connect/disconnect churn: phones open a socket, take the first frame,
    close, again and again. Returns how many connections were made."""
    made = 0
    async with aiohttp.ClientSession(cookie_jar=aiohttp.DummyCookieJar()) as http:

        async def loop(m: dict, letter: str) -> None:
            nonlocal made
            deadline = time.perf_counter() + seconds
            while time.perf_counter() < deadline:
                try:
                    ws = await http.ws_connect(
                        f"{base.replace('http://', 'ws://')}/ws/m/{m['code']}/",
                        headers={"Cookie": f"sessionid={m[letter]}", "Origin": base},
                        max_msg_size=0,
                    )
                except (OSError, aiohttp.ClientError):
                    await asyncio.sleep(0.5)  # refused: a try, not a connection
                    continue
                await ws.receive(timeout=10)
                await ws.close()
                made += 1

        await asyncio.gather(*(loop(m, letter) for m in matches for letter in "AB"))
    return made


# What a phone's browser fetches to show a page, by tag and rel: scripts,
# stylesheets and images, the tab's icon (rel=icon) and the web app manifest
# (Chrome reads it with the page). Not counted, because a browser does not
# fetch them to show the page: rel=apple-touch-icon (Safari fetches it when
# the page is added to the home screen or shown among favourites; other
# browsers never), the icons the manifest names (fetched to install the app,
# or by Chrome once to check it could offer that), <a href> (fetched when
# tapped), and what the service worker precaches after the page has loaded
# (in the background, once per phone and version).
FETCHED_RELS = {"stylesheet", "icon", "manifest", "preload", "modulepreload"}


class _Fetched(HTMLParser):
    """The /static/ URLs a browser fetches for a page, in order, once each."""

    def __init__(self) -> None:
        super().__init__()
        self.urls: dict[str, None] = {}

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        named = {k: v or "" for k, v in attrs}
        url = ""
        if tag in ("script", "img", "source", "audio", "video"):
            url = named.get("src", "")
        elif tag == "link" and FETCHED_RELS & set(named.get("rel", "").lower().split()):
            url = named.get("href", "")
        if url.startswith("/static/"):
            self.urls[url] = None


def fetched_assets(html: str) -> list[str]:
    parser = _Fetched()
    parser.feed(html)
    parser.close()
    return list(parser.urls)


async def first_load(
    base: str,
    match: dict,
    detail: dict[str, dict[str, int]] | None = None,
    language: str = "",
) -> dict[str, int]:
    """Bytes transferred for a first load of each page, as a phone asking
    for br/gzip gets them: the HTML, every static file the browser fetches to
    show it (fetched_assets), and (for the match page) the socket's first
    frame. `detail`, when given, gets each
    page's bytes per part (the HTML, each asset, the frame). `language`: the
    phone's Accept-Language (none: the server's default, English)."""
    pages = {
        "home": ("/", ""),
        "match, player": (f"/m/{match['code']}/", match["A"]),
        "match, spectator": (f"/m/{match['code']}/", ""),
    }
    sizes = {}
    async with aiohttp.ClientSession(
        auto_decompress=False, cookie_jar=aiohttp.DummyCookieJar()
    ) as http:
        for name, (path, session) in pages.items():
            headers = {"Accept-Encoding": "br, gzip"}
            if language:
                headers["Accept-Language"] = language
            if session:
                headers["Cookie"] = f"sessionid={session}"
            async with http.get(base + path, headers=headers) as response:
                raw = await response.read()
            total = len(raw)
            parts = {f"html ({response.headers.get('Content-Encoding') or 'identity'})": total}
            text = (
                raw.decode(errors="replace") if not response.headers.get("Content-Encoding") else ""
            )
            if not text:
                async with (
                    aiohttp.ClientSession(cookie_jar=aiohttp.DummyCookieJar()) as plain,
                    plain.get(base + path, headers=headers) as again,
                ):
                    text = await again.text()
            for asset in fetched_assets(text):
                async with http.get(base + asset, headers={"Accept-Encoding": "br, gzip"}) as r:
                    size = len(await r.read())
                    parts[f"{asset} ({r.headers.get('Content-Encoding') or 'identity'})"] = size
                    total += size
            if path.startswith("/m/"):
                shown = ".".join(SHOWN.findall(text))
                ws_headers = {"Origin": base}
                if language:  # as a browser's handshake carries it
                    ws_headers["Accept-Language"] = language
                if session:
                    ws_headers["Cookie"] = f"sessionid={session}"
                async with http.ws_connect(
                    f"{base.replace('http://', 'ws://')}{'/ws' + path}?h={shown}",
                    headers=ws_headers,
                ) as ws:
                    message = await ws.receive(timeout=10)
                    total += len(message.data.encode())
                    parts["socket first frame"] = len(message.data.encode())
            sizes[name] = total
            if detail is not None:
                detail[name] = parts
    return sizes
