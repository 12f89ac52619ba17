"""Attack: one socket floods the server `make run` starts with frames.

A phone sends one ping a second (static/tracker/app.js) and a resync now
and then. A client at the venue's address that sends frames as fast as its
link allows (pings, which daphne answers on its one event loop, or any
other small JSON object, which daphne queues for the consumer without
bound) took the whole loop: with four such sockets, other tables' phones
waited 6 to 7 s for their first frame (app.js gives up after 5 s and says
"Offline"), pages took 3 s, and the queued frames grew the server by
180 MB in half a minute, still growing once the flood had stopped.

Each socket now gets a budget of frames (SOCKET_FRAME_BURST at once,
SOCKET_FRAMES_PER_SECOND after that, tracker/fast_pongs.py): past it the
socket is closed with 4429 and nothing more of it is read. A phone that
pings and resyncs as app.js does is never closed.
"""

from __future__ import annotations

import json
import time

import pytest

from tests.scale.servers import (
    LiveServer,
    closed_code,
    make_matches,
    manage,
    phone_socket,
    server_env,
)

TOO_MANY = 4429


@pytest.fixture(scope="module")
def served(tmp_path_factory):
    tmp = tmp_path_factory.mktemp("frame-flood")
    env = server_env(tmp)
    manage(env, "migrate", "--noinput", "-v0")
    matches = make_matches(env, 2)
    server = LiveServer(env, tmp / "serve.log").start()
    yield server, matches
    server.stop()


def _flood(socket, frame: str, count: int) -> None:
    from websockets.exceptions import ConnectionClosed

    for _ in range(count):
        try:
            socket.send(frame)
        except ConnectionClosed:
            return


@pytest.mark.parametrize("frame", [json.dumps({"ping": 1}), json.dumps({"a": 1})])
def test_attack_a_socket_flooding_frames_is_closed(served, frame):
    server, matches = served
    made = matches[0]
    with phone_socket(server, made["code"], made["A"]) as socket:
        assert 'id="seq"' in socket.recv(timeout=30)
        _flood(socket, frame, 3000)
        assert closed_code(socket, 5) == TOO_MANY
    # Its table's other phone, and a new socket of the same seat, still connect.
    with phone_socket(server, made["code"], made["B"]) as other:
        assert 'id="seq"' in other.recv(timeout=30)
    with phone_socket(server, made["code"], made["A"]) as again:
        assert 'id="seq"' in again.recv(timeout=30)
    assert "Traceback" not in server.log_text()


def test_a_phone_pinging_and_resyncing_as_app_js_does_is_never_closed(served):
    server, matches = served
    made = matches[1]
    with phone_socket(server, made["code"], made["B"]) as socket:
        assert 'id="seq"' in socket.recv(timeout=30)
        # Waking up: a resync and a ping at once, a few times over.
        for number in range(5):
            socket.send(json.dumps({"resync": True, "h": ""}))
            socket.send(json.dumps({"ping": number}))
        started = time.monotonic()
        number = 100
        while time.monotonic() - started < 6:
            number += 1
            socket.send(json.dumps({"ping": number}))
            assert closed_code(socket, 0.5) is None
        socket.send(json.dumps({"ping": 7}))
        while "pong" not in (answer := socket.recv(timeout=10)) or '"pong": 7' not in answer:
            pass
