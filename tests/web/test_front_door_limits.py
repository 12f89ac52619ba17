"""The server's own connection limits (tracker/front_door.py, issue 22), as
they are set and as they choose a connection to close: one address holds at
most half of the connections; behind a proxy (every connection from it) no
share applies; only a connection waiting for a request (idle, or still
sending its head) is ever pushed out, never one whose body is arriving."""

from __future__ import annotations

from types import SimpleNamespace

from tracker.front_door import BODY, BUSY, HEAD, IDLE, GuardedChannel, Limits


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
