"""Attack: one client at a venue's address opens sockets as fast as it
can, against the server `make run` starts (consumers._connect_turns).

A socket's connect (its counts, its seat, its first frame) runs on a few
threads of its own, and connects were served first come, first served. One
client with 300 sockets opening at a time queued its connects ahead of
every phone's: a seated phone's first frame took 14 s (median of three, two
never came within 30 s; app.js says "Offline" after 5 s and tries again, at
the back of the queue). Now clients take turns (a session this process
knows to be real, else an address), and a phone's connect waits for one
turn of each client with one waiting: its first frame came in 0.5 s
(median), none after 5 s.

Shown by order, not time: the phone's handshake is sent right after the
client's forty, and its first frame arrives before most of theirs.
"""

from __future__ import annotations

import selectors
import socket
import time

import pytest

from tests.scale.servers import HOST, LiveServer, make_matches, manage, phone_socket, server_env

FLOOD = 40


@pytest.fixture(scope="module")
def served(tmp_path_factory):
    tmp = tmp_path_factory.mktemp("connect-turns")
    env = server_env(tmp, SOCKET_CONNECT_THREADS="1")
    manage(env, "migrate", "--noinput", "-v0")
    matches = make_matches(env, 2)
    server = LiveServer(env, tmp / "serve.log").start()
    yield server, matches
    server.stop()


def _handshake(server: LiveServer, code: str, session: str | None) -> socket.socket:
    sock = socket.create_connection((HOST, server.port), timeout=10)
    cookie = f"Cookie: sessionid={session}\r\n" if session else ""
    sock.sendall(
        (
            f"GET /ws/m/{code}/ HTTP/1.1\r\nHost: {HOST}:{server.port}\r\n"
            "Upgrade: websocket\r\nConnection: Upgrade\r\n"
            "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n"
            f"Origin: {server.url}\r\n{cookie}\r\n"
        ).encode()
    )
    return sock


def _first_frames_in_order(sockets: list[socket.socket], seconds: float) -> list[socket.socket]:
    """The sockets in the order their first frames arrived (within a bound)."""
    selector = selectors.DefaultSelector()
    received = {sock: b"" for sock in sockets}
    for sock in sockets:
        sock.setblocking(False)
        selector.register(sock, selectors.EVENT_READ)
    order = []
    deadline = time.monotonic() + seconds
    while len(order) < len(sockets) and (left := deadline - time.monotonic()) > 0:
        for key, _ in selector.select(timeout=left):
            sock = key.fileobj
            data = sock.recv(65536)
            received[sock] += data
            if b'id="seq"' in received[sock] or not data:
                selector.unregister(sock)
                if data:
                    order.append(sock)
    selector.close()
    return order


def test_attack_a_phones_connect_is_not_queued_behind_one_clients_many(served):
    server, matches = served
    made = matches[0]
    # The phone has had its socket before (its session is known to be real).
    with phone_socket(server, made["code"], made["A"]) as phone:
        assert 'id="seq"' in phone.recv(timeout=30)
    flood = [_handshake(server, matches[n % 2]["code"], None) for n in range(FLOOD)]
    mine = _handshake(server, made["code"], made["A"])
    try:
        order = _first_frames_in_order([*flood, mine], seconds=120)
        assert mine in order
        assert order.index(mine) < FLOOD // 2, order.index(mine)
    finally:
        for sock in (*flood, mine):
            sock.close()
    assert "Traceback" not in server.log_text()
