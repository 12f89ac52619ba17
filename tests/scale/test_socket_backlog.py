"""Issue 17: a phone gets its socket back while pushes lag. Issue 18: no
socket's connect waits behind another match's renders.

A real server process (daphne, as in production) with every socket render
made slower by TRACKER_SLOW_PUSH_RENDER (tracker/settings.py): sockets of
many matches are open and every match taps once, so dozens of renders are
queued at once. A phone of another match then opens its socket: it must be
accepted and get its first frame, with the match as it is now, within a
second, not after the backlog (before issue 17 the connect's authentication
queued behind every render on Channels' one thread, and daphne cut it after
5 s). Then every backlog socket must still get its push. In the embedded
setup (SQLite, in-memory layer) and on PostgreSQL + Redis.
"""

from __future__ import annotations

import http.cookiejar
import secrets
import time
from concurrent.futures import ThreadPoolExecutor

import pytest
from websockets.exceptions import WebSocketException

from tests.scale.conftest import _with_path
from tests.scale.servers import (
    Browser,
    LiveServer,
    Player,
    blocks_of,
    make_matches,
    manage,
    open_socket,
    send_note,
    seq_of,
    server_env,
)

pytestmark = pytest.mark.scale

BACKLOG_MATCHES = 30  # two sockets each: 60 renders queued by one tap a match
SLOW_RENDER = 0.25  # seconds added to every push's render


def _phone(url: str, session_key: str) -> Browser:
    """A phone holding the seat whose session bench/setup_matches.py made."""
    host = url.split("//", 1)[1].split(":")[0]
    jar = http.cookiejar.CookieJar()
    jar.set_cookie(
        http.cookiejar.Cookie(
            0, "sessionid", session_key, None, False, host, False, False, "/", True,
            False, None, False, None, None, {},
        )
    )  # fmt: skip
    return Browser(url, jar)


@pytest.fixture(params=["embedded", "postgres_redis"])
def slow_server(request, tmp_path):
    extra = {"TRACKER_SLOW_PUSH_RENDER": str(SLOW_RENDER)}
    dropped = None
    if request.param == "postgres_redis":
        admin_url, admin = request.getfixturevalue("postgres_admin")
        redis_url, _ = request.getfixturevalue("scratch_redis")
        name = f"tracker_backlog_{secrets.token_hex(5)}"
        admin.execute(f'CREATE DATABASE "{name}"')
        dropped = (admin, name)
        extra.update(DATABASE_URL=_with_path(admin_url, f"/{name}"), REDIS_URL=redis_url)
    env = server_env(tmp_path, **extra)
    server = LiveServer(env, tmp_path / "daphne.log")
    try:
        manage(env, "migrate", "--noinput", "-v0")
        matches = make_matches(env, BACKLOG_MATCHES + 1)
        server.start()
        yield server, matches
    finally:
        server.stop()
        if dropped is not None:
            admin, name = dropped
            admin.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


def _open(server: LiveServer, match: dict, letter: str):
    socket = open_socket(server, match["code"], _phone(server.url, match[letter]), server.url)
    first = socket.recv(timeout=60)  # the first frame, whatever the wait
    return socket, seq_of(first)


def tap_every_match(pool, server: LiveServer, matches: list[dict], tag: str) -> None:
    """Seat A of every match seals a note at once: a push for each socket."""
    taps = list(
        pool.map(
            lambda m: send_note(
                Player(_phone(server.url, m["A"]), m["code"], "A"),
                _phone(server.url, m["A"]),
                f"{tag}-{m['code']}",
            ),
            matches,
        )
    )
    assert [t.outcome for t in taps] == ["ok"] * len(matches), taps


def _newest_seq(socket, at_least: int, seconds: float) -> int:
    """Read frames until one is at `at_least` or the time is up."""
    deadline = time.monotonic() + seconds
    seq = 0
    while seq < at_least and time.monotonic() < deadline:
        try:
            seq = max(seq, seq_of(socket.recv(timeout=max(deadline - time.monotonic(), 0.01))))
        except TimeoutError:
            break
    return seq


def test_a_phone_reconnecting_during_a_push_backlog_gets_its_socket_and_state_within_a_second(
    slow_server,
):
    server, matches = slow_server
    backlog, latecomer = matches[:BACKLOG_MATCHES], matches[BACKLOG_MATCHES]
    # The latecomer's page, as its phone last loaded it: the state its first
    # frame must show (nothing happens in its match meanwhile).
    phone = _phone(server.url, latecomer["A"])
    page = phone.get(f"/m/{latecomer['code']}/")
    assert page.status == 200, page.body[:300]

    with ThreadPoolExecutor(8) as pool:
        opened = list(
            pool.map(lambda args: _open(server, *args), [(m, s) for m in backlog for s in "AB"])
        )
        try:
            # One tap in every backlog match: a push for each of its two
            # sockets, every render slow.
            tap_every_match(pool, server, backlog, "backlog")

            started = time.monotonic()
            try:
                socket = open_socket(server, latecomer["code"], phone, server.url)
            except (OSError, WebSocketException) as error:
                waited = time.monotonic() - started
                pytest.fail(f"the socket was not accepted ({waited:.1f} s): {error!r}")
            accepted = time.monotonic() - started
            try:
                frame = socket.recv(timeout=10)
                first_frame = time.monotonic() - started
            finally:
                socket.close()
            # Accepted and shown the match as it is, within a second, while
            # the backlog's renders are still queued (they take seconds).
            assert accepted < 1.0, f"accepted after {accepted:.2f} s"
            assert first_frame < 1.0, f"first frame after {first_frame:.2f} s"
            assert seq_of(frame) == seq_of(page.body)
            assert blocks_of(frame) == blocks_of(page.body)
            # The backlog was there meanwhile: most sockets still wait for it.
            wanted = [seq + 1 for _socket, seq in opened]
            early = [
                _newest_seq(socket, seq, 0.001)
                for (socket, _), seq in zip(opened, wanted, strict=True)
            ]
            pushed = sum(got >= seq for got, seq in zip(early, wanted, strict=True))
            print(f"accepted {accepted:.3f} s, first frame {first_frame:.3f} s, {pushed} pushed")
            assert pushed < len(opened) / 2, f"{pushed} of {len(opened)} pushes already sent"

            # And the backlog still drains: every socket gets its match's new seq.
            got = list(
                pool.map(
                    lambda args: (
                        args[1] if args[1] >= args[2] else _newest_seq(args[0], args[2], 60)
                    ),
                    [(s, e, w) for (s, _), e, w in zip(opened, early, wanted, strict=True)],
                )
            )
            assert got == wanted
        finally:
            for socket, _seq in opened:
                socket.close()
    assert "Traceback" not in server.log_text(), server.log_text()[-3000:]
