"""Attack: one client at a venue's address loads pages, or posts, as fast
as it can, against the server `make run` starts (tracker/known_sessions.py,
tracker/admission.py).

A venue behind one NAT is one address, and page loads were budgeted by
address (HTTP_REQUESTS_PER_ADDRESS in flight, turns taken by address): one
client there with 300 page loads in flight kept the address's budget full,
and ten seated phones of the same venue were answered "busy" for 177 of
their 180 page loads (measured). Now a phone whose session is real counts
against its own session's budget and takes its turn as itself: the
flooding client is served one page in turn with each phone.

Taps had no share per client at all (a venue's taps all come from one
address): the same client posting forms without their token (answered 403
after their turn) kept the taps' budget full, and 81 of 92 taps of those
phones were answered "busy". Now a tap that finds the budget full takes the
place of the newest waiting tap of the client with the most in flight.
"""

from __future__ import annotations

import contextlib
import http.client
import threading
import time
from http.cookies import SimpleCookie

import pytest

from tests.scale.servers import HOST, LiveServer, make_matches, manage, phone_socket, server_env

SHARE = 4  # HTTP_REQUESTS_PER_ADDRESS of the served app here


@pytest.fixture(scope="module")
def served(tmp_path_factory):
    tmp = tmp_path_factory.mktemp("page-flood")
    env = server_env(
        tmp,
        HTTP_REQUESTS_PER_ADDRESS=str(SHARE),
        HTTP_THREADS="2",
        HTTP_PAGE_THREADS="1",
        HTTP_QUEUE="4",
    )
    manage(env, "migrate", "--noinput", "-v0")
    matches = make_matches(env, 2)
    server = LiveServer(env, tmp / "serve.log").start()
    # One made once the server runs, by another process (as by another
    # server of several): not in the store when this one started.
    matches.insert(1, make_matches(env, 1)[0])
    yield server, matches
    server.stop()


def _load(server: LiveServer, path: str, session: str | None = None) -> int:
    """One page load from the venue's address: its status."""
    connection = http.client.HTTPConnection(HOST, server.port, timeout=60)
    try:
        headers = {"Cookie": f"sessionid={session}"} if session else {}
        connection.request("GET", path, headers=headers)
        response = connection.getresponse()
        response.read()
        return response.status
    finally:
        connection.close()


@contextlib.contextmanager
def _flood(server: LiveServer, path: str, connections: int = 24, method: str = "GET"):
    """Requests without a cookie (a GET, or a POST of a form without its
    token), back to back on `connections` keep-alive connections, until the
    block ends: far more than the budget in flight at every moment. Yields
    the statuses seen so far."""
    stop = threading.Event()
    seen: list[int] = []

    def run():
        while not stop.is_set():
            connection = http.client.HTTPConnection(HOST, server.port, timeout=60)
            with contextlib.suppress(OSError, http.client.HTTPException):
                while not stop.is_set():
                    body = "name=x" if method == "POST" else None
                    headers = {"Content-Type": "application/x-www-form-urlencoded"}
                    connection.request(method, path, body=body, headers=headers)
                    response = connection.getresponse()
                    response.read()
                    seen.append(response.status)
            connection.close()
            stop.wait(0.05)  # refused or cut: no busy loop on a server gone

    threads = [threading.Thread(target=run, daemon=True) for _ in range(connections)]
    for thread in threads:
        thread.start()
    try:
        # Under way: the address's share is taken (it sheds the rest). A
        # deadline, not a wait for ever: a CI run whose flood never filled
        # the share hung here until CI's own clock ran out, saying nothing.
        deadline = time.monotonic() + 60
        while 503 not in seen:
            assert time.monotonic() < deadline, (
                f"no page load shed in 60 s: {sorted(set(seen))} of {len(seen)} answers\n"
                + server.log_text()[-3000:]
            )
            stop.wait(0.05)
        yield seen
    finally:
        stop.set()
        for thread in threads:
            thread.join(timeout=60)


def test_attack_a_page_flood_from_the_venues_address_leaves_its_phones_their_pages(served):
    server, matches = served
    made = matches[0]
    page = f"/m/{made['code']}/"
    # The phones loaded their pages before (as at any table).
    assert _load(server, page, made["A"]) == 200
    assert _load(server, page, made["B"]) == 200
    with _flood(server, page):
        statuses = [_load(server, page, made[letter]) for letter in "AB" for _ in range(5)]
    assert statuses == [200] * 10
    assert "Traceback" not in server.log_text()


def test_a_phone_whose_first_load_is_during_the_flood_gets_it_once_its_socket_is_open(served):
    """A process that has not seen a session yet (another server of several
    made it after this one started) counts its page loads against the
    address until it does: the phone's socket, which no page flood holds
    up, shows the session to be real."""
    server, matches = served
    made = matches[1]
    page = f"/m/{made['code']}/"
    with _flood(server, page), phone_socket(server, made["code"], made["A"]) as socket:
        assert 'id="seq"' in socket.recv(timeout=30)
        statuses = [_load(server, page, made["A"]) for _ in range(5)]
    assert statuses == [200] * 5


def test_a_phones_first_loads_after_the_server_started_are_its_own_during_the_flood(served):
    """The laptop's server started again on the same database (the module's
    server started after its matches were made, and no request of this
    phone's reached it): it knows the phone's session from the store, so the
    phone's first page loads, with no socket open yet, count against its own
    session and not the flooded address of the venue."""
    server, matches = served
    made = matches[2]
    page = f"/m/{made['code']}/"
    with _flood(server, page):
        statuses = [_load(server, page, made["A"]) for _ in range(5)]
    assert statuses == [200] * 5
    assert "Traceback" not in server.log_text()


def _tap(server: LiveServer, code: str, session: str, csrf: str) -> int:
    """A seated phone's tap as htmx posts it: its status."""
    connection = http.client.HTTPConnection(HOST, server.port, timeout=60)
    try:
        connection.request(
            "POST",
            f"/m/{code}/act/EndTurn/",
            body="action_id=venue-tap-flood",
            headers={
                "Cookie": f"sessionid={session}; csrftoken={csrf}",
                "X-CSRFToken": csrf,
                "HX-Request": "true",
                "Content-Type": "application/x-www-form-urlencoded",
            },
        )
        response = connection.getresponse()
        response.read()
        return response.status
    finally:
        connection.close()


def _csrf_cookie(server: LiveServer, path: str, session: str) -> str:
    connection = http.client.HTTPConnection(HOST, server.port, timeout=60)
    try:
        connection.request("GET", path, headers={"Cookie": f"sessionid={session}"})
        response = connection.getresponse()
        response.read()
        cookies = SimpleCookie()
        for header in response.headers.get_all("Set-Cookie") or []:
            cookies.load(header)
        return cookies["csrftoken"].value
    finally:
        connection.close()


def test_attack_a_post_flood_from_the_venues_address_leaves_its_phones_their_taps(served):
    server, matches = served
    made = matches[0]
    page = f"/m/{made['code']}/"
    csrf = _csrf_cookie(server, page, made["A"])  # (and the phone's page loaded)
    quiet = _tap(server, made["code"], made["A"], csrf)
    assert quiet != 503
    with _flood(server, "/new/", method="POST"):
        statuses = [_tap(server, made["code"], made["A"], csrf) for _ in range(10)]
    # Each answered by the app as without the flood (never "busy").
    assert statuses == [quiet] * 10
    assert "Traceback" not in server.log_text()
