"""Back to the match page while the venue's Wi-Fi is down: the phone must not
show an old state of the match as if it were the current one.

Alice's phone loads the match, then Bob seals a note (pushed: her page shows
it), she opens her match list and the link breaks (a real reset through
tests/browser/netfault.py), and she taps Back. Before, the browser showed its
HTTP cache's copy of the match page as first loaded: Bob's note gone, with no
word that this was an old copy (the service worker's kept copy says so; this
one did not go through it). The match page is now never kept in the HTTP
cache (no-store, also for its sealed information): Back offers the kept copy
with its banner or the offline page. In Spanish and in English.
"""

from __future__ import annotations

import contextlib

import pytest
from playwright.sync_api import Error as PlaywrightError
from playwright.sync_api import expect

from tests.scale.servers import send_note

from .pages import LIVE, open_phone, playing

pytestmark = pytest.mark.browser


@pytest.mark.parametrize("lang", ["es", "en"])
def test_back_while_the_link_is_down_shows_no_old_match_as_current(served, venue_link, phone, lang):
    link = venue_link
    alice_http, bob_http, _ids = playing(served.url)
    alice = open_phone(phone, alice_http, link.url, lang, viewport={"width": 360, "height": 740})
    # She opens it again (her first load set the offline copy's cookie, and
    # the page varies by cookie): the load the browser keeps.
    alice.reload()
    expect(alice.locator("#connection")).to_have_text(LIVE[lang])
    bobs_secrets = alice.locator("#blk-seat_B li.secret")
    before = bobs_secrets.count()
    send_note(bob_http, bob_http.browser, "back-note-0001")
    expect(bobs_secrets).to_have_count(before + 1)

    alice.goto(link.url + "/start/")
    link.reset()
    with contextlib.suppress(PlaywrightError):  # no network: Chromium may say so
        alice.go_back()
    # A match page shown now is the service worker's kept copy, which says
    # it is one; never a copy that passes for the match as it is.
    expect(alice.locator("html:not([data-offline-copy]) #blk-seat_B")).to_have_count(0)
