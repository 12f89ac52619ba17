"""A tap given up in a stall that lasts on (a venue's Wi-Fi gone for good
seconds): the phone says "not saved", puts the form back as the server has
it and asks the server for its page over HTTP, the socket being down. That
request fails too while the stall lasts. Its failure was left unhandled
(htmx.ajax's promise), an uncaught error in the page; the phone must take
it as it takes any failed request, and be Live and current once the link is
back. Served as `make run` serves it, the phone on a real faulty link
(tests/browser/netfault.py), in Spanish and in English."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from .pages import LIVE, NOT_SAVED, open_phone, open_state, playing

pytestmark = pytest.mark.browser


@pytest.mark.parametrize("lang", ["es", "en"])
def test_a_tap_given_up_in_a_long_stall_fails_its_resync_quietly(served, link, phone, lang):
    alice_http, bob_http, ids = playing(served.url)
    kaplan = ids["Kaplan"]
    alice = open_phone(phone, alice_http, link.url, lang)
    other = "en" if lang == "es" else "es"
    bob = open_phone(phone, bob_http, served.url, other)

    link.stall()
    form = open_state(alice, f"#trooper-{kaplan}")
    form.locator("input[name=tokens]").first.check()
    # The resync a give-up asks for goes over HTTP (the socket is down) and
    # fails in the stall: wait for that failure, not for a time.
    with alice.expect_event(
        "requestfailed", lambda r: "/blocks/" in r.url, timeout=30_000
    ) as failed:
        form.locator("button:not([type=button])").click()
        expect(alice.locator("#unsent")).to_contain_text(NOT_SAVED[lang], timeout=20_000)
    assert "/blocks/" in failed.value.url

    # Meanwhile Bob sets the same trooper's state on his phone.
    dialog = open_state(bob, f"#trooper-{kaplan}")
    dialog.locator("input[name=tokens]").nth(1).check()
    dialog.locator("button:not([type=button])").click()
    row = bob.locator(f"#trooper-{kaplan}")
    expect(row).to_have_attribute("data-tokens", re.compile(r"\S"))
    shown = row.get_attribute("data-tokens")

    link.restore()
    expect(alice.locator("#connection")).to_have_text(LIVE[lang])
    expect(alice.locator(f"#trooper-{kaplan}")).to_have_attribute("data-tokens", shown)
    expect(alice.locator("#unsent")).to_be_visible()
    # The phone fixture fails the test on any uncaught error in the page.
