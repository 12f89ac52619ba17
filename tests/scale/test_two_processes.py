"""Two daphne processes on one PostgreSQL database, pushes through Redis.

Phones are real HTTP clients (and real websockets) on 127.0.0.1; every load
loop is bounded in count and in time. What must hold: every accepted action
is exactly one event, seq has no gaps or repeats, the hash chain verifies,
no Command Token count goes below 0, and a kill -9 loses nothing a phone
was told had been done.
"""

from __future__ import annotations

import contextlib
import json
import time
from concurrent.futures import ThreadPoolExecutor

import pytest
import redis
from websockets.exceptions import ConnectionClosed

from tests.scale.servers import (
    Browser,
    LiveServer,
    blocks_of,
    events_by_action,
    hammer,
    open_socket,
    read_postgres,
    seat_players,
    send_action,
    send_note,
    seq_of,
    server_env,
    to_deployment,
    verify_log,
    wait_for,
)
from tracker import rules
from tracker.rules.state import COMMAND_TOKENS_PER_GAME

pytestmark = pytest.mark.scale


def _spectate(url: str, code: str, prefix: str, count: int) -> list:
    """Someone with only the match address tries to act: refused, every time."""
    mallory = Browser(url)
    mallory.get(f"/m/{code}/")
    return [
        send_action(_Watcher(code), mallory, "SealNote", f"{prefix}-{n:04d}", label="x", text="y")
        for n in range(count)
    ]


class _Watcher:
    def __init__(self, code: str):
        self.code = code


def _on_both(players, servers) -> list[tuple]:
    """Each player's phone on each process, with an action-id prefix of its
    own (a1, a2, b1, b2...)."""
    return [
        (player, player.browser.clone(server.url), f"{player.letter.lower()}{n}-{player.code}")
        for player in players
        for n, server in enumerate(servers, 1)
    ]


def test_both_players_and_a_spectator_hammering_two_processes_lose_and_double_nothing(cluster):
    one, two = cluster.servers
    alice, bob = seat_players(one.url)
    to_deployment(alice, bob)
    code = alice.code
    players = [
        *_on_both((alice, bob), (one, two)),
        # A double tap that reaches both processes with the same ids at once.
        (bob, bob.browser.clone(one.url), f"twin-{code}"),
        (bob, bob.browser.clone(two.url), f"twin-{code}"),
    ]
    started = time.monotonic()
    with ThreadPoolExecutor(len(players) + 2) as pool:
        # 25 notes each; the 90 s only bounds a hung run (a loaded machine
        # took over 20 s for 25).
        runs = [pool.submit(hammer, p, b, prefix, 25, 90) for p, b, prefix in players]
        watchers = [
            pool.submit(_spectate, server.url, code, f"m{n}-{code}", 10)
            for n, server in enumerate((one, two))
        ]
        sent = [s for run in runs for s in run.result(timeout=120)]
        refused = [s for run in watchers for s in run.result(timeout=60)]
    elapsed = time.monotonic() - started

    assert [s for s in sent if s.outcome != "ok"] == []
    assert {s.status for s in refused} == {403}
    match, rows = read_postgres(cluster.database_url, code)
    state = verify_log(match, rows)
    seen = events_by_action(rows)
    acknowledged = {s.action_id for s in sent}
    assert len(acknowledged) == 25 * 5
    assert all(len(seen.get(action_id, [])) == 1 for action_id in acknowledged)
    assert not any(action_id.startswith("m") for action_id in seen)
    assert all(state.seat(letter).command_tokens >= 0 for letter in "AB")
    for server in (one, two):
        assert "Traceback" not in server.log_text()
    print(f"{len(sent)} actions through two processes in {elapsed:.1f} s")


def test_command_tokens_never_go_below_zero_when_both_processes_spend_at_once(cluster):
    one, two = cluster.servers
    alice, bob = seat_players(two.url)
    ids = to_deployment(alice, bob)
    for player, lieutenant in ((alice, "Kaplan"), (bob, "Fusilier")):
        reply = player.act(
            "SealDeployment", f"seal-{player.letter}-{player.code}", lieutenant=ids[lieutenant]
        )
        assert reply.error is None, reply.error

    # Alice's first Player Turn: every tap forces a Guts Roll (TM-T2), one
    # Command Token each, from both processes at once; some taps are repeats.
    def spend(server, prefix):
        browser = alice.browser.clone(server.url)
        return [
            send_action(
                alice,
                browser,
                "ForceGutsRoll",
                f"{prefix}-{n:03d}",
                trooper_id=ids["Zhanshi"],
                passed="1",
            )
            for n in range(8)
        ]

    with ThreadPoolExecutor(4) as pool:
        runs = [
            pool.submit(spend, one, f"t1-{alice.code}"),
            pool.submit(spend, two, f"t2-{alice.code}"),
            pool.submit(spend, one, f"tt-{alice.code}"),
            pool.submit(spend, two, f"tt-{alice.code}"),
        ]
        sent = [s for run in runs for s in run.result(timeout=60)]

    match, rows = read_postgres(cluster.database_url, alice.code)
    final = verify_log(match, rows)
    state, lowest = rules.replay([]), COMMAND_TOKENS_PER_GAME
    for row in rows:
        state = rules.evolve(state, rules.event_from_data(row.kind, json.loads(row.data)))
        lowest = min(lowest, state.seat("A").command_tokens)
    assert lowest == final.seat("A").command_tokens == 0
    spent = [row for row in rows if row.kind == "CommandTokenSpent"]
    assert len(spent) == COMMAND_TOKENS_PER_GAME
    accepted = {s.action_id for s in sent if s.outcome == "ok"}
    assert accepted == {row.action_id for row in spent}
    assert all("no Command Tokens left" in s.detail for s in sent if s.outcome == "refused"), {
        s.detail for s in sent if s.outcome == "refused"
    }


@contextlib.contextmanager
def _bob_watching_on_two(cluster):
    """A match in deployment, seated on the first process, and Bob's socket
    on the second: (alice, bob, his socket, its first frame)."""
    one, two = cluster.servers
    alice, bob = seat_players(one.url)
    to_deployment(alice, bob)
    with open_socket(two, bob.code, bob.browser, origin=two.url) as socket:
        first = socket.recv(timeout=5)
        assert "You: Bob" in first
        yield alice, bob, socket, first


def test_a_change_on_one_process_reaches_a_socket_on_the_other_and_resync_matches_a_fresh_load(
    cluster,
):
    one, _two = cluster.servers
    with _bob_watching_on_two(cluster) as (alice, bob, socket, first):
        reply = send_note(alice, alice.browser.clone(one.url), f"push-{alice.code}")
        assert reply.outcome == "ok"
        target = read_postgres(cluster.database_url, alice.code)[0].seq
        deadline = time.monotonic() + 10
        frame = first
        while seq_of(frame) < target:
            frame = socket.recv(timeout=max(0.1, deadline - time.monotonic()))
        assert seq_of(frame) == target
        socket.send(json.dumps({"resync": True}))
        full = socket.recv(timeout=5)
    page = bob.browser.clone(one.url).get(f"/m/{bob.code}/").body
    assert (seq_of(full), blocks_of(full)) == (seq_of(page), blocks_of(page))
    assert len(blocks_of(page)) == 6  # header, controls, recent, the two seats, the log


def test_kill_9_of_one_process_mid_burst_keeps_every_acknowledged_action_once(cluster):
    one, two = cluster.servers
    alice, bob = seat_players(two.url)
    to_deployment(alice, bob)
    code = alice.code
    phones = _on_both((alice, bob), (one, two))
    before = read_postgres(cluster.database_url, code)[0].seq
    # Bob's phone also watches through a socket on the process about to die.
    with open_socket(one, code, bob.browser, origin=one.url) as watching:
        assert "You: Bob" in watching.recv(timeout=5)
        with ThreadPoolExecutor(len(phones)) as pool:
            runs = [pool.submit(hammer, p, b, prefix, 40, 15) for p, b, prefix in phones]
            wait_for(lambda: read_postgres(cluster.database_url, code)[0].seq >= before + 20, 15)
            one.kill()
            sent = [s for run in runs for s in run.result(timeout=60)]
        # The socket dropped without a close frame: the browser sees 1006,
        # which the htmx ws extension reconnects on.
        with pytest.raises(ConnectionClosed) as dropped:
            for _ in range(1000):
                watching.recv(timeout=10)
        assert dropped.value.rcvd is None
    one.start()

    lost = [s for s in sent if s.outcome == "lost"]
    assert lost, "the kill did not land mid-burst"
    assert [s for s in sent if s.outcome == "refused"] == []
    match, rows = read_postgres(cluster.database_url, code)
    verify_log(match, rows)
    seen = events_by_action(rows)
    for s in sent:
        # Acknowledged: there exactly once. Lost in the kill: at most once.
        assert len(seen.get(s.action_id, [])) == 1 or (
            s.outcome == "lost" and s.action_id not in seen
        ), s
    # The survivor kept serving while the other one was dead.
    assert any(s.outcome == "ok" and s.action_id.startswith(("a2", "b2")) for s in sent)

    # The phones retry what they never heard back about, against the restarted
    # process: each lands exactly once in the end.
    for s in lost:
        player = alice if s.action_id.startswith("a") else bob
        assert send_note(player, player.browser.clone(one.url), s.action_id).outcome == "ok"
    match, rows = read_postgres(cluster.database_url, code)
    verify_log(match, rows)
    seen = events_by_action(rows)
    assert all(len(seen[s.action_id]) == 1 for s in sent)
    # Reconnecting (here to the survivor) shows exactly what a fresh load shows.
    with open_socket(two, code, bob.browser, origin=two.url) as socket:
        frame = socket.recv(timeout=5)
    page = bob.browser.clone(one.url).get(f"/m/{code}/").body
    assert (seq_of(frame), blocks_of(frame)) == (seq_of(page), blocks_of(page))
    assert seq_of(page) == len(rows)


def test_a_burst_of_parallel_wrong_pins_gets_no_more_checks_than_the_seats_budget(cluster):
    # Issue 22: each try takes a unit of the seat's budget in one UPDATE
    # before its PIN is checked, so 12 guesses at once on two processes get
    # exactly SEAT_PIN_BUDGET (4) checks; the rest are refused unchecked.
    one, two = cluster.servers
    alice, _bob = seat_players(one.url, pin="582914")
    path = f"/m/{alice.code}/s/{alice.seat_token}/"
    guessers = [Browser((one, two)[n % 2].url) for n in range(12)]
    for guesser in guessers:
        guesser.get(path)
    with ThreadPoolExecutor(max_workers=12) as pool:
        statuses = list(
            pool.map(
                lambda pair: pair[1].post(path, {"pin": f"{pair[0]:06d}"}, htmx=False).status,
                enumerate(guessers),
            )
        )
    assert sorted(statuses) == [403] * 4 + [429] * 8
    assert "You: Alice" in alice.page()


def test_wrong_pins_and_wrong_links_are_counted_across_both_processes(cluster):
    # SEAT_PIN_BUDGET and GUESS_LIMIT are 4 here. A seat's wrong PINs are
    # counted on its row in the database (issue 22), wrong links per address
    # in Redis: neither lives in one process.
    one, two = cluster.servers
    alice, _bob = seat_players(one.url, pin="582914")
    path = f"/m/{alice.code}/s/{alice.seat_token}/"
    try:
        statuses = []
        for n in range(6):
            mallory = Browser((one, two)[n % 2].url)
            mallory.get(path)
            statuses.append(mallory.post(path, {"pin": f"{n:06d}"}, htmx=False).status)
        assert statuses == [403, 403, 403, 403, 429, 429]
        right = Browser(two.url)
        right.get(path)
        assert right.post(path, {"pin": "582914"}, htmx=False).status == 429
        links = [
            Browser((one, two)[n % 2].url).get(f"/m/{alice.code}/s/guess{n:040d}/").status
            for n in range(6)
        ]
        assert links == [404, 404, 404, 404, 429, 429]
    finally:
        # Every phone here is 127.0.0.1: leave no exhausted window behind.
        client = redis.Redis.from_url(cluster.redis_url)
        for key in client.scan_iter("*guess:*"):
            client.delete(key)
        client.close()


def test_a_process_at_capacity_answers_busy_tap_again_as_one_process_does(cluster):
    """Issue 18: past its threads and queue, a process of a scaled-out
    tracker sheds a tap exactly as the embedded one does
    (tests/web/test_busy.py): 503, Retry-After: 1 (app.js then sends it again
    by itself, with the same action id) and "busy, tap again" in the phone's
    language; each tap sent again counts once, whichever process takes it."""
    from django.utils import translation

    from tracker.busy import busy_body

    env = server_env(
        cluster.tmp,
        DATABASE_URL=cluster.database_url,
        REDIS_URL=cluster.redis_url,
        HTTP_THREADS="1",
        HTTP_QUEUE="0",
    )
    small = LiveServer(env, cluster.tmp / "daphne-small.log").start()
    try:
        one, _two = cluster.servers
        alice, bob = seat_players(one.url)
        to_deployment(alice, bob)
        code = alice.code

        def note(server, n: int):
            """Seat A seals note n on `server`, as app.js sends a tap (again)."""
            browser = alice.browser.clone(server.url)
            if browser.cookie("csrftoken") is None:
                browser.get("/")  # the CSRF cookie a page load gives
            headers = {
                "X-CSRFToken": browser.cookie("csrftoken") or "",
                "HX-Request": "true",
                "Accept-Language": "es",
            }
            data = {"action_id": f"cap-{n:02d}-{code}", "label": "Objective", "text": f"note {n}"}
            return n, browser.request("POST", f"/m/{code}/act/SealNote/", data, headers)

        with ThreadPoolExecutor(16) as pool:
            answers = list(pool.map(lambda n: note(small, n), range(16)))
        busy = [n for n, reply in answers if reply.status == 503]
        assert busy, [reply.status for _n, reply in answers]  # one thread, no queue
        assert {reply.status for _n, reply in answers} <= {200, 503}
        with translation.override("es"):
            expected = busy_body(htmx=True)
        for n, reply in answers:
            if n in busy:
                assert reply.body == expected
                assert reply.headers["Retry-After"] == "1"
            else:
                assert reply.error is None, reply.error
        # Every tap sent again with its id, as app.js does after Retry-After
        # (here to the other process): each lands once.
        for n in range(16):
            _n, again = note(one, n)
            assert again.status == 200 and again.error is None, again.body[:300]
        match, rows = read_postgres(cluster.database_url, code)
        verify_log(match, rows)
        seen = events_by_action(rows)
        assert all(len(seen[f"cap-{n:02d}-{code}"]) == 1 for n in range(16))
        assert "Traceback" not in small.log_text()
    finally:
        small.stop()


def _cut_redis_connections(redis_url: str) -> int:
    """Close every connection to Redis on the cluster's database number (the
    servers' publishing and subscribing ones among them), as a Redis restart
    or a dropped link does; ours, which asks, is spared. How many were cut."""
    client = redis.Redis.from_url(redis_url)
    try:
        number = client.connection_pool.connection_kwargs.get("db", 0)
        mine = client.client_id()
        cut = [
            c["id"] for c in client.client_list() if int(c["db"]) == number and int(c["id"]) != mine
        ]
        for ident in cut:
            client.client_kill_filter(_id=ident)
        return len(cut)
    finally:
        client.close()


def _follow(socket, target: int, seconds: float, resync: bool) -> tuple[int, list[str]]:
    """Read `socket` as app.js does until a frame at seq `target` or later:
    a ping a second, and (if `resync`) a resync once a pong says the match
    has a seq the phone lacks. The seq reached, and how it came."""
    shown, how = 0, []
    deadline = time.monotonic() + seconds
    last_ping = 0.0
    while shown < target and time.monotonic() < deadline:
        if time.monotonic() - last_ping >= 1:
            socket.send(json.dumps({"ping": int(time.monotonic())}))
            last_ping = time.monotonic()
        try:
            frame = socket.recv(timeout=0.2)
        except TimeoutError:
            continue
        if frame.startswith("{"):
            pong = json.loads(frame)
            if resync and pong.get("seq", 0) > shown:
                socket.send(json.dumps({"resync": True}))
                how.append("resync")
            continue
        if 'id="seq"' in frame:
            shown = max(shown, seq_of(frame))
            how.append("frame")
    return shown, how


def test_pushes_cross_processes_again_after_their_redis_connections_drop(cluster):
    # Issue 18: pushes go by Redis's publish/subscribe. A Redis restart or a
    # dropped link loses what was published meanwhile (at most once, as any
    # channel layer): the phone's pong heals it. After that, the processes'
    # subscriptions are back, and the next push arrives by itself.
    one, two = cluster.servers
    with _bob_watching_on_two(cluster) as (alice, _bob, socket, first):
        shown = seq_of(first)
        # Both processes hold a subscription and have published: each has
        # its connections open when they are cut.
        assert send_note(alice, alice.browser.clone(one.url), f"warm-{alice.code}").outcome == "ok"
        shown, _how = _follow(socket, shown + 1, 10, resync=False)
        assert _cut_redis_connections(cluster.redis_url) >= 2

        reply = send_note(alice, alice.browser.clone(one.url), f"cut-{alice.code}")
        assert reply.outcome == "ok"
        target = read_postgres(cluster.database_url, alice.code)[0].seq
        reached, _how = _follow(socket, target, 15, resync=True)
        assert reached == target

        # Healed: the next change reaches Bob's socket as a push, unasked.
        time.sleep(1.5)  # the subscriber's reconnect (it retries each second)
        reply = send_note(alice, alice.browser.clone(one.url), f"after-{alice.code}")
        assert reply.outcome == "ok"
        target = read_postgres(cluster.database_url, alice.code)[0].seq
        reached, how = _follow(socket, target, 10, resync=False)
        assert (reached, how[-1:]) == (target, ["frame"])
    for server in (one, two):
        assert "Traceback" not in server.log_text()
