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


def connections_of(limits: Limits, **by_address: list[Waiting]) -> Connections:
    wrapped = SimpleNamespace(buildProtocol=lambda addr: SimpleNamespace())
    connections = Connections(wrapped, limits)
    for address, held in by_address.items():
        for connection in held:
            connection.address = address
        connections.by_address[address] = set(held)
    connections.count = sum(len(held) for held in by_address.values())
    return connections


def test_an_address_at_its_share_makes_room_before_it_opens_one_more():
    """per_address is how many one address may hold: its next connection
    pushes its longest-waiting one out (or is refused), never goes past it."""
    limits = Limits(10, 2, 1024, 10, 30, 60)
    old, new = Waiting(since=10.0), Waiting(since=20.0)
    connections = connections_of(limits, venue=[old, new])
    opened = connections.buildProtocol(SimpleNamespace(host="venue"))
    assert opened is not None and opened.address == "venue"
    assert old.evicted and old.transport.aborted and not new.evicted
    # Below its share, an address opens one more with nothing closed.
    one = Waiting(since=5.0)
    connections = connections_of(limits, home=[one])
    assert connections.buildProtocol(SimpleNamespace(host="home")) is not None
    assert not one.evicted


def test_an_address_at_its_share_makes_room_from_its_own_connections_only():
    """An address past its share never pushes out another address's
    connection, even one of an address as busy that has waited longer: its
    share is its own."""
    limits = Limits(20, 2, 1024, 10, 30, 60)
    flood = [Waiting(since=s) for s in (1.0, 2.0)]  # at its share too, and waiting longer
    mine = [Waiting(since=10.0), Waiting(since=20.0)]
    connections = connections_of(limits, flood=flood, home=mine)
    assert connections.buildProtocol(SimpleNamespace(host="home")) is not None
    assert [c.evicted for c in mine] == [True, False]
    assert not any(c.evicted for c in flood)


def test_with_every_connection_taken_the_busiest_address_makes_room():
    """At the process's limit, a new phone's connection is made room for by
    the address holding the most (a flood), not by a phone on its own."""
    limits = Limits(4, 4, 1024, 10, 30, 60)
    flood = [Waiting(since=s) for s in (30.0, 40.0, 50.0)]
    phone = Waiting(since=1.0)  # has waited longest of all
    connections = connections_of(limits, flood=flood, phone=[phone])
    opened = connections.buildProtocol(SimpleNamespace(host="newcomer"))
    assert opened is not None
    assert not phone.evicted
    assert [c.evicted for c in flood] == [True, False, False]


def test_an_address_whose_last_connection_goes_is_forgotten():
    """A venue day sees thousands of addresses come and go: one that holds no
    connection any more keeps no entry (nor counts towards the busiest)."""
    limits = Limits(4, 2, 1024, 10, 30, 60)
    gone, stays = Waiting(since=10.0), Waiting(since=20.0)
    connections = connections_of(limits, left=[gone], venue=[stays])
    assert connections._evict_from("left")
    assert connections.by_address == {"venue": {stays}} and connections.count == 1
