"""A read that is exactly one whole ping frame is answered before autobahn's
frame parser (tracker/fast_pongs.PongingProtocol._pong_at_once, issue 18);
every other read goes through the parser as before: a ping split over two
reads, two frames in one read, a frame that is no ping or no valid text,
an unmasked frame, a socket not open or with bytes of a frame pending.
The served tests below send such reads as raw bytes on the wire."""

from __future__ import annotations

import json
import os
import time
from types import SimpleNamespace

import pytest

from tests.scale.servers import LiveServer, make_matches, manage, phone_socket, server_env
from tracker.fast_pongs import PongingProtocol

PING = b'{"ping": 7}'
PONG = '{"pong": 7, "t": 1}'


def frame(payload: bytes, mask: bytes = b"\x11\x22\x33\x44", first: int = 0x81) -> bytes:
    """A client's frame (RFC 6455 5.2): masked, payload under 126 bytes."""
    masked = bytes(byte ^ mask[i % 4] for i, byte in enumerate(payload))
    return bytes((first, 0x80 | len(payload))) + mask + masked


def server_frames(data: bytes) -> list[str]:
    """The texts of the unmasked text frames a server wrote."""
    texts = []
    while data:
        assert data[0] == 0x81, data
        size, start = data[1], 2
        if size == 126:
            size, start = int.from_bytes(data[2:4], "big"), 4
        texts.append(data[start : start + size].decode())
        data = data[start + size :]
    return texts


@pytest.fixture
def socket():
    """An open PongingProtocol whose consumer has handed its heartbeat over,
    recording what it writes and the reads it leaves to autobahn."""
    protocol = PongingProtocol.__new__(PongingProtocol)
    protocol.pongs = SimpleNamespace(
        heartbeat=SimpleNamespace(pong_for=lambda text: PONG if '"ping"' in text else None)
    )
    protocol.muted = False
    protocol.state = protocol.STATE_OPEN
    protocol.data = b""
    protocol.current_frame = None
    protocol.inside_message = False
    protocol._perMessageCompress = None
    protocol.last_ping = 0
    protocol.parsed = []
    protocol._dataReceived = protocol.parsed.append
    protocol.closes = []
    protocol.sendClose = lambda code=None, reason=None: protocol.closes.append(code)
    protocol.written = []
    protocol.transport = SimpleNamespace(
        write=protocol.written.append,
        getPeer=lambda: "peer",
        loseConnection=lambda: None,
        pauseProducing=lambda: None,
    )
    return protocol


def test_one_whole_ping_is_answered_without_the_parser(socket):
    socket.dataReceived(frame(PING))
    assert server_frames(b"".join(socket.written)) == [PONG]
    assert socket.parsed == []
    assert socket.last_ping > 0  # the phone was heard, as daphne counts it


def test_a_long_pong_is_framed_with_its_two_byte_length(socket):
    long_pong = json.dumps({"pong": "x" * 200})
    socket.pongs.heartbeat = SimpleNamespace(pong_for=lambda text: long_pong)
    socket.dataReceived(frame(PING))
    assert socket.written[0][:4] == bytes((0x81, 126)) + len(long_pong).to_bytes(2, "big")
    assert server_frames(socket.written[0]) == [long_pong]


@pytest.mark.parametrize(
    "read",
    [
        pytest.param(frame(PING)[:5], id="first-part-of-a-ping"),
        pytest.param(frame(PING) + frame(PING), id="two-pings-in-one-read"),
        pytest.param(frame(b'{"resync": true}'), id="not-a-ping"),
        pytest.param(frame(b'{"ping": "\xff"}'), id="not-utf8"),
        pytest.param(frame(PING, first=0x82), id="binary"),
        pytest.param(frame(PING, first=0x01), id="first-fragment"),
        pytest.param(frame(PING, first=0xC1), id="rsv1-set"),
        pytest.param(bytes((0x81, len(PING))) + PING, id="unmasked"),
        pytest.param(frame(b'{"ping": ' + b"1" * 70 + b"}"), id="longer-than-a-ping"),
    ],
)
def test_any_other_read_goes_to_the_parser_whole(socket, read):
    socket.dataReceived(read)
    assert socket.written == []
    assert socket.parsed == [read]


@pytest.mark.parametrize(
    "state",
    [
        {"data": b"\x81"},  # bytes of a frame read before
        {"current_frame": object()},
        {"inside_message": True},
        {"muted": True},
        {"_perMessageCompress": object()},
        {"state": PongingProtocol.STATE_CLOSING},
    ],
    ids=["pending-bytes", "frame-begun", "inside-a-message", "muted", "compressed", "closing"],
)
def test_a_socket_not_simply_open_leaves_even_a_ping_to_the_parser(socket, state):
    for name, value in state.items():
        setattr(socket, name, value)
    socket.dataReceived(frame(PING))
    assert socket.written == []
    assert socket.parsed == [frame(PING)]


def test_no_heartbeat_yet_leaves_the_ping_to_the_consumer(socket):
    socket.pongs.heartbeat = None
    socket.dataReceived(frame(PING))
    assert socket.written == [] and socket.parsed == [frame(PING)]


def test_pings_answered_at_once_count_against_the_budget(socket, monkeypatch):
    monkeypatch.setattr(PongingProtocol, "frame_burst", 2)
    monkeypatch.setattr(PongingProtocol, "frames_per_second", 0.001)
    for _ in range(3):
        socket.dataReceived(frame(PING))
    assert len(socket.written) == 2
    assert socket.closes == [4429]
    assert socket.parsed == []


# ------------------------------------------------------------ on the wire


@pytest.fixture(scope="module")
def served(tmp_path_factory):
    tmp = tmp_path_factory.mktemp("pongs-before-the-parser")
    env = server_env(tmp)
    manage(env, "migrate", "--noinput", "-v0")
    matches = make_matches(env, 1)
    server = LiveServer(env, tmp / "serve.log").start()
    yield server, matches[0]
    server.stop()


def _pongs(connection, count: int) -> list[float]:
    """The numbers the next `count` pongs echo (other frames skipped)."""
    echoed = []
    while len(echoed) < count:
        message = json.loads(connection.recv(timeout=10))
        if "pong" in message:
            echoed.append(message["pong"])
    return echoed


def test_pings_read_every_way_are_each_answered_once(served):
    server, made = served
    with phone_socket(server, made["code"], made["A"]) as connection:
        connection.recv(timeout=30)  # the first frame
        wire = connection.socket
        wire.sendall(frame(b'{"ping": 1}'))
        assert _pongs(connection, 1) == [1]
        split = frame(b'{"ping": 2}')
        wire.sendall(split[:4])
        time.sleep(0.2)  # read as two reads
        wire.sendall(split[4:])
        assert _pongs(connection, 1) == [2]
        wire.sendall(frame(b'{"ping": 3}') + frame(b'{"ping": 4}'))
        assert _pongs(connection, 2) == [3, 4]
        wire.sendall(frame(b'{"ping": 5}', mask=os.urandom(4)))
        assert _pongs(connection, 1) == [5]
        # And the socket goes on as before: a resync gets the blocks.
        wire.sendall(frame(b'{"resync": true, "h": ""}'))
        while 'id="seq"' not in (answer := connection.recv(timeout=10)):
            pass
        assert 'id="blk-seat_A"' in answer


# ------------------------------------------------ written without waiting


class Wire:
    """A TCP connection's transport as Twisted's has it (no TLS), its
    kernel taking at most `takes` bytes of a send."""

    TLS = False

    def __init__(self, takes: int = 1 << 16, pending: bytes = b""):
        self.connected, self.disconnecting, self._writeDisconnected = True, False, False
        self._tempDataBuffer = [pending] if pending else []
        self.dataBuffer, self.offset = b"", 0
        self.takes, self.sent, self.written = takes, [], []
        self.socket = SimpleNamespace(send=self.send)

    def send(self, data: bytes) -> int:
        if self.takes == 0:
            raise BlockingIOError
        self.sent.append(data[: self.takes])
        return len(self.sent[-1])

    def write(self, data: bytes) -> None:
        self.written.append(data)

    def getPeer(self):
        return "peer"


def test_a_pong_goes_on_the_socket_at_once_when_nothing_waits(socket):
    socket.transport = Wire()
    socket.dataReceived(frame(PING))
    assert server_frames(b"".join(socket.transport.sent)) == [PONG]
    assert socket.transport.written == []


def test_what_the_kernel_does_not_take_goes_through_twisted(socket):
    socket.transport = Wire(takes=3)
    socket.dataReceived(frame(PING))
    wire = socket.transport
    assert len(wire.sent[0]) == 3 and len(wire.written) == 1
    assert server_frames(wire.sent[0] + wire.written[0]) == [PONG]


def test_a_full_socket_leaves_the_pong_to_twisted_whole(socket):
    socket.transport = Wire(takes=0)
    socket.dataReceived(frame(PING))
    assert server_frames(b"".join(socket.transport.written)) == [PONG]


@pytest.mark.parametrize(
    "state",
    [
        {"_tempDataBuffer": [b"\x81\x02{}"]},  # a push not yet written: the pong goes after it
        {"dataBuffer": b"\x81\x02{}"},
        {"TLS": True},
        {"disconnecting": True},
    ],
    ids=["write-pending", "buffer-pending", "tls", "disconnecting"],
)
def test_otherwise_the_pong_waits_its_turn_in_twisted(socket, state):
    wire = socket.transport = Wire()
    for name, value in state.items():
        setattr(wire, name, value)
    socket.dataReceived(frame(PING))
    assert wire.sent == []
    assert server_frames(b"".join(wire.written)) == [PONG]
