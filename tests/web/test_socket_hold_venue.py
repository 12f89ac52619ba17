"""Attack: one client at a venue's address holds the websockets the address
may have, against the server `make run` starts.

A venue behind one NAT is one address. A client there opened
SOCKETS_PER_ADDRESS sockets (1,000 by default, without a cookie: a match's
socket needs no seat), read their first frames, and sent nothing more: a
socket that had never pinged was never closed, so they stayed open for as
long as the client liked (1,000 of them still open after 30 s, measured),
and every phone of the venue was refused its socket (app.js says
"Offline", and taps wait for a link that never comes). Now a socket that
sends nothing for SOCKET_SILENCE_SECONDS from its first frame is closed as
a silent one is (app.js pings every second), and a player's socket of the
seat she holds is not counted against the address: only the per-session
limit holds it, and a seat needs its own session.
"""

from __future__ import annotations

import contextlib
import json

import pytest

from tests.scale.servers import (
    LiveServer,
    closed_code,
    make_matches,
    manage,
    phone_socket,
    server_env,
)

SILENT = 4408
SOCKETS = 12  # SOCKETS_PER_ADDRESS of the second server here


def _socket(server: LiveServer, code: str):
    """A socket without any cookie, as any client may open one."""
    from websockets.sync.client import connect

    return connect(
        f"{server.ws_url}/ws/m/{code}/",
        origin=server.url,
        proxy=None,
        compression=None,
        open_timeout=30,
        close_timeout=2,
        ping_interval=None,  # it sends nothing at all, not even a protocol ping
    )


@pytest.fixture(scope="module")
def quick_silence(tmp_path_factory):
    tmp = tmp_path_factory.mktemp("silent-holders")
    env = server_env(tmp, SOCKET_SILENCE_SECONDS="1")
    manage(env, "migrate", "--noinput", "-v0")
    matches = make_matches(env, 1)
    server = LiveServer(env, tmp / "serve.log").start()
    yield server, matches[0]
    server.stop()


def test_attack_a_socket_that_never_sends_anything_is_closed(quick_silence):
    server, made = quick_silence
    with (
        _socket(server, made["code"]) as holder,
        phone_socket(server, made["code"], made["A"]) as phone,
    ):
        assert 'id="seq"' in holder.recv(timeout=30)
        assert 'id="seq"' in phone.recv(timeout=30)
        # The phone pings as app.js does; the holder sends nothing. Within ten
        # deadlines (a bound, not a timing), the holder is closed as silent.
        number = 0
        while (code := closed_code(holder, 0.4)) is None and number < 25:
            number += 1
            phone.send(json.dumps({"ping": number}))
        assert code == SILENT
        for _ in range(10):  # and the phone is still served, past the deadline
            number += 1
            phone.send(json.dumps({"ping": number}))
            assert closed_code(phone, 0.4) is None
        phone.send(json.dumps({"ping": 0}))
        while '"pong": 0' not in phone.recv(timeout=10):
            pass
    assert "Traceback" not in server.log_text()


@pytest.fixture(scope="module")
def small_share(tmp_path_factory):
    tmp = tmp_path_factory.mktemp("address-share")
    env = server_env(tmp, SOCKETS_PER_ADDRESS=str(SOCKETS), SOCKET_SILENCE_SECONDS="120")
    manage(env, "migrate", "--noinput", "-v0")
    matches = make_matches(env, 2)
    server = LiveServer(env, tmp / "serve.log").start()
    yield server, matches
    server.stop()


def test_attack_sockets_without_a_seat_do_not_lock_the_tables_phones_out(small_share):
    from websockets.exceptions import InvalidStatus

    server, matches = small_share
    with contextlib.ExitStack() as held:
        for number in range(SOCKETS):
            socket = held.enter_context(_socket(server, matches[number % 2]["code"]))
            assert 'id="seq"' in socket.recv(timeout=30)
        # The address's share of sockets without a seat is taken: one more
        # such socket is refused (its handshake closes before it opens)...
        with pytest.raises(InvalidStatus):
            _socket(server, matches[0]["code"])
        # ...but every seat's phone at the same address still gets its own.
        for made in matches:
            for letter in ("A", "B"):
                with phone_socket(server, made["code"], made[letter]) as phone:
                    assert 'id="seq"' in phone.recv(timeout=30)
    assert "Traceback" not in server.log_text()
