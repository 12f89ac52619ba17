"""Attack: a venue's address filled with bodies that never finish, against
the server `make run` starts (tracker/front_door.py).

A venue is one address. One client there opened as many connections as
one address may hold (HTTP_CONNECTIONS_PER_ADDRESS, 2,048 by default),
each sending a POST's head and announcing a body it never sends. An idle
or trickled-head connection makes room for a new one, but a connection
whose body was arriving never did: every other phone of the venue had its
connection reset at once, for the body deadline's 30 s, and the client
then opened its connections again. Now, when an address has no connection
waiting for a request, the one whose body has been arriving longest (for
more than a moment: a phone's body takes far less) makes room instead.
"""

from __future__ import annotations

import contextlib
import http.client
import socket
import time

import pytest

from tests.scale.servers import HOST, LiveServer, manage, server_env

SHARE = 40  # HTTP_CONNECTIONS_PER_ADDRESS of the served app here


@pytest.fixture
def server(tmp_path):
    env = server_env(tmp_path, HTTP_CONNECTIONS_PER_ADDRESS=str(SHARE))
    manage(env, "migrate", "--noinput", "-v0")
    served = LiveServer(env, tmp_path / "serve.log").start()
    yield served
    served.stop()


def _page(server: LiveServer) -> int:
    """A phone of the same venue (the same address) opens the home page."""
    phone = http.client.HTTPConnection(HOST, server.port, timeout=10)
    try:
        phone.request("GET", "/", headers={"Accept-Language": "es"})
        return phone.getresponse().status
    finally:
        phone.close()


def test_attack_bodies_that_never_arrive_do_not_lock_out_the_venues_phones(server):
    held: list[socket.socket] = []
    head = (
        f"POST /new/ HTTP/1.1\r\nHost: {HOST}:{server.port}\r\n"
        "Content-Type: application/x-www-form-urlencoded\r\nContent-Length: 200\r\n\r\n"
        "name=slo"
    ).encode()
    try:
        for _ in range(SHARE + 5):
            with contextlib.suppress(OSError):
                sock = socket.create_connection((HOST, server.port), timeout=5)
                sock.sendall(head)
                held.append(sock)
            time.sleep(0.02)  # each head read before the next connection
        time.sleep(3)  # the bodies have been "arriving" for a while now
        assert [_page(server) for _ in range(3)] == [200, 200, 200]
    finally:
        for sock in held:
            sock.close()


def test_a_body_arriving_at_a_phones_pace_is_not_pushed_out(server):
    """With the address at its share, a new connection pushes out an idle one
    before a body that is arriving: a phone's body sent in two parts a second
    apart reaches the app whole (the 403 of a post without its CSRF token,
    which only the app answers, not a reset)."""
    body = b"name=&points_limit=x"
    idle: list[socket.socket] = []
    with socket.create_connection((HOST, server.port), timeout=10) as sock:
        sock.sendall(
            f"POST /new/ HTTP/1.1\r\nHost: {HOST}:{server.port}\r\n"
            "Content-Type: application/x-www-form-urlencoded\r\n"
            f"Content-Length: {len(body)}\r\nConnection: close\r\n\r\n".encode()
            + body[:5]
        )
        try:
            for _ in range(SHARE - 1):
                idle.append(socket.create_connection((HOST, server.port), timeout=5))
            time.sleep(0.5)
            assert [_page(server) for _ in range(3)] == [200, 200, 200]
            time.sleep(1)
            sock.sendall(body[5:])
            answer = sock.recv(65536)
        finally:
            for other in idle:
                other.close()
        assert answer.split(b"\r\n", 1)[0] == b"HTTP/1.1 403 Forbidden", answer[:200]
