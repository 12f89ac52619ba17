"""Two taps given up in one stall: the "not saved" bar offers the last one
again, and says an earlier one was lost too. It said only "your last tap
did not get through": the first tap's form showed the server's state again
and nothing told the player that tap was lost. The same tap made again
(a note's form keeps its text, so its tap repeats its action id) is no
earlier tap. On a real faulty link (tests/browser/netfault.py), served as
`make run` serves it, in Spanish and in English."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from .pages import LIVE, NOT_SAVED, open_phone, open_state, playing

pytestmark = pytest.mark.browser

EARLIER = {
    "en": "An earlier tap did not get through either: make it again.",
    "es": "Uno anterior tampoco llegó: repítelo.",
}
TOKEN = re.compile(r"\S")


def given_up(page, trooper_id, lang):
    """A State tap (its first box) in the stall, until the bar says it was
    not saved."""
    form = open_state(page, f"#trooper-{trooper_id}")
    form.locator("input[name=tokens]").first.check()
    form.locator("button:not([type=button])").click()
    expect(page.locator("#unsent")).to_be_visible(timeout=30_000)
    expect(page.locator("#unsent")).to_contain_text(NOT_SAVED[lang], use_inner_text=True)


@pytest.mark.parametrize("lang", ["es", "en"])
def test_the_bar_says_an_earlier_tap_was_lost_too(served, link, phone, lang):
    alice_http, _bob_http, ids = playing(served.url)
    kaplan, zhanshi = ids["Kaplan"], ids["Zhanshi"]
    alice = open_phone(phone, alice_http, link.url, lang)
    bar = alice.locator("#unsent")

    link.stall()
    given_up(alice, kaplan, lang)
    # One tap lost: the bar speaks of it alone.
    expect(bar).not_to_contain_text(EARLIER[lang], use_inner_text=True)
    given_up(alice, zhanshi, lang)
    expect(bar).to_contain_text(EARLIER[lang], use_inner_text=True)
    # Past the last send's deadline (as in test_send_again_after_moving_on):
    # what the link lets through once back is refused unapplied.
    alice.wait_for_timeout(4_500)

    link.restore()
    expect(alice.locator("#connection")).to_have_text(LIVE[lang])
    # Neither landed, and the bar still says so for both.
    for trooper in (kaplan, zhanshi):
        expect(alice.locator(f"#trooper-{trooper}")).not_to_have_attribute("data-tokens", TOKEN)
    expect(bar).to_contain_text(EARLIER[lang], use_inner_text=True)

    # "Send it again" sends the last one; the first is the player's to make.
    alice.locator("#resend").click()
    expect(alice.locator(f"#trooper-{zhanshi}")).to_have_attribute("data-tokens", TOKEN)
    expect(bar).to_be_hidden()
    expect(alice.locator(f"#trooper-{kaplan}")).not_to_have_attribute("data-tokens", TOKEN)


@pytest.mark.parametrize("lang", ["es", "en"])
def test_the_same_note_sealed_again_is_not_an_earlier_tap(served, link, phone, lang):
    alice_http, _bob_http, _ids = playing(served.url)
    alice = open_phone(phone, alice_http, link.url, lang)
    form = alice.locator("form[hx-post$='/act/SealNote/']")
    alice.locator("details", has=form).locator("summary").click()
    form.locator("input[name=label]").fill("DataTracker")
    form.locator("textarea[name=text]").fill("Primera nota")
    bar = alice.locator("#unsent")

    link.stall()
    for _sealed in range(2):
        # Given up: the page then asks for its blocks over HTTP (the socket
        # is down), which fails in the stall.
        with alice.expect_event("requestfailed", lambda r: "/blocks/" in r.url, timeout=40_000):
            form.locator("button:not([type=button])").click()
        expect(bar).to_contain_text(NOT_SAVED[lang], use_inner_text=True)
        expect(bar).not_to_contain_text(EARLIER[lang], use_inner_text=True)
        expect(form.locator("textarea[name=text]")).to_have_value("Primera nota")
    link.restore()
    expect(alice.locator("#connection")).to_have_text(LIVE[lang])
