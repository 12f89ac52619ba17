"""Two servers on one Redis, each on a database number of its own (two
events on one laptop's Redis, or the tests beside a benchmark), hear only
their own pushes. Redis's publish/subscribe, which carries the pushes
(issue 18), ignores database numbers; the channel names carry the number
instead (tracker.settings.redis_channel_layer). Without it, a "seq n
exists" for match 1 of one server reached the sockets of match 1 of the
other: no secret in it, but a render and a frame for nothing."""

from __future__ import annotations

import asyncio
from urllib.parse import urlsplit, urlunsplit

import pytest
from channels_redis.pubsub import RedisPubSubChannelLayer

from tests.support import in_own_loop
from tracker.settings import redis_channel_layer

pytestmark = pytest.mark.scale


def _other_number(url: str) -> str:
    parts = urlsplit(url)
    number = int(parts.path.strip("/") or "0") + 1
    return urlunsplit((parts.scheme, parts.netloc, f"/{number}", parts.query, parts.fragment))


async def _heard(url: str, other: str) -> list[int]:
    """The seqs a socket of match 1 on `url` hears when a server on `other`
    and then its own announce a change of their match 1."""
    mine = RedisPubSubChannelLayer(**redis_channel_layer(url)["CONFIG"])
    theirs = RedisPubSubChannelLayer(**redis_channel_layer(other)["CONFIG"])
    try:
        channel = await mine.new_channel()
        await mine.group_add("match-1", channel)
        await asyncio.sleep(0.3)  # a SUBSCRIBE is sent, not awaited
        await theirs.group_send("match-1", {"type": "match.changed", "seq": 99})
        await mine.group_send("match-1", {"type": "match.changed", "seq": 7})
        heard = []
        try:
            while True:
                heard.append((await asyncio.wait_for(mine.receive(channel), 1.5))["seq"])
        except TimeoutError:
            return heard
    finally:
        await mine.flush()
        await theirs.flush()


def test_servers_on_other_database_numbers_of_one_redis_hear_only_their_own(scratch_redis):
    url, _client = scratch_redis
    heard = in_own_loop(lambda: _heard(url, _other_number(url)))
    assert heard == [7]
