"""When daphne's websocket protocol answers a ping itself
(tracker/fast_pongs.py): only on an open socket (a socket that is closing
gets no frame written to it), only while the socket is not muted (daphne
mutes one whose app has not accepted it yet: its frames go to daphne as
before), and a ping it answered goes no further (the consumer would answer
it a second time). Every frame counts against the socket's budget: past
it, the socket is closed with 4429 and nothing more it sends is handled."""

from __future__ import annotations

from types import SimpleNamespace

import pytest
from daphne.ws_protocol import WebSocketProtocol

from tracker.fast_pongs import PongingProtocol

PING = b'{"ping": 7}'
PONG = '{"pong": 7}'


@pytest.fixture
def socket(monkeypatch):
    """A PongingProtocol whose consumer has handed its heartbeat over,
    recording what it writes and what it passes on to daphne."""
    passed_on = []
    monkeypatch.setattr(
        WebSocketProtocol, "onMessage", lambda self, payload, binary: passed_on.append(payload)
    )
    protocol = PongingProtocol.__new__(PongingProtocol)
    protocol.pongs = SimpleNamespace(
        heartbeat=SimpleNamespace(pong_for=lambda text: PONG if '"ping"' in text else None)
    )
    protocol.muted = False
    protocol.state = protocol.STATE_OPEN
    protocol.last_ping = 0
    protocol.sent = []
    protocol.sendMessage = protocol.sent.append
    protocol.passed_on = passed_on
    protocol.closes = []
    protocol.sendClose = lambda code=None, reason=None: protocol.closes.append(code)
    protocol.transport = SimpleNamespace(
        lost=[],
        paused=[],
        getPeer=lambda: "peer",
        loseConnection=lambda: protocol.transport.lost.append(1),
        pauseProducing=lambda: protocol.transport.paused.append(1),
    )
    return protocol


def test_a_ping_on_an_open_socket_is_answered_once_and_goes_no_further(socket):
    socket.onMessage(PING, False)
    assert socket.sent == [PONG.encode()]
    assert socket.passed_on == []
    assert socket.last_ping > 0  # the phone was heard


def test_a_ping_on_a_closing_socket_gets_no_pong(socket):
    socket.state = socket.STATE_CLOSING
    socket.onMessage(PING, False)
    assert socket.sent == []


def test_a_ping_on_a_muted_socket_is_left_to_daphne(socket):
    socket.muted = True
    socket.onMessage(PING, False)
    assert socket.sent == []
    assert socket.passed_on == [PING]


def test_any_other_frame_reaches_daphne(socket):
    socket.onMessage(b'{"resync": 1}', False)
    assert socket.sent == [] and socket.passed_on == [b'{"resync": 1}']


def test_frames_past_the_budget_close_the_socket_and_go_no_further(socket, monkeypatch):
    monkeypatch.setattr(PongingProtocol, "frame_burst", 5)
    monkeypatch.setattr(PongingProtocol, "frames_per_second", 0.001)
    for _ in range(3):
        socket.onMessage(PING, False)
    for _ in range(2):
        socket.onMessage(b'{"resync": true}', False)
    assert len(socket.sent) == 3 and len(socket.passed_on) == 2
    assert socket.closes == [] and socket.transport.paused == []
    socket.onMessage(PING, False)
    socket.onMessage(b'{"resync": true}', False)
    # Closed with its code, and read no more: autobahn drops the connection
    # when the close handshake's answer (never read) has not come. Not lost
    # at once, which with the flood unread is a reset that could beat the
    # close frame to the client.
    assert socket.closes == [4429] and socket.transport.paused == [1]
    assert socket.transport.lost == []
    assert len(socket.sent) == 3 and len(socket.passed_on) == 2


def test_a_socket_already_closing_past_its_budget_is_dropped(socket, monkeypatch):
    monkeypatch.setattr(PongingProtocol, "frame_burst", 1)
    monkeypatch.setattr(PongingProtocol, "frames_per_second", 0.001)
    socket.onMessage(b'{"resync": true}', False)
    socket.state = socket.STATE_CLOSING
    socket.onMessage(b'{"resync": true}', False)
    assert socket.closes == [] and socket.transport.lost == [1]
    assert socket.transport.paused == [1] and len(socket.passed_on) == 1


def test_the_budget_refills_at_its_rate(socket, monkeypatch):
    clock = [1000.0]
    monkeypatch.setattr("tracker.fast_pongs.time.monotonic", lambda: clock[0])
    monkeypatch.setattr(PongingProtocol, "frame_burst", 2)
    monkeypatch.setattr(PongingProtocol, "frames_per_second", 1.0)
    for _ in range(10):  # one ping a second, as app.js: never closed
        socket.onMessage(PING, False)
        socket.onMessage(PING, False)
        clock[0] += 2.0
    assert socket.closes == [] and len(socket.sent) == 20
    socket.onMessage(PING, False)
    socket.onMessage(PING, False)
    socket.onMessage(PING, False)  # three within the same moment: past a burst of 2
    assert socket.closes == [4429]
