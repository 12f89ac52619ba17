"""With REDIS_URL, a process keeps its connections to Redis open across
requests (tracker/redis_pool.py): each page load reads its session and its
counters from the Redis cache, and used to open a connection of its own for
them (issue 18: 51 connections for 50 page loads), a TCP handshake and
Redis's own on every request."""

from __future__ import annotations

import pytest
import redis

from tests.scale.servers import Browser, LiveServer, manage, server_env

pytestmark = pytest.mark.scale

LOADS = 40


def _connections_received(url: str) -> int:
    client = redis.Redis.from_url(url)
    try:
        return int(client.info("stats")["total_connections_received"])
    finally:
        client.close()


def test_page_loads_reuse_the_processes_redis_connections(scratch_redis, tmp_path):
    redis_url, _client = scratch_redis
    env = server_env(tmp_path, REDIS_URL=redis_url)
    manage(env, "migrate", "--noinput", "-v0")
    server = LiveServer(env, tmp_path / "daphne.log")
    server.start()
    try:
        phone = Browser(server.url)
        assert phone.get("/").status == 200  # the process's first connections
        # A session key of the right shape: each load looks it up in Redis.
        cookie = {"Cookie": "sessionid=" + "a" * 32}
        before = _connections_received(redis_url)
        statuses = {phone.get("/", headers=cookie).status for _ in range(LOADS)}
        opened = _connections_received(redis_url) - before - 1  # our own count's
    finally:
        server.stop()
    assert statuses == {200}
    # A few at most (a thread's first use; other clients of this Redis in
    # the meantime would add theirs), never one per load.
    assert opened < LOADS / 4, f"{opened} connections to Redis for {LOADS} page loads"
    assert "Traceback" not in server.log_text()
