"""A real server and the system Chromium, driven as phones.

`server` runs `manage.py serve` (what `make run` runs: daphne with the limits
of tracker/front_door.py, HTTP and websockets on one port) in a subprocess on
a fresh, migrated SQLite database; `browser` is Chromium through Playwright;
`phone(browser)` opens a mobile context (Pixel 7 emulation).
"""

from __future__ import annotations

import gc
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

import pytest

from bench import serving
from tests.support import chromium_path, skip_or_fail
from tracker.lan import read_addresses

from .make_run import manage, start_as_make_run
from .netfault import FaultyLink

ROOT = Path(__file__).resolve().parents[2]
CHROMIUM_ARGS = [
    "--headless=new",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]


@dataclass
class Server:
    url: str
    env: dict

    def manage(self, *args: str, input_text: str | None = None) -> str:
        return manage(self.env, *args, input_text=input_text)

    def shell(self, code: str) -> str:
        """Run Python against the server's database (e.g. create an organizer)."""
        return self.manage("shell", "-c", code)


@pytest.fixture(scope="session")
def server(tmp_path_factory):
    tmp = tmp_path_factory.mktemp("live")
    port = serving.free_port()
    env = serving.environment(tmp, ALLOWED_HOSTS="127.0.0.1,localhost")
    live = Server(url=f"http://127.0.0.1:{port}", env=env)
    live.manage("migrate", "--noinput", "-v0")
    log = tmp / "daphne.log"
    try:
        process = serving.start(
            [sys.executable, "manage.py", "serve", "--host", "127.0.0.1", "--port", str(port)],
            cwd=ROOT,
            env=env,
            url=live.url + "/",
            stdout=subprocess.DEVNULL,
            stderr=open(log, "w"),  # noqa: SIM115 (lives as long as the server)
            timeout=30,
            log=log.read_text,
        )
    except RuntimeError as error:
        pytest.fail(f"the live server did not start: {error}")
    yield live
    serving.stop(process)


# Playwright's sync API runs its event loop on the test's thread and leaves it
# set as the thread's running loop while it lives, so Django refuses the ORM
# there (SynchronousOnlyOperation). Started once per module, it ends with the
# module: under pytest-xdist (`--dist loadfile`), a worker runs a web test's
# module after a browser module, which a session-long Playwright broke.
@pytest.fixture(scope="module")
def playwright_session():
    try:
        from playwright.sync_api import sync_playwright
    except ImportError:
        skip_or_fail(
            "playwright is not installed (pip install -r requirements-dev.txt)", "REQUIRE_BROWSER"
        )
    path = chromium_path()
    manager = sync_playwright().start()
    try:
        yield manager, path
    finally:
        manager.stop()
        STOPPED.append(manager)


# Playwright's sync API runs on greenlets of the test's thread; once it
# stops, its dispatcher greenlet is left in a reference cycle with ~1,000
# other objects. Left to the collector, it was collected later on whatever
# thread allocated then: twice in CI a server thread of the leak harness,
# run next in the same worker (a consumer's push render), and the worker
# died of a segmentation fault while "Garbage-collecting"; xdist then hung
# with no worker given the crashed one's tests. So it is collected here, on
# its own thread, once the test is over and pytest has let go of its
# fixtures (their teardown still holds them: pytest keeps their values, and
# the test's arguments, till then). That was not enough: on 2026-12-07 the
# leak harness crashed so again after a browser module in its worker. So
# `make test` now runs tests/browser in processes of their own, with no
# server threads of the web tests beside Playwright's greenlets.
STOPPED: list = []


def pytest_runtest_logfinish(nodeid, location):
    if STOPPED:
        STOPPED.clear()
        gc.collect()


@pytest.fixture(scope="module")
def browser(playwright_session):
    # Two cores run the server, Chromium and the tests: give slow pushes room.
    from playwright.sync_api import expect

    expect.set_options(timeout=15_000)
    manager, path = playwright_session
    instance = manager.chromium.launch(executable_path=path, args=CHROMIUM_ARGS)
    yield instance
    instance.close()


# What a phone may log as an error while it works as it should: a request
# refused or shed (htmx reports the status; Chromium, the service worker's
# script, which registers at a later load), a network fault a test made.
# Anything else htmx reports (a swap with no target, a bad swap) or any
# uncaught exception in the page fails the test that opened the phone.
EXPECTED_ERRORS = (
    "Failed to load resource",
    "WebSocket connection to",
    "Response Status Error Code",
    "htmx:responseError",
    "htmx:afterRequest",
    "htmx:sendError",
    "htmx:timeout",
    "htmx:sendAbort",
    "A bad HTTP response code (503) was received when fetching the script.",
    # The same script's fetch cut by a network fault the test made (a link
    # cut while the page registered its service worker: seen once in a
    # parallel run, where pages load more slowly).
    "An unknown error occurred when fetching the script.",
)


def _watch_errors(page, errors: list[str]) -> None:
    def logged(message) -> None:
        if message.type == "error" and not message.text.startswith(EXPECTED_ERRORS):
            errors.append(f"{page.url}: console: {message.text}")

    page.on("console", logged)
    page.on("pageerror", lambda error: errors.append(f"{page.url}: uncaught: {error}"))


@pytest.fixture
def phone(browser, playwright_session):
    """phone() -> a new Page in its own mobile context (its own cookies).
    A phone that logged an unexpected error (EXPECTED_ERRORS) fails the test."""
    manager, _path = playwright_session
    contexts = []
    errors: list[str] = []

    def open_phone(locale: str = "en-GB", viewport: dict | None = None, **options):
        device = dict(manager.devices["Pixel 7"])
        if viewport:
            device["viewport"] = viewport  # a narrower phone (issue 19: 360 px)
        context = browser.new_context(**device, locale=locale, **options)
        context.set_default_timeout(20_000)
        contexts.append(context)
        context.on("page", lambda page: _watch_errors(page, errors))
        return context.new_page()

    yield open_phone
    for context in contexts:
        context.close()
    assert errors == [], "a phone logged errors:\n" + "\n".join(errors)


@pytest.fixture(scope="module")
def served(tmp_path_factory, request):
    """The app as `make run` serves it (make_run.start_as_make_run), one
    server a test module, with its own database. A module that needs its
    server otherwise (restarted, or with settings of its own) defines its
    own `served`, which stands in for this one."""
    live = start_as_make_run(tmp_path_factory.mktemp(request.module.__name__.rpartition(".")[2]))
    yield live
    live.stop()


@pytest.fixture
def link(served):
    """A faulty link (tests/browser/netfault.py) to the test module's own
    `served` server: phones opened through link.url meet its faults."""
    proxy = FaultyLink(served.port).start()
    yield proxy
    proxy.close()


@pytest.fixture
def venue_link(served):
    """A faulty link the phones open at this machine's LAN address, as a
    phone at the venue does: plain http there, so no secure context and no
    service worker, unlike 127.0.0.1."""
    addresses = [a for a in read_addresses() if ":" not in a]
    if not addresses:
        skip_or_fail("this machine has no LAN address", "REQUIRE_BROWSER")
    proxy = FaultyLink(served.port, host=addresses[0]).start()
    yield proxy
    proxy.close()
