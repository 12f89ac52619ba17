"""Which connection makes room for a new one (tracker/front_door.py, issue
22): of an address's connections waiting for a request, the one that has
waited longest, and only that one."""

from __future__ import annotations

from types import SimpleNamespace

from tracker.front_door import Connections, Limits


class Waiting:
    """A connection that has waited for its request since `since`."""

    def __init__(self, since: float):
        self.since = since
        self.evicted = False
        self.address = "venue"
        self.transport = SimpleNamespace(aborted=False)
        self.transport.abortConnection = lambda: setattr(self.transport, "aborted", True)

    def evictable_since(self):
        return None if self.evicted else self.since


def test_the_connection_waiting_longest_is_the_one_closed():
    limits = Limits(4, 2, 1024, 10, 30, 60)
    connections = Connections(SimpleNamespace(), limits)
    old, new = Waiting(since=10.0), Waiting(since=20.0)
    connections.by_address = {"venue": {old, new}}
    connections.count = 2
    assert connections._evict_from("venue")
    assert old.evicted and old.transport.aborted
    assert not new.evicted and not new.transport.aborted
    assert connections.by_address == {"venue": {new}} and connections.count == 1
