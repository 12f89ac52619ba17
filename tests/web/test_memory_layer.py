"""The embedded channel layer (tracker/memory_layer.py): Channels' in-memory
layer, sweeping for expired messages once a second, not on every message
(issue 18), and still dropping what has expired."""

import asyncio

from channels.layers import InMemoryChannelLayer

from tests.support import in_own_loop
from tracker import memory_layer
from tracker.memory_layer import SweepingInMemoryChannelLayer


def test_many_messages_cost_one_sweep_a_second(monkeypatch):
    sweeps = []
    sweep = InMemoryChannelLayer._clean_expired
    monkeypatch.setattr(
        InMemoryChannelLayer, "_clean_expired", lambda self: sweeps.append(1) or sweep(self)
    )

    async def scenario():
        layer = SweepingInMemoryChannelLayer(expiry=60)
        channel = await layer.new_channel()
        await layer.group_add("match-1", channel)
        for n in range(50):
            await layer.group_send("match-1", {"type": "match.changed", "seq": n})
            assert (await layer.receive(channel))["seq"] == n

    in_own_loop(scenario)
    assert len(sweeps) == 1


def test_an_expired_message_is_still_dropped(monkeypatch):
    async def scenario():
        layer = SweepingInMemoryChannelLayer(expiry=0.05)
        channel = await layer.new_channel()
        await layer.send(channel, {"type": "match.changed", "seq": 1})
        await asyncio.sleep(0.1)
        await layer.send(channel, {"type": "match.changed", "seq": 2})
        monkeypatch.setattr(memory_layer, "SWEEP_EVERY_SECONDS", 0)  # a sweep is due
        return (await layer.receive(channel))["seq"]

    assert in_own_loop(scenario) == 2
