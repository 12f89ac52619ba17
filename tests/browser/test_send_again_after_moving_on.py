"""The "not saved — send it again" bar after the player moved on, on a real
faulty link (tests/browser/netfault.py), served as `make run` serves it, in
Spanish and in English.

A venue's Wi-Fi stalls; Alice's tap is given up ("not saved"). Before, the
bar stayed up once the link was back and she had tapped on: a later tap of
hers landed, her Order ended, and "Send it again" still replayed the old
tap, spending a second Order she never meant. Now any tap answered takes
the bar down, and "Send it again" names the page the tap was made on: if
she did something else since (here, in a second tab), the tracker refuses
it unapplied, in her language (tests/web/test_send_again_moved_on.py has
the server's side)."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from .pages import LIVE, NOT_SAVED, open_phone, open_state, playing

pytestmark = pytest.mark.browser

MOVED_ON = {
    "en": "Not sent again: the match has moved on since this tap.",
    "es": "No se ha enviado otra vez: la partida ha seguido desde ese toque.",
}


def given_up_in_a_stall(link, page, trooper_id, lang):
    """A State tap (its first box) made while the link stalls, given up."""
    link.stall()
    form = open_state(page, f"#trooper-{trooper_id}")
    form.locator("input[name=tokens]").first.check()
    form.locator("button:not([type=button])").click()
    expect(page.locator("#unsent")).to_be_visible(timeout=30_000)
    expect(page.locator("#unsent")).to_contain_text(NOT_SAVED[lang])
    # Its last send's deadline (app.js's 4 s timeout, tracker/taps.py) passes
    # in the stall: a send the link then lets through is refused unapplied,
    # so the tap surely did not land (one let through in time lands, and
    # takes the bar down by itself, as it should).
    page.wait_for_timeout(4_500)


def set_first_token(page, trooper_id):
    form = open_state(page, f"#trooper-{trooper_id}")
    form.locator("input[name=tokens]").first.check()
    form.locator("button:not([type=button])").click()
    expect(page.locator(f"#trooper-{trooper_id}")).to_have_attribute(
        "data-tokens", re.compile(r"\S")
    )


@pytest.mark.parametrize("lang", ["es", "en"])
def test_a_later_tap_that_lands_takes_the_bar_down(served, link, phone, lang):
    alice_http, _bob_http, ids = playing(served.url)
    alice = open_phone(phone, alice_http, link.url, lang)
    given_up_in_a_stall(link, alice, ids["Kaplan"], lang)
    link.restore()
    expect(alice.locator("#connection")).to_have_text(LIVE[lang])
    expect(alice.locator("#unsent")).to_be_visible()
    # She moves on: Zhanshi's State, which lands.
    set_first_token(alice, ids["Zhanshi"])
    expect(alice.locator("#unsent")).to_be_hidden()
    # Kaplan's tap stays not applied: its row shows no token.
    expect(alice.locator(f"#trooper-{ids['Kaplan']}")).not_to_have_attribute(
        "data-tokens", re.compile(r"\S")
    )


@pytest.mark.parametrize("lang", ["es", "en"])
def test_send_again_after_she_tapped_on_in_another_tab_is_refused_in_her_language(
    served, link, phone, lang
):
    """Her first tab's tap is given up in the stall; she opens her seat in a
    second tab (its link fine) and plays on there. Back on the first tab, the
    bar still offers the old tap (nothing landed in that tab): sent again, it
    is refused unapplied, in her language, and the bar goes."""
    alice_http, bob_http, ids = playing(served.url)
    alice = open_phone(phone, alice_http, link.url, lang)
    bob = open_phone(phone, bob_http, served.url, "en" if lang == "es" else "es")
    given_up_in_a_stall(link, alice, ids["Kaplan"], lang)
    second_tab = open_phone(phone, alice_http, served.url, lang)
    set_first_token(second_tab, ids["Zhanshi"])
    link.restore()
    expect(alice.locator("#connection")).to_have_text(LIVE[lang])
    expect(alice.locator(f"#trooper-{ids['Zhanshi']}")).to_have_attribute(
        "data-tokens", re.compile(r"\S")
    )
    expect(alice.locator("#unsent")).to_be_visible()
    alice.locator("#resend").click()
    expect(alice.locator("#live")).to_contain_text(MOVED_ON[lang])
    expect(alice.locator("#unsent")).to_be_hidden()
    for page in (alice, bob):
        expect(page.locator(f"#trooper-{ids['Kaplan']}")).not_to_have_attribute(
            "data-tokens", re.compile(r"\S")
        )
