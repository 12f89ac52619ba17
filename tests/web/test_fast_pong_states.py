"""When daphne's websocket protocol answers a ping itself
(tracker/fast_pongs.py): only on an open socket (a socket that is closing
gets no frame written to it), only while the socket is not muted (daphne
mutes one whose app has not accepted it yet: its frames go to daphne as
before), and a ping it answered goes no further (the consumer would answer
it a second time)."""

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
