"""Issue 17: the service worker's offline copy of a match page on a faulty
link (tests/browser/netfault.py), served as `make run` serves it, at
127.0.0.1 (a secure context, so the worker runs), in Spanish and English.

- The link is cut and Alice reloads her page: she gets the kept copy, under
  its "No network" banner. Once the link is back, the copy's socket brings
  what changed and the page is the live one: the banner went too. It stayed,
  saying "No network" under "Live".
- The link stalls (no answer, no failure) and she reloads: the worker waited
  for the network as long as the stall lasted, a blank page meanwhile. Now
  it gives up after a few seconds and shows the copy."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from .pages import LIVE, open_phone, open_state, playing
from .test_offline_copy import controlled_and_kept

pytestmark = pytest.mark.browser

OFFLINE = {"en": "Offline — reconnecting…", "es": "Sin conexión — reconectando…"}


def kaplan_set_by_bob(served_url, phone, bob_http, kaplan, lang):
    """Bob, on a phone of his own with a good link, sets a token on Kaplan:
    the row Alice's copy shows is out of date."""
    bob = open_phone(phone, bob_http, served_url, "en" if lang == "es" else "es")
    dialog = open_state(bob, f"#trooper-{kaplan}")
    dialog.locator("input[name=tokens]").first.check()
    dialog.locator("button:not([type=button])").click()
    row = bob.locator(f"#trooper-{kaplan}")
    expect(row).to_have_attribute("data-tokens", re.compile(r"\S"))
    return row.get_attribute("data-tokens")


def back_and_live(alice, kaplan, tokens, lang):
    expect(alice.locator("#connection")).to_have_text(LIVE[lang])
    expect(alice.locator(f"#trooper-{kaplan}")).to_have_attribute("data-tokens", tokens)
    expect(alice.locator(".offline-copy")).to_be_hidden()


@pytest.mark.parametrize("lang", ["es", "en"])
def test_the_copy_s_banner_goes_once_the_link_is_back(served, link, phone, lang):
    alice_http, bob_http, ids = playing(served.url)
    kaplan = ids["Kaplan"]
    alice = open_phone(phone, alice_http, link.url, lang)
    match_url = alice.url
    controlled_and_kept(alice)

    link.reset()
    alice.goto(match_url)
    expect(alice.locator(".offline-copy")).to_be_visible()
    expect(alice.locator("#connection")).to_have_text(OFFLINE[lang])
    tokens = kaplan_set_by_bob(served.url, phone, bob_http, kaplan, lang)

    link.restore()
    back_and_live(alice, kaplan, tokens, lang)


@pytest.mark.parametrize("lang", ["es", "en"])
def test_a_reload_in_a_stall_shows_the_copy(served, link, phone, lang):
    alice_http, bob_http, ids = playing(served.url)
    kaplan = ids["Kaplan"]
    alice = open_phone(phone, alice_http, link.url, lang)
    match_url = alice.url
    controlled_and_kept(alice)

    link.stall()
    # The worker's wait (5 s) and the copy's load, well within the page
    # load's own 10 s: without a wait of its own, the worker waited on.
    alice.goto(match_url, timeout=10_000)
    expect(alice.locator(".offline-copy")).to_be_visible()
    tokens = kaplan_set_by_bob(served.url, phone, bob_http, kaplan, lang)

    link.restore()
    back_and_live(alice, kaplan, tokens, lang)
