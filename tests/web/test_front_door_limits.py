"""The server's own connection limits (tracker/front_door.py, issue 22), as
they are set and as they choose a connection to close: one address holds at
most half of the connections; behind a proxy (every connection from it) no
share applies; only a connection waiting for a request (idle, or still
sending its head) is pushed out before one whose body is arriving (and that
only once it has been arriving past a moment, test_front_door_slow_bodies.py)."""

from __future__ import annotations

from types import SimpleNamespace

from tracker.front_door import BODY, BODY_GRACE, BUSY, HEAD, IDLE, GuardedChannel, Limits


def settings(**overrides):
    values = {
        "HTTP_MAX_CONNECTIONS": 100,
        "HTTP_CONNECTIONS_PER_ADDRESS": 512,
        "BEHIND_PROXY": False,
        "HTTP_MAX_BODY": 1024,
        "HTTP_HEADER_TIMEOUT": 10,
        "HTTP_BODY_TIMEOUT": 30,
        "HTTP_IDLE_TIMEOUT": 60,
    }
    return SimpleNamespace(**{**values, **overrides})


def test_one_address_holds_at_most_half_of_the_connections():
    limits = Limits.from_settings(settings(), open_files=4096)
    assert limits.max_connections == 100 and limits.per_address == 50
    assert Limits.from_settings(settings(HTTP_CONNECTIONS_PER_ADDRESS=8), 4096).per_address == 8


def test_behind_a_proxy_the_one_address_may_hold_every_connection():
    limits = Limits.from_settings(settings(BEHIND_PROXY=True), open_files=4096)
    assert limits.per_address == limits.max_connections == 100


def test_only_a_connection_waiting_for_its_request_may_be_pushed_out():
    channel = GuardedChannel()
    channel._handlingRequest = False
    evictable = {}
    for state in (IDLE, HEAD, BODY, BUSY):
        channel.state = state
        evictable[state] = channel.evictable()
    assert evictable == {IDLE: True, HEAD: True, BODY: False, BUSY: False}


def test_a_body_makes_room_only_once_it_has_been_arriving_past_its_grace(monkeypatch):
    clock = [100.0]
    monkeypatch.setattr("tracker.front_door.time.monotonic", lambda: clock[0])
    channel = GuardedChannel()
    channel._handlingRequest = False
    channel.callLater = lambda seconds, f: None
    channel._become(BODY, None)
    clock[0] += BODY_GRACE / 2
    assert channel.slow_body_since() is None  # a phone's body on its way
    clock[0] += BODY_GRACE
    assert channel.slow_body_since() == 100.0
    for state in (IDLE, HEAD, BUSY):
        channel.state = state
        assert channel.slow_body_since() is None
