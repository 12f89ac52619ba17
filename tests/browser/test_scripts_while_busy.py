"""A page's scripts and styles arrive while every HTTP thread is busy and the
page loads' line is full (issue 18: a round starts with every phone opening
its match at once; tracker/static_on_loop.py).

Static files used to wait for a thread in the page loads' line, and past
its budget were answered 503 like a page load: a phone whose page had just
been served then got that page without its scripts, and it never went live.
Now they are served on the event loop, as WhiteNoise answers them, without
a thread and outside every budget.

The busy server is the real mechanism (tests/browser/test_busy_page_load.py):
the app as `make run` serves it (collected, hashed static files), one HTTP
thread held by a tap waiting for SQLite's write lock, and a page line with
no room, proven by a page load answered 503.
"""

from __future__ import annotations

import gzip
import re
import time
import urllib.error
import urllib.request

import pytest
from bs4 import BeautifulSoup
from playwright.sync_api import expect

from .make_run import start_as_make_run
from .pages import LIVE, LOCALE, patient_requests, playing, thread_held, waiting_get

pytestmark = pytest.mark.browser

CONNECTING = {"en": "Connecting…", "es": "Conectando…"}
HASHED_NAME = re.compile(r"\.[0-9a-f]{12}\.\w+$")  # collectstatic's manifest names


@pytest.fixture(scope="module")
def crowded(tmp_path_factory):
    """`make run`'s app with one HTTP thread and no room to wait for it."""
    live = start_as_make_run(
        tmp_path_factory.mktemp("scripts-busy"),
        {"HTTP_THREADS": "1", "HTTP_QUEUE": "0", "HTTP_PAGE_QUEUE": "0"},
    )
    yield live
    live.stop()


@pytest.fixture
def patient(crowded, monkeypatch):
    patient_requests(monkeypatch)
    return crowded


def static_names(html: str) -> list[str]:
    soup = BeautifulSoup(html, "lxml")
    found = [tag.get("src") or tag.get("href") for tag in soup.find_all(["script", "link"])]
    return sorted({url for url in found if url and url.startswith("/static/")})


def page_line_full(server, queued) -> None:
    """Page loads are turned away: the one GET queued behind the held
    thread fills the line (HTTP_PAGE_QUEUE 0)."""
    deadline = time.monotonic() + 20
    while not isinstance(found := waiting_get(server), int) or found != 503:
        assert time.monotonic() < deadline, f"{len(queued)} page loads waited, none shed"
        if not isinstance(found, int):
            queued.append(found)


def fetch(url: str, **headers: str) -> tuple[int, dict, bytes]:
    """One GET, as it comes: status, headers, bytes (no retry when shed)."""
    request = urllib.request.Request(url, headers=headers)  # noqa: S310 (loopback)
    try:
        with urllib.request.urlopen(request, timeout=5) as answer:  # noqa: S310
            return answer.status, dict(answer.headers), answer.read()
    except urllib.error.HTTPError as error:
        return error.code, dict(error.headers), error.read()


def test_static_files_are_served_while_page_loads_are_shed(patient):
    alice, bob, _ids = playing(patient.url)
    page = bob.browser.get(f"/m/{bob.code}/")
    assert page.status == 200
    names = static_names(page.body)
    assert any(name.endswith(".js") for name in names) and any(n.endswith(".css") for n in names)
    assert all(HASHED_NAME.search(name) for name in names), names
    before = {name: fetch(patient.url + name) for name in names}
    assert all(status == 200 for status, _h, _b in before.values())
    missing = patient.url + "/static/tracker/no-such-file.js"
    with thread_held(patient, alice) as queued:
        page_line_full(patient, queued)
        assert fetch(patient.url + f"/m/{bob.code}/")[0] == 503  # the line is full
        for name in names:
            status, headers, body = fetch(patient.url + name)
            assert (status, body) == before[name][::2], name  # as when idle
            assert _without_date(headers) == _without_date(before[name][1])
            assert "immutable" in headers["Cache-Control"]  # a hashed name
            assert headers["X-Content-Type-Options"] == "nosniff"
            # Not again for a phone that has it.
            status, _headers, body = fetch(patient.url + name, **{"If-None-Match": headers["ETag"]})
            assert (status, body) == (304, b"")
            if name.endswith((".js", ".css")):  # compressed for a phone that asks
                status, headers, body = fetch(patient.url + name, **{"Accept-Encoding": "gzip"})
                assert headers["Content-Encoding"] == "gzip"
                assert gzip.decompress(body) == before[name][2]
        # A name that is not a collected file still goes to Django, which
        # has no thread for it now.
        assert fetch(missing)[0] == 503
    # Django's 404 once the thread is free again (a moment after the hold).
    deadline = time.monotonic() + 10
    while (status := fetch(missing)[0]) == 503 and time.monotonic() < deadline:
        time.sleep(0.1)
    assert status == 404


def _without_date(headers: dict) -> dict:
    return {name: value for name, value in headers.items() if name.lower() != "date"}


@pytest.mark.parametrize("lang", ["es", "en"])
def test_a_page_served_at_a_busy_moment_gets_its_scripts_and_goes_live(patient, phone, lang):
    """The page was served just before the thread was taken; its scripts
    and styles (held back by the phone until then) come from the server
    while no page load can, so the page goes live by itself once the server
    has room. Before, they were shed with the page loads and the page
    stayed dead: no script to reconnect it."""
    alice, bob_http, _ids = playing(patient.url)
    bob = phone(LOCALE[lang])
    bob.context.add_cookies(
        [
            {"name": name, "value": bob_http.browser.cookie(name), "url": patient.url}
            for name in ("sessionid", "csrftoken")
        ]
    )
    held_back, released = [], []

    def hold_back(route):
        if released:
            route.continue_()
        else:
            held_back.append(route)

    bob.route("**/static/**", hold_back)
    statics: dict[str, int] = {}
    bob.on(
        "response",
        lambda answer: (
            statics.__setitem__(answer.url, answer.status) if "/static/" in answer.url else None
        ),
    )
    answer = bob.goto(f"{patient.url}/m/{bob_http.code}/", wait_until="commit")
    assert answer is not None and answer.status == 200
    wanted = {
        patient.url + name for name in static_names(answer.text()) if name.endswith((".js", ".css"))
    }
    deadline = time.monotonic() + 20
    while not wanted <= {route.request.url for route in held_back}:
        assert time.monotonic() < deadline, "the page never asked for its scripts"
        bob.wait_for_timeout(50)
    with thread_held(patient, alice) as queued:
        page_line_full(patient, queued)
        released.append(True)
        for route in held_back:
            route.continue_()
        # The scripts ran: htmx is there, and app.js has tried the socket
        # (which waits for the database the test holds).
        bob.wait_for_function("() => typeof htmx === 'object'")
        expect(bob.locator("#connection")).not_to_have_text(CONNECTING[lang])
        assert wanted <= set(statics), statics
        assert set(statics.values()) <= {200, 304}, statics
    expect(bob.locator("#connection")).to_have_text(LIVE[lang])
    assert bob.locator("html").get_attribute("lang") == lang
