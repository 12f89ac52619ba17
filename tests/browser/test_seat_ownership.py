"""The host who plays (issue 22), as the phones show it, in English and
Spanish: the claim form offers a random PIN, and once the host has claimed
a seat in the browser that created the match, the host page offers no
hand-off and says why."""

import re

import pytest
from playwright.sync_api import expect

from .pages import create_match

pytestmark = pytest.mark.browser

WORDS = {
    "en-GB": {
        "take": "Take this seat",
        "player": "This browser has held a seat in this match",
        "taken": "Taken by Alice.",
    },
    "es-ES": {
        "take": "Ocupar este asiento",
        "player": "Este navegador ha ocupado un asiento en esta partida",
        "taken": "Ocupado por Alice.",
    },
}


@pytest.mark.parametrize("locale", ["en-GB", "es-ES"])
def test_a_host_who_claims_a_seat_is_offered_no_hand_off(server, phone, locale):
    words = WORDS[locale]
    bob = phone(locale)
    link_a, link_b = create_match(bob, server)
    host_page = bob.url
    # Before any claim the host page shows both seats' links (both QR codes).
    bob.goto(link_b)
    offered = bob.locator("input[name=pin]").input_value()
    assert re.fullmatch(r"\d{6}", offered), offered
    expect(bob.locator("input[name=pin]")).to_have_attribute("type", "text")
    bob.fill("input[name=name]", "Bob")
    bob.click(f"button:has-text('{words['take']}')")  # the offered PIN, kept
    expect(bob.locator("#connection")).to_have_text(re.compile(r"\S"))

    alice = phone()
    alice.goto(link_a)
    alice.fill("input[name=name]", "Alice")
    alice.click("button.primary")
    expect(alice.locator("#connection")).to_have_text("Live")

    bob.goto(host_page)
    expect(bob.locator(".seatlink").first).to_contain_text(words["taken"])
    expect(bob.locator("#host-is-player")).to_contain_text(words["player"])
    expect(bob.locator("form.hand-off")).to_have_count(0)
