"""Real server processes and real HTTP clients, for the reliability checks.

`LiveServer` runs `manage.py serve` (what `make run` runs: daphne with the
limits of tracker/front_door.py, HTTP and websockets on one port) in a
subprocess on 127.0.0.1 against whatever database its environment names, and can be killed
with SIGKILL and started again. `Browser` is a phone's HTTP side: its own
cookie jar (session, CSRF cookie), the CSRF header htmx sends, no redirects
followed. `LogRows` reads a match's events straight from the database, and
`verify_log` recomputes the hash chain and replays the state from them,
without going through the app.
"""

from __future__ import annotations

import http.client
import http.cookiejar
import json
import os
import re
import resource
import secrets
import signal
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.parse
import urllib.request
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path

from bench.serving import environment

ROOT = Path(__file__).resolve().parents[2]
HOST = "127.0.0.1"


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind((HOST, 0))
        return sock.getsockname()[1]


def server_env(tmp: Path, **extra: str) -> dict:
    """A server environment: SQLite in `tmp` unless DATABASE_URL is given."""
    unset = ("DATABASE_URL", "REDIS_URL", "SQLITE_TEST_PATH")
    return environment(tmp, drop=unset, ALLOWED_HOSTS="127.0.0.1,localhost", **extra)


def _python(env: dict, *args: str, timeout: float) -> str:
    """Run a script of the repository in its own process: its output."""
    done = subprocess.run(
        [sys.executable, *args], cwd=ROOT, env=env, capture_output=True, text=True, timeout=timeout
    )
    if done.returncode:
        raise RuntimeError(f"{' '.join(args)} failed:\n{done.stderr[-3000:]}")
    return done.stdout


def manage(env: dict, *args: str) -> str:
    return _python(env, "manage.py", *args, timeout=120)


def shell_on_scratch_postgres(postgres_admin, tmp: Path, prefix: str, code: str, **env) -> object:
    """Run `code` in `manage.py shell` on a migrated scratch PostgreSQL
    database of its own (dropped after), and return the JSON its last line
    prints. `env`: settings of the run (DEBUG, ALLOWED_HOSTS...)."""
    admin_url, admin = postgres_admin
    name = f"{prefix}_{secrets.token_hex(4)}"
    admin.execute(f'CREATE DATABASE "{name}"')
    run = {
        **os.environ,
        "DJANGO_SETTINGS_MODULE": "tracker.settings",
        "DATABASE_URL": f"{admin_url.rsplit('/', 1)[0]}/{name}",
        "TRACKER_VAR_DIR": str(tmp / "var"),
        **env,
    }
    run.pop("REDIS_URL", None)
    try:
        manage(run, "migrate", "--noinput", "-v0")
        return json.loads(manage(run, "shell", "-c", code).strip().splitlines()[-1])
    finally:
        admin.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


def make_matches(env: dict, count: int) -> list[dict]:
    """`count` matches in play on the database `env` names, made in one
    process by bench/setup_matches.py: code and each seat's session key."""
    return json.loads(_python(env, "bench/setup_matches.py", str(count), timeout=300))


@dataclass
class LiveServer:
    env: dict
    log: Path
    port: int = 0
    process: subprocess.Popen | None = None
    starts: int = 0
    # Every LiveServer runs `manage.py serve`, exactly what `make run` runs
    # (issue 22: the limits live there); kept for the callers that ask.
    make_run: bool = True
    # The server's open-files limit (soft and hard), as on a laptop's 1,024.
    open_files: int | None = None

    @property
    def url(self) -> str:
        return f"http://{HOST}:{self.port}"

    @property
    def ws_url(self) -> str:
        return f"ws://{HOST}:{self.port}"

    def start(self, timeout: float = 30) -> LiveServer:
        """Start the server on a fresh port and wait until it answers."""
        assert self.process is None or self.process.poll() is not None
        self.port = free_port()
        self.starts += 1
        with open(self.log, "a") as log:
            log.write(f"\n--- start {self.starts} on port {self.port}\n")
        command = ["manage.py", "serve", "--host", HOST, "--port", str(self.port)]
        limit = self.open_files

        def child_limits():  # runs in the child, before exec
            if limit is not None:
                resource.setrlimit(resource.RLIMIT_NOFILE, (limit, limit))

        self.process = subprocess.Popen(
            [sys.executable, *command],
            cwd=ROOT,
            env=self.env,
            preexec_fn=child_limits,  # noqa: PLW1509 (no threads of ours touch it)
            stdout=subprocess.DEVNULL,
            stderr=open(self.log, "a"),  # noqa: SIM115 (the child keeps it)
        )
        deadline = time.monotonic() + timeout
        while True:
            try:
                urllib.request.urlopen(self.url + "/", timeout=1)  # noqa: S310 (loopback)
                return self
            except OSError:
                if self.process.poll() is not None or time.monotonic() > deadline:
                    self.process.kill()
                    raise RuntimeError(
                        "the server did not start:\n" + self.log_text()[-3000:]
                    ) from None
                time.sleep(0.1)

    def kill(self) -> None:
        """kill -9: no shutdown handlers, no flushing, transactions cut mid-way."""
        assert self.process is not None
        os.kill(self.process.pid, signal.SIGKILL)
        self.process.wait(timeout=10)

    def stop(self) -> None:
        if self.process is None or self.process.poll() is not None:
            return
        self.process.terminate()
        try:
            self.process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait(timeout=10)

    def rss_mb(self) -> float:
        """The server's resident memory (VmRSS), in MB."""
        for line in Path(f"/proc/{self.process.pid}/status").read_text().splitlines():
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024
        raise AssertionError("no VmRSS")

    def log_text(self) -> str:
        return self.log.read_text() if self.log.exists() else ""


class _NoRedirect(urllib.request.HTTPRedirectHandler):
    def redirect_request(self, *args, **kwargs):
        return None


@dataclass
class Reply:
    status: int
    body: str
    headers: http.client.HTTPMessage = field(default_factory=http.client.HTTPMessage)

    @property
    def error(self) -> str | None:
        found = re.search(r'<p class="error" role="alert">(.*?)</p>', self.body, re.S)
        return found.group(1).strip() if found else None


class Browser:
    """One phone's HTTP side. Not thread-safe: give each thread its own
    (`clone()` shares the session through a copy of the cookies)."""

    def __init__(self, base_url: str, jar: http.cookiejar.CookieJar | None = None):
        self.base_url = base_url
        self.jar = jar or http.cookiejar.CookieJar()
        self.opener = urllib.request.build_opener(
            urllib.request.HTTPCookieProcessor(self.jar), _NoRedirect()
        )

    def clone(self, base_url: str | None = None) -> Browser:
        jar = http.cookiejar.CookieJar()
        for cookie in self.jar:
            jar.set_cookie(cookie)
        return Browser(base_url or self.base_url, jar)

    def cookie(self, name: str) -> str | None:
        return next((c.value for c in self.jar if c.name == name), None)

    def request(self, method: str, path: str, data=None, headers=None, timeout=20) -> Reply:
        body = urllib.parse.urlencode(data, doseq=True).encode() if data is not None else None
        req = urllib.request.Request(self.base_url + path, data=body, method=method)  # noqa: S310 (loopback)
        for name, value in (headers or {}).items():
            req.add_header(name, value)
        try:
            with self.opener.open(req, timeout=timeout) as response:
                return Reply(response.status, response.read().decode(), response.headers)
        except urllib.error.HTTPError as error:
            return Reply(error.code, error.read().decode(errors="replace"), error.headers)

    def get(self, path: str, **kwargs) -> Reply:
        return self.request("GET", path, **kwargs)

    def post(self, path: str, data: dict, htmx: bool = True, **kwargs) -> Reply:
        if self.cookie("csrftoken") is None:
            self.get("/")
        headers = {"X-CSRFToken": self.cookie("csrftoken") or ""}
        if htmx:
            headers["HX-Request"] = "true"
        return self.request("POST", path, data=data, headers=headers, **kwargs)


@dataclass
class Player:
    browser: Browser
    code: str
    letter: str
    seat_token: str = ""

    def act(self, command: str, action_id: str, browser: Browser | None = None, **data) -> Reply:
        return (browser or self.browser).post(
            f"/m/{self.code}/act/{command}/", {"action_id": action_id, **data}
        )

    def page(self) -> str:
        return self.browser.get(f"/m/{self.code}/").body

    def add_trooper(self, name: str, cost: int, traits=()) -> Reply:
        row_id = re.search(r'name="row_id" value="([a-f0-9]{8})"', self.page()).group(1)
        return self.browser.post(
            f"/m/{self.code}/draft/add/",
            {
                "row_id": row_id,
                "name": name,
                "cost": cost,
                "combat_group": 1,
                "silhouette": 2,
                "traits": list(traits),
            },
        )


def phone_socket(server: LiveServer, code: str, session: str):
    """A phone's socket on the served app as app.js opens it (its page's
    Origin, its session cookie): a websockets client connection."""
    from websockets.sync.client import connect

    return connect(
        f"{server.ws_url}/ws/m/{code}/",
        origin=server.url,
        additional_headers={"Cookie": f"sessionid={session}"},
        proxy=None,
        compression=None,
        open_timeout=30,
        close_timeout=2,
    )


def closed_code(socket, seconds: float) -> int | None:
    """The close code the server sent within `seconds`, or None if the socket
    is still open then (everything else it sent is read and dropped)."""
    from websockets.exceptions import ConnectionClosed

    deadline = time.monotonic() + seconds
    try:
        while (left := deadline - time.monotonic()) > 0:
            try:
                socket.recv(timeout=left)
            except TimeoutError:
                return None
    except ConnectionClosed as closed:
        return closed.rcvd.code if closed.rcvd is not None else -1
    return None


def seat_players(url: str, pin: str = "246813") -> tuple[Player, Player]:
    """Create a match on a live server and seat Alice (A) and Bob (B)."""
    alice = Browser(url)
    reply = alice.post(
        "/new/",
        {"name": "Live game", "points_limit": 300, "rounds": 3, "mission": "", "table": ""},
        htmx=False,
    )
    assert reply.status == 302, (reply.status, reply.body[:500])
    code = reply.headers["Location"].split("/")[2]
    links = re.findall(
        rf"/m/{re.escape(code)}/s/([A-Za-z0-9_-]+)/", alice.get(reply.headers["Location"]).body
    )
    tokens = list(dict.fromkeys(links))
    assert len(tokens) == 2, tokens
    bob = Browser(url)
    players = []
    for browser, token, letter, name in (
        (alice, tokens[0], "A", "Alice"),
        (bob, tokens[1], "B", "Bob"),
    ):
        browser.get(f"/m/{code}/s/{token}/")
        reply = browser.post(f"/m/{code}/s/{token}/", {"name": name, "pin": pin}, htmx=False)
        assert reply.status == 302, (reply.status, reply.body[:500])
        players.append(Player(browser, code, letter, token))
    return players[0], players[1]


def to_deployment(alice: Player, bob: Player) -> dict[str, str]:
    """Both lists locked (plain troopers, no secrets needed), Alice plays and
    deploys first. Returns trooper name -> id."""
    for player, troopers in (
        (alice, [("Kaplan", 20, ["lieutenant_candidate"]), ("Zhanshi", 10, [])]),
        (bob, [("Fusilier", 10, ["lieutenant_candidate"]), ("Bolt", 15, [])]),
    ):
        for name, cost, traits in troopers:
            reply = player.add_trooper(name, cost, traits)
            assert reply.status == 200 and reply.error is None, reply.error
        reply = player.act("LockArmyList", f"lock-{player.letter}-{player.code}")
        assert reply.status == 200 and reply.error is None, reply.error
    reply = alice.act("SetInitiative", f"init-{alice.code}", first_turn="A", deploys_first="A")
    assert reply.status == 200 and reply.error is None, reply.error
    page = alice.page() + bob.page()
    return {
        name: found
        for found, name in re.findall(
            r'id="trooper-([a-f0-9]+)">\s*<span class="name">([^<]+)</span>', page
        )
    }


# ------------------------------------------------------------ the log itself


@dataclass(frozen=True)
class Row:
    seq: int
    kind: str
    data: str
    private_to: str
    actor: str
    action_id: str
    created_at: datetime
    hash: str


@dataclass(frozen=True)
class MatchRow:
    pk: int
    seq: int
    last_hash: str


def _aware(value) -> datetime:
    if isinstance(value, str):
        value = datetime.fromisoformat(value)
    return value if value.tzinfo else value.replace(tzinfo=UTC)


_EVENTS = (
    "SELECT e.seq, e.kind, e.data, e.private_to, e.actor, e.action_id, e.created_at, e.hash "
    "FROM tracker_matchevent e JOIN tracker_match m ON m.id = e.match_id "
    "WHERE m.code = {p} ORDER BY e.seq"
)
_MATCH = "SELECT id, seq, last_hash FROM tracker_match WHERE code = {p}"


def read_sqlite(path: str | Path, code: str) -> tuple[MatchRow, list[Row]]:
    import sqlite3

    with sqlite3.connect(path, timeout=20) as db:
        match = MatchRow(*db.execute(_MATCH.format(p="?"), [code]).fetchone())
        rows = db.execute(_EVENTS.format(p="?"), [code]).fetchall()
    return match, [Row(*r[:6], _aware(r[6]), r[7]) for r in rows]


def read_postgres(url: str, code: str) -> tuple[MatchRow, list[Row]]:
    import psycopg

    with psycopg.connect(url) as db:
        match = MatchRow(*db.execute(_MATCH.format(p="%s"), [code]).fetchone())
        rows = db.execute(_EVENTS.format(p="%s"), [code]).fetchall()
    return match, [Row(*r[:6], _aware(r[6]), r[7]) for r in rows]


def verify_log(match: MatchRow, rows: list[Row]):
    """Everything a crash must not break: seq 1..n without gaps or repeats,
    each hash recomputed from GENESIS_HASH, the match row's caches agreeing
    with the log, and the state replaying without error. Returns the state."""
    from tracker import rules
    from tracker.models import GENESIS_HASH, chain_hash

    assert [row.seq for row in rows] == list(range(1, len(rows) + 1)), "seq has gaps or repeats"
    previous = GENESIS_HASH
    for row in rows:
        expected = chain_hash(
            previous,
            seq=row.seq,
            kind=row.kind,
            data=row.data,
            private_to=row.private_to,
            actor=row.actor,
            action_id=row.action_id,
            created_at=row.created_at,
        )
        assert row.hash == expected, f"the chain breaks at seq {row.seq}"
        previous = row.hash
    assert match.seq == len(rows), f"match.seq {match.seq} but {len(rows)} events"
    assert match.last_hash == previous, "match.last_hash is not the last event's hash"
    state = rules.replay([rules.event_from_data(row.kind, json.loads(row.data)) for row in rows])
    assert state.seq == len(rows)
    return state


def events_by_action(rows: list[Row]) -> dict[str, list[int]]:
    found: dict[str, list[int]] = {}
    for row in rows:
        if row.action_id:
            found.setdefault(row.action_id, []).append(row.seq)
    return found


# ------------------------------------------------------------------ load


@dataclass(frozen=True)
class Sent:
    """One action as the phone saw it: acknowledged ("ok": HTTP 200 and no
    error shown), refused (an answer with an error or another status), or
    lost (no answer at all: the server died or the socket broke)."""

    action_id: str
    outcome: str
    status: int = 0
    detail: str = ""


def send_action(
    player: Player, browser: Browser, command: str, action_id: str, timeout: float = 20, **fields
) -> Sent:
    try:
        reply = browser.post(
            f"/m/{player.code}/act/{command}/", {"action_id": action_id, **fields}, timeout=timeout
        )
    except (OSError, http.client.HTTPException) as error:
        return Sent(action_id, "lost", detail=repr(error))
    if reply.status == 200 and reply.error is None:
        return Sent(action_id, "ok", 200)
    return Sent(action_id, "refused", reply.status, (reply.error or reply.body)[:300])


def send_note(player: Player, browser: Browser, action_id: str, timeout: float = 20) -> Sent:
    """A SealNote: repeatable in deployment and play, one event each."""
    return send_action(
        player, browser, "SealNote", action_id, timeout, label="Objective", text=f"note {action_id}"
    )


def hammer(
    player: Player,
    browser: Browser,
    prefix: str,
    count: int,
    seconds: float,
    stop_on_loss: bool = True,
) -> list[Sent]:
    """At most `count` notes, for at most `seconds`, one after another."""
    sent = []
    deadline = time.monotonic() + seconds
    for n in range(count):
        if time.monotonic() > deadline:
            break
        result = send_note(player, browser, f"{prefix}-{n:05d}")
        sent.append(result)
        if result.outcome == "lost" and stop_on_loss:
            break
    return sent


def wait_for(predicate, seconds: float, every: float = 0.02) -> None:
    deadline = time.monotonic() + seconds
    while not predicate():
        if time.monotonic() > deadline:
            raise AssertionError(f"gave up waiting after {seconds} s")
        time.sleep(every)


# ------------------------------------------------------------ websockets


def open_socket(server: LiveServer, code: str, browser: Browser | None = None, origin=None):
    """A real websocket to `server` as the phone `browser` (its session
    cookie), sending `origin` as the Origin header if given."""
    from websockets.sync.client import connect

    headers = {}
    if browser is not None and browser.cookie("sessionid"):
        headers["Cookie"] = f"sessionid={browser.cookie('sessionid')}"
    return connect(
        f"{server.ws_url}/ws/m/{code}/",
        origin=origin,
        additional_headers=headers,
        proxy=None,
        compression=None,
        open_timeout=5,
        close_timeout=2,
    )


# ------------------------------------------------------------ page blocks

_SECTION_TAG = re.compile(r"<section\b[^>]*>|</section>")
_BLOCK_ID = re.compile(r'\bid="(blk-[^"]+)"')


def _sections(source: str) -> dict[str, str]:
    """Top-level <section id="blk-..."> elements, as their exact source text."""
    found, depth, start, ident = {}, 0, 0, ""
    for tag in _SECTION_TAG.finditer(source):
        if tag.group().startswith("</"):
            depth = max(depth - 1, 0)
            if depth == 0 and ident:
                found[ident] = source[start : tag.end()]
                ident = ""
            continue
        if depth == 0:
            named = _BLOCK_ID.search(tag.group())
            ident, start = (named.group(1), tag.start()) if named else ("", 0)
        depth += 1
    return found


def normalise(block: str) -> str:
    block = block.replace(' hx-swap-oob="true"', "")
    return re.sub(r">\s+<", "><", re.sub(r"\s+", " ", block)).strip()


def blocks_of(source: str) -> dict[str, str]:
    """The page's blocks by id, as a page load or a socket frame carries them."""
    return {ident: normalise(html) for ident, html in _sections(source).items()}


def seq_of(source: str) -> int:
    return int(re.search(r'id="seq"[^>]*data-seq="(\d+)"', source).group(1))


# A part of a block sent on its own (rendering.changed_parts): a trooper row,
# the Undo form's <div id="undo"> or a log line (issue 18).
_ROW_PUSH = re.compile(
    r'<(li|div) hx-swap-oob="true"[^>]*\bid="(trooper-[^"]+|undo|log-\d+|recent-\d+)".*?</\1>',
    re.S,
)
# A list's lines gone, and its new lines added at its top (rendering._list_delta).
_LINE_GONE = re.compile(r'<li id="([^"]+)" hx-swap-oob="delete"></li>')
_LINES_ADDED = re.compile(r'<ol hx-swap-oob="afterbegin:#([^"]+)">(.*?)</ol>', re.S)
_LINE = re.compile(r'<li\b[^>]*\bid="([^"]+)".*?</li>', re.S)
_BLOCK_NOTES = re.compile(r'id="seq"[^>]*data-blocks="([^"]*)"')


def apply_frame(shown: dict[str, str], frame: str) -> dict[str, str]:
    """What a phone shows after a socket frame, as htmx and app.js apply it:
    whole blocks swapped by id, trooper rows and the Undo part swapped by id inside their
    block, and the block digests the seq marker names recorded."""
    shown = {**shown, **blocks_of(frame)}
    for row in _ROW_PUSH.finditer(frame):
        tag, ident, new = row.group(1), row.group(2), normalise(row.group(0))
        old = re.compile(rf'<{tag} [^>]*\bid="{re.escape(ident)}"[^>]*>.*?</{tag}>', re.S)
        for name, block in shown.items():
            if f'id="{ident}"' in block:
                shown[name] = old.sub(lambda _m, new=new: new, block, count=1)
    for gone in _LINE_GONE.finditer(frame):
        line = re.compile(rf'<li [^>]*\bid="{re.escape(gone.group(1))}"[^>]*>.*?</li>', re.S)
        shown = {name: line.sub("", block, count=1) for name, block in shown.items()}
    for added in _LINES_ADDED.finditer(frame):
        top = re.compile(rf'<ol [^>]*\bid="{re.escape(added.group(1))}"[^>]*>')
        for name, block in shown.items():
            found = top.search(block)
            if found is None:
                continue
            # As app.js: a line already shown (the answer's, then the push's)
            # is not added twice.
            new = "".join(
                normalise(m.group(0))
                for m in _LINE.finditer(added.group(2))
                if f'id="{m.group(1)}"' not in block
            )
            shown[name] = block[: found.end()] + new + block[found.end() :]
    notes = _BLOCK_NOTES.search(frame)
    for note in notes.group(1).split(",") if notes else []:
        name, digest = note.split(":")
        ident = f"blk-{name}"
        if ident in shown:
            shown[ident] = re.sub(
                r'data-h="[0-9a-f]{16}"', f'data-h="{digest}"', shown[ident], count=1
            )
    return shown
