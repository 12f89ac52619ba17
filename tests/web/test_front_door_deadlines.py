"""The server's deadlines and body cap as a raw client meets them
(tracker/front_door.py, issue 22), on Twisted's in-memory transport with a
clock the test moves: a head trickled a byte at a time is cut at its
deadline from its first byte, a body trickled after its head at its own, a
keep-alive connection left idle after its answer at the idle deadline; a
chunked body that passes the cap, however it is cut into chunks, is
answered 413 in the phone's language and never reaches the app."""

from __future__ import annotations

from types import SimpleNamespace

import pytest
from twisted.internet.address import IPv4Address
from twisted.internet.task import Clock
from twisted.internet.testing import StringTransport

from tracker.front_door import GuardedHTTPFactory, Limits

CAP = 100
HEADER_TIMEOUT, BODY_TIMEOUT, IDLE_TIMEOUT = 10, 30, 60


class Recorder:
    """What daphne's Server is to its HTTP protocol, recording the requests
    handed to the app (tests/web/test_whole_bodies.py)."""

    proxy_forwarded_address_header = None
    root_path = ""
    request_buffer_size = 8192
    server_name = ""

    def __init__(self):
        self.requests, self.messages = [], []

    def protocol_connected(self, protocol):
        pass

    def protocol_disconnected(self, protocol):
        pass

    def log_action(self, *args):
        pass

    def create_application(self, protocol, scope):
        self.requests.append(protocol)
        return SimpleNamespace(put_nowait=self.messages.append)


def connect():
    """A raw client's connection: (server, channel, transport, clock)."""
    server, clock = Recorder(), Clock()
    factory = GuardedHTTPFactory(
        server, Limits(10, 5, CAP, HEADER_TIMEOUT, BODY_TIMEOUT, IDLE_TIMEOUT)
    )
    factory.reactor = clock
    channel = factory.buildProtocol(IPv4Address("TCP", "192.168.1.20", 50000))
    transport = StringTransport()
    channel.makeConnection(transport)
    return server, channel, transport, clock


def test_a_head_trickled_a_byte_at_a_time_is_cut_at_its_deadline_from_its_first_byte():
    """A byte every few seconds used to hold a connection for ever (Twisted's
    own timeout is reset by every byte): ours is not."""
    _, channel, transport, clock = connect()
    for byte in b"GET / HTTP/1.1\r\n":
        channel.dataReceived(bytes([byte]))
        clock.advance(HEADER_TIMEOUT / 4)
        if transport.disconnected:
            break
    assert transport.disconnected
    assert clock.seconds() <= HEADER_TIMEOUT


def test_a_body_trickled_after_its_head_is_cut_at_the_body_deadline():
    server, channel, transport, clock = connect()
    channel.dataReceived(b"POST /m/abc/act/ HTTP/1.1\r\nHost: x\r\nContent-Length: 50\r\n\r\n")
    for _ in range(10):
        channel.dataReceived(b"a")
        clock.advance(BODY_TIMEOUT / 5)
    assert transport.disconnected
    assert server.requests == []


def test_a_keep_alive_connection_left_idle_after_its_answer_is_closed():
    server, channel, transport, clock = connect()
    channel.dataReceived(b"GET / HTTP/1.1\r\nHost: x\r\n\r\n")
    [request] = server.requests
    request.handle_reply(
        {"type": "http.response.start", "status": 200, "headers": [(b"content-length", b"2")]}
    )
    request.handle_reply({"type": "http.response.body", "body": b"ok"})
    assert transport.value().endswith(b"ok") and not transport.disconnected
    clock.advance(IDLE_TIMEOUT - 1)
    assert not transport.disconnected
    clock.advance(1)
    assert transport.disconnected


def test_a_connection_that_never_sends_a_byte_is_closed_at_the_idle_deadline():
    """A silent client holds a file descriptor of the process (and its
    address's share) until the idle deadline, not longer."""
    _, _channel, transport, clock = connect()
    clock.advance(IDLE_TIMEOUT - 1)
    assert not transport.disconnected
    clock.advance(1)
    assert transport.disconnected


def chunked_post(channel, chunks: list[bytes], language: str = "en") -> None:
    channel.dataReceived(
        b"POST /m/abc/act/ HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n"
        + b"Accept-Language: %s\r\n\r\n" % language.encode()
    )
    for chunk in chunks:
        channel.dataReceived(b"%x\r\n%s\r\n" % (len(chunk), chunk))
    channel.dataReceived(b"0\r\n\r\n")


@pytest.mark.parametrize(
    "chunks",
    [[b"a" * (CAP + 1)], [b"a" * (CAP // 2)] * 3, [b"a" * 10] * 11],
    ids=["one-chunk", "halves", "small-chunks"],
)
def test_a_chunked_body_past_the_cap_is_refused_413_and_never_reaches_the_app(chunks):
    server, channel, transport, _ = connect()
    chunked_post(channel, chunks, "es")
    answer = transport.value()
    assert answer.startswith(b"HTTP/1.1 413 ")
    assert "Eso es más de lo que" in answer.decode()
    assert transport.disconnecting
    assert server.requests == []


def test_a_chunked_body_within_the_cap_reaches_the_app_whole():
    server, channel, transport, _ = connect()
    chunked_post(channel, [b"a" * 10] * 10)
    assert not transport.value()
    [_request] = server.requests
    assert b"".join(m["body"] for m in server.messages) == b"a" * CAP


@pytest.mark.parametrize("size", [CAP - 1, CAP])
def test_an_announced_body_up_to_the_cap_reaches_the_app(size):
    server, channel, transport, _ = connect()
    body = b"a" * size
    channel.dataReceived(
        b"POST /m/abc/act/ HTTP/1.1\r\nHost: x\r\nContent-Length: %d\r\n\r\n%s" % (size, body)
    )
    assert not transport.value() and not transport.disconnecting
    [_request] = server.requests
    assert b"".join(m["body"] for m in server.messages) == body


def test_an_announced_body_over_the_cap_in_the_same_packet_never_reaches_the_app():
    """A raw client sends the head and the whole body at once: the 413 is
    the only answer, the connection closes, and the app never sees it."""
    server, channel, transport, _ = connect()
    body = b"a" * (CAP + 1)
    channel.dataReceived(
        b"POST /m/abc/act/ HTTP/1.1\r\nHost: x\r\nContent-Length: %d\r\n\r\n%s" % (len(body), body)
    )
    assert transport.value().count(b"HTTP/1.1 ") == 1
    assert transport.value().startswith(b"HTTP/1.1 413 ")
    assert transport.disconnecting
    assert server.requests == []
