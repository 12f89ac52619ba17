"""The front door's deadlines and shares as planted faults showed them
untested (tracker/front_door.py, issue 22), each on Twisted's in-memory
transport with clocks the test moves:

- a body has the body deadline, counted from its head: a phone's upload
  still arriving past the head's deadline is not cut;
- a 413 to a client that never reads it: the socket is dropped two seconds
  later, not held until the client reads;
- with no connection limit set, the process keeps files for the database
  and logs, and never sets fewer than 32 connections;
- a connection waits for its request from its last answer: of an address's
  keep-alive connections, the one idle longest makes room, not the one
  just answered."""

from __future__ import annotations

import pytest
from twisted.internet.address import IPv4Address
from twisted.internet.task import Clock
from twisted.internet.testing import StringTransport

from tests.web.test_front_door_deadlines import (
    BODY_TIMEOUT,
    CAP,
    HEADER_TIMEOUT,
    IDLE_TIMEOUT,
    Recorder,
    connect,
)
from tests.web.test_front_door_limits import settings
from tracker.front_door import RESERVED_FILES, Connections, GuardedHTTPFactory, Limits


def test_a_body_arriving_past_the_heads_deadline_is_cut_only_at_the_body_deadline():
    server, channel, transport, clock = connect()
    channel.dataReceived(b"POST /m/abc/act/ HTTP/1.1\r\nHost: x\r\nContent-Length: 8\r\n\r\n")
    for _ in range(7):  # a byte every 4 s: 28 s, past the head's 10 s
        clock.advance(4)
        channel.dataReceived(b"a")
    assert HEADER_TIMEOUT < clock.seconds() < BODY_TIMEOUT
    assert not transport.disconnected
    # Its deadline counts from the head, not from its last byte.
    clock.advance(BODY_TIMEOUT - clock.seconds())
    assert transport.disconnected
    assert server.requests == []


def test_a_body_that_arrives_in_time_reaches_the_app():
    server, channel, transport, clock = connect()
    channel.dataReceived(b"POST /m/abc/act/ HTTP/1.1\r\nHost: x\r\nContent-Length: 2\r\n\r\n")
    clock.advance(BODY_TIMEOUT - 1)
    channel.dataReceived(b"ok")
    assert not transport.disconnected
    [_request] = server.requests


def test_a_refused_body_whose_answer_is_never_read_is_dropped_two_seconds_later():
    server, channel, transport, clock = connect()
    channel.dataReceived(
        b"POST /m/abc/act/ HTTP/1.1\r\nHost: x\r\nContent-Length: %d\r\n\r\n" % (CAP + 1)
    )
    assert transport.value().startswith(b"HTTP/1.1 413 ")
    # Closing waits for the answer to be read; a client that never reads it
    # does not keep the socket.
    assert transport.disconnecting and not transport.disconnected
    clock.advance(2)
    assert transport.disconnected
    assert server.requests == []


@pytest.mark.parametrize(
    "open_files, connections", [(4096, 4096 - RESERVED_FILES), (RESERVED_FILES + 10, 32)]
)
def test_without_a_set_limit_connections_leave_files_for_the_rest(open_files, connections):
    limits = Limits.from_settings(
        settings(HTTP_MAX_CONNECTIONS=0, HTTP_CONNECTIONS_PER_ADDRESS=2048), open_files=open_files
    )
    assert limits.max_connections == connections
    assert limits.per_address == connections // 2


def test_the_keep_alive_connection_idle_longest_makes_room_not_the_one_just_answered(
    monkeypatch,
):
    now = [0.0]
    monkeypatch.setattr("tracker.front_door.time.monotonic", lambda: now[0])
    clock = Clock()
    limits = Limits(100, 4, CAP, HEADER_TIMEOUT, BODY_TIMEOUT, IDLE_TIMEOUT)
    server = Recorder()
    guarded = GuardedHTTPFactory(server, limits)
    guarded.reactor = clock
    connections = Connections(guarded, limits)

    def open_one():
        connection = connections.buildProtocol(IPv4Address("TCP", "192.168.1.20", 50000))
        connection.makeConnection(StringTransport())
        return connection

    def answer(connection):
        connection.dataReceived(b"GET / HTTP/1.1\r\nHost: x\r\n\r\n")
        request = server.requests[-1]
        request.handle_reply(
            {"type": "http.response.start", "status": 200, "headers": [(b"content-length", b"2")]}
        )
        request.handle_reply({"type": "http.response.body", "body": b"ok"})

    opened = []
    for _ in range(4):
        opened.append(open_one())
        now[0] += 1
    # Each is answered once, in another order than they opened: each has
    # waited for its next request since its answer.
    for index in (2, 0, 3, 1):
        now[0] += 1
        answer(opened[index])
    evicted = []
    for _ in range(4):
        now[0] += 1
        before = {c for c in opened if not c.evicted}
        assert open_one() is not None
        (gone,) = before - {c for c in opened if not c.evicted}
        assert gone.transport.disconnected
        evicted.append(opened.index(gone))
    assert evicted == [2, 0, 3, 1]
    assert connections.count == 4
