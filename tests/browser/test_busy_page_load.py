"""A page load the server sheds loads again by itself (issue 18: a round
starts with every table at once).

Past the server's page budget a page load is answered 503 at once
(tracker/admission.py). The phone was left on a bare "The tracker is busy;
tap again." with nothing on the page to tap. Now the page says it loads
again by itself, offers to load it now, and does: once the server has room,
the match page is there and live, with no tap.

The busy server is the real mechanism, as tests/browser/test_link_faults.py
makes it: one HTTP thread, no room in the queues, and that thread held by a
tap waiting for SQLite's write lock, which the test holds.
"""

from __future__ import annotations

import itertools
import time

import pytest
from playwright.sync_api import expect

from .pages import LIVE, LOCALE, patient_requests, playing, thread_held, waiting_get
from .test_link_faults import start_server

pytestmark = pytest.mark.browser

BUSY = {
    "en": "The tracker is busy: this page loads again by itself in a moment.",
    "es": "La app está ocupada: esta página se volverá a cargar sola en un momento.",
}
LOAD_NOW = {"en": "Load it now", "es": "Cargarla ya"}


# Room for a page's scripts and styles to wait their turn once the server
# has a thread again (a browser opens six connections to a host); filled by
# the test while the thread is held.
PAGE_QUEUE = 8


@pytest.fixture(scope="module")
def crowded(tmp_path_factory):
    """One HTTP thread, and a short line for page loads to wait in."""
    live = start_server(
        tmp_path_factory.mktemp("crowded"),
        HTTP_THREADS="1",
        HTTP_QUEUE="0",
        HTTP_PAGE_QUEUE=str(PAGE_QUEUE),
    )
    yield live
    live.stop()


@pytest.fixture
def patient(crowded, monkeypatch):
    patient_requests(monkeypatch)
    return crowded


@pytest.mark.parametrize("lang", ["es", "en"])
def test_a_page_load_shed_at_a_busy_moment_loads_again_by_itself(patient, phone, lang):
    alice_http, bob_http, _ids = playing(patient.url)
    bob = phone(LOCALE[lang])
    bob.context.add_cookies(
        [
            {"name": name, "value": bob_http.browser.cookie(name), "url": patient.url}
            for name in ("sessionid", "csrftoken")
        ]
    )
    with thread_held(patient, alice_http) as queued:
        # Other phones' page loads fill the line behind the held thread,
        # until one more is turned away. Each its own phone (an address of
        # its own here): one client's many would give their place to Bob's
        # (tracker/admission.py), and Bob's load would wait, not be shed.
        phones = (f"127.0.0.{number}" for number in itertools.count(10))
        deadline = time.monotonic() + 20
        while (
            not isinstance(found := waiting_get(patient, source=next(phones)), int) or found != 503
        ):
            assert time.monotonic() < deadline, f"{len(queued)} page loads waited, none shed"
            if not isinstance(found, int):
                queued.append(found)
        answer = bob.goto(f"{patient.url}/m/{bob_http.code}/")
        assert answer is not None and answer.status == 503
        expect(bob.get_by_role("alert")).to_have_text(BUSY[lang])
        expect(bob.get_by_role("link", name=LOAD_NOW[lang])).to_be_visible()
        assert bob.locator("html").get_attribute("lang") == lang
        for sock in queued:  # those phones gave up: the line is empty again
            sock.close()
        queued.clear()
    # The server has room again: the page comes by itself, live, untouched.
    expect(bob.locator("#connection")).to_have_text(LIVE[lang])
    expect(bob.locator("#blk-controls")).to_be_attached()
