"""The embedded default (one SQLite file, WAL, IMMEDIATE transactions) under
two real server processes writing at once, and under kill -9.

Two daphne processes share one file database: each runs the views on its own
thread, so two writers really do meet at SQLite's write lock. Phones are plain
HTTP clients (session and CSRF cookies, the htmx header) on 127.0.0.1.
"""

from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor

import pytest

from tests.scale.servers import (
    LiveServer,
    events_by_action,
    hammer,
    manage,
    read_sqlite,
    seat_players,
    send_note,
    server_env,
    to_deployment,
    verify_log,
    wait_for,
)

LOCKED = "database is locked"


@pytest.fixture(scope="module")
def sqlite_pair(tmp_path_factory):
    """Two daphne processes on one migrated SQLite file."""
    tmp = tmp_path_factory.mktemp("sqlite-pair")
    env = server_env(tmp)
    manage(env, "migrate", "--noinput", "-v0")
    servers = [LiveServer(env, tmp / f"daphne-{n}.log") for n in (1, 2)]
    try:
        for server in servers:
            server.start()
        yield tmp / "db.sqlite3", servers
    finally:
        for server in servers:
            server.stop()


def test_two_processes_writing_one_sqlite_file_never_show_database_is_locked(sqlite_pair):
    path, (one, two) = sqlite_pair
    alice, bob = seat_players(one.url)
    to_deployment(alice, bob)
    # Each player on both processes at once, plus a double tap that reaches
    # both processes with the same action ids at the same moment.
    phones = [
        (alice, alice.browser.clone(one.url), "a1"),
        (alice, alice.browser.clone(two.url), "a2"),
        (bob, bob.browser.clone(one.url), "b1"),
        (bob, bob.browser.clone(two.url), "b2"),
        (alice, alice.browser.clone(one.url), "twin"),
        (alice, alice.browser.clone(two.url), "twin"),
    ]
    with ThreadPoolExecutor(len(phones)) as pool:
        runs = pool.map(
            lambda p: hammer(p[0], p[1], f"{p[2]}-{alice.code}", count=30, seconds=120), phones
        )
        sent = [result for run in runs for result in run]

    problems = [s for s in sent if s.outcome != "ok"]
    assert not problems, problems[:5]
    assert not any(LOCKED in s.detail for s in sent)
    for server in (one, two):
        assert LOCKED not in server.log_text()
        assert "Traceback" not in server.log_text()
    match, rows = read_sqlite(path, alice.code)
    verify_log(match, rows)
    seen = events_by_action(rows)
    acknowledged = {s.action_id for s in sent}
    assert len(acknowledged) == 30 * 5
    assert {a: len(seqs) for a, seqs in seen.items() if a in acknowledged} == dict.fromkeys(
        acknowledged, 1
    )


def test_kill_9_mid_burst_on_sqlite_keeps_every_acknowledged_action_once(sqlite_pair):
    path, (one, two) = sqlite_pair
    alice, bob = seat_players(two.url)
    to_deployment(alice, bob)
    phones = [
        (alice, alice.browser.clone(one.url), "a1"),
        (bob, bob.browser.clone(one.url), "b1"),
        (alice, alice.browser.clone(two.url), "a2"),
        (bob, bob.browser.clone(two.url), "b2"),
    ]
    before = read_sqlite(path, alice.code)[0].seq
    with ThreadPoolExecutor(len(phones)) as pool:
        runs = [
            pool.submit(hammer, p, b, f"{tag}-{alice.code}", count=50, seconds=15)
            for p, b, tag in phones
        ]
        # Let the burst get going, then kill the first process mid-request.
        wait_for(lambda: read_sqlite(path, alice.code)[0].seq >= before + 20, seconds=15)
        one.kill()
        sent = [result for run in runs for result in run.result(timeout=60)]
    one.start()

    lost_on_one = [s for s in sent if s.outcome == "lost"]
    assert lost_on_one, "the kill did not land mid-burst"
    assert all(s.outcome in ("ok", "lost") for s in sent), [
        s for s in sent if s.outcome == "refused"
    ][:3]
    match, rows = read_sqlite(path, alice.code)
    verify_log(match, rows)
    seen = events_by_action(rows)
    for s in sent:
        if s.outcome == "ok":
            assert len(seen.get(s.action_id, [])) == 1, s
        else:
            assert len(seen.get(s.action_id, [])) <= 1, s

    # The phone retries what it never heard back about, with the same ids,
    # against the restarted server: each lands exactly once in the end.
    for s in lost_on_one:
        player = alice if s.action_id.startswith("a") else bob
        retried = send_note(player, player.browser.clone(one.url), s.action_id)
        assert retried.outcome == "ok", retried
    match, rows = read_sqlite(path, alice.code)
    verify_log(match, rows)
    seen = events_by_action(rows)
    assert all(len(seen[s.action_id]) == 1 for s in sent)
    assert LOCKED not in one.log_text() + two.log_text()
