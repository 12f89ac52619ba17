"""PostgreSQL + Redis with two daphne server processes, on 127.0.0.1 only.

`cluster` creates a scratch PostgreSQL database (dropped afterwards), migrates
it with `manage.py migrate` in a subprocess, and starts two daphne processes
sharing it, with channels-redis and the Redis cache on a Redis database
number of their own. TRACKER_TEST_POSTGRES and TRACKER_TEST_REDIS name the
servers (CI's defaults if unset); where either is unreachable the tests skip
with the reason, or fail when REQUIRE_SCALE is set.
"""

from __future__ import annotations

import os
import secrets
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import urlsplit, urlunsplit

import pytest

from tests.scale.servers import LiveServer, manage, server_env
from tests.support import skip_or_fail

POSTGRES = "postgresql://postgres@127.0.0.1:5432/postgres"
REDIS = "redis://127.0.0.1:6379/0"
# TRACKER_SCRATCH_REDIS_DB lets two test runs on one machine keep apart; the
# workers of one run (pytest-xdist: PYTEST_XDIST_WORKER gw0, gw1...) each
# take the next number, since each empties its own before and after.
_WORKER = int(os.environ.get("PYTEST_XDIST_WORKER", "gw0").removeprefix("gw") or 0)
SCRATCH_REDIS_DB = int(os.environ.get("TRACKER_SCRATCH_REDIS_DB", "13")) + _WORKER


def _with_path(url: str, path: str) -> str:
    parts = urlsplit(url)
    return urlunsplit((parts.scheme, parts.netloc, path, parts.query, parts.fragment))


@pytest.fixture(scope="session")
def postgres_admin():
    try:
        import psycopg
    except ImportError:
        skip_or_fail("psycopg is not installed (pip install -r requirements.txt)", "REQUIRE_SCALE")
    url = os.environ.get("TRACKER_TEST_POSTGRES", POSTGRES)
    try:
        connection = psycopg.connect(url, autocommit=True, connect_timeout=3)
    except psycopg.OperationalError as error:
        skip_or_fail(f"PostgreSQL is not reachable at {url}: {error}", "REQUIRE_SCALE")
    yield url, connection
    connection.close()


@pytest.fixture(scope="session")
def scratch_redis():
    """A Redis URL on a database number of our own, emptied before and after."""
    import redis

    base = os.environ.get("TRACKER_TEST_REDIS", REDIS)
    number = SCRATCH_REDIS_DB
    if urlsplit(base).path.strip("/") == str(number):
        number += 1
    url = _with_path(base, f"/{number}")
    client = redis.Redis.from_url(url, socket_connect_timeout=3)
    try:
        client.ping()
    except redis.RedisError as error:
        skip_or_fail(f"Redis is not reachable at {base}: {error}", "REQUIRE_SCALE")
    client.flushdb()
    yield url, client
    client.flushdb()
    client.close()


@dataclass
class Cluster:
    database_url: str
    redis_url: str
    servers: list[LiveServer]
    tmp: Path


@pytest.fixture(scope="module")
def cluster(postgres_admin, scratch_redis, tmp_path_factory):
    admin_url, admin = postgres_admin
    redis_url, _redis = scratch_redis
    name = f"tracker_scale_{secrets.token_hex(5)}"
    admin.execute(f'CREATE DATABASE "{name}"')
    database_url = _with_path(admin_url, f"/{name}")
    tmp = tmp_path_factory.mktemp("cluster")
    env = server_env(
        tmp,
        DATABASE_URL=database_url,
        REDIS_URL=redis_url,
        GUESS_LIMIT="4",
        SEAT_PIN_BUDGET="4",
    )
    servers = [LiveServer(env, tmp / f"daphne-{n}.log") for n in (1, 2)]
    try:
        manage(env, "migrate", "--noinput", "-v0")
        for server in servers:
            server.start()
        yield Cluster(database_url, redis_url, servers, tmp)
    finally:
        for server in servers:
            server.stop()
        admin.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
