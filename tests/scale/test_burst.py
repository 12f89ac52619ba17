"""Issue 9: two server processes on PostgreSQL + Redis take a short burst of
a tournament's load (50 matches, one action per match per second, 10 s)
through the real pages and sockets of bench/load.py, with zero errors (no
500, no "busy" either at this load), zero lost and zero doubled pushes.
No timing is asserted: `make bench` measures that, open loop with app.js's
deadlines; here each phone waits for its answer (closed loop, no deadline),
so that a slow CI machine shows as fewer actions, never as an error."""

from __future__ import annotations

import asyncio
import concurrent.futures
import os

import pytest

from tests.scale.servers import make_matches, server_env

pytestmark = pytest.mark.scale

MATCHES = int(os.environ.get("BURST_MATCHES", "50"))
SECONDS = float(os.environ.get("BURST_SECONDS", "10"))


def test_a_burst_on_two_processes_loses_doubles_and_fails_nothing(cluster):
    from bench.load import run_tracker

    env = server_env(cluster.tmp, DATABASE_URL=cluster.database_url, REDIS_URL=cluster.redis_url)
    matches = make_matches(env, MATCHES)
    one, two = cluster.servers
    # Seat A's phone on one process, seat B's on the other: every push
    # crosses Redis for one of the two phones.
    # A thread of its own: an earlier test may leave an event loop running in
    # this one, and asyncio.run refuses to nest.
    with concurrent.futures.ThreadPoolExecutor(1) as pool:
        running = pool.submit(
            asyncio.run, run_tracker([one.url, two.url], matches, SECONDS, open_loop=False)
        )
        result, phones = running.result()
    logs = "\n".join(server.log_text()[-3000:] for server in cluster.servers)
    assert result.errors == [], logs
    # Every match kept its pace of one action a second (the POST is awaited,
    # so a slow server shows here as fewer actions, not as an error).
    assert result.served >= MATCHES * 2
    assert result.lost == 0, logs
    assert result.duplicated == 0, logs
    # Every phone got its pushes, and none of them is a 500 in disguise.
    assert all(p.socket.frames_per_seq for p in phones)
    for server in cluster.servers:
        assert "Traceback" not in server.log_text(), server.log_text()[-3000:]
