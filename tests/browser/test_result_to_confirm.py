"""The phone asked to confirm a result shows that result beside the button.

"Ann Lee proposes this result. Is it right?" and "Confirm the result" were
on the first screen of the opponent's phone, but the numbers were not: they
were in the header's result line, which the page places after the decision
and the last lines, 400 px below the button on a 360 × 740 phone (seen at a
venue: round 3, time called, "Confirm the proposed result or dispute it").
A player could confirm numbers they had not seen. The card now says them.
"""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from .pages import action_ids, open_phone, playing
from .phone_checks import assert_no_sideways_scroll, assert_on_first_screen

pytestmark = pytest.mark.browser

NARROW = {"width": 360, "height": 740}
NUMBERS = {
    "en": "Alice 7 – 3 Bob objective points; army points alive 30 – 90.",
    "es": "Alice 7 – 3 Bob en Puntos de Objetivo; puntos de ejército supervivientes 30 – 90.",
}
QUESTION = {
    "en": "Alice proposes this result. Is it right?",
    "es": "Alice propone este resultado. ¿Es correcto?",
}


@pytest.mark.parametrize("lang", ["en", "es"])
def test_the_result_to_confirm_is_shown_with_its_buttons(server, phone, lang):
    alice_player, bob_player, _ids = playing(server.url)
    alice = open_phone(phone, alice_player, server.url, "en", viewport=NARROW)
    bob = open_phone(phone, bob_player, server.url, lang, viewport=NARROW)

    alice.locator("details.propose summary").click()
    form = alice.locator("form.result-form")
    for name, value in (("objective_a", 7), ("objective_b", 3), ("army_a", 30), ("army_b", 90)):
        form.locator(f"input[name={name}]").fill(str(value))
    form.locator("button").click()

    card = bob.locator("#result-controls")
    expect(card).to_contain_text(QUESTION[lang])
    expect(card.locator(".proposal")).to_have_text(NUMBERS[lang])
    assert_on_first_screen(bob, "#result-controls .proposal")
    assert_on_first_screen(bob, "#result-controls button.primary")
    assert_no_sideways_scroll(bob)
    # The phone that proposed reads the same numbers while it waits.
    expect(alice.locator("#result-controls .proposal")).to_have_text(NUMBERS["en"])


@pytest.mark.parametrize("lang", ["en", "es"])
def test_her_own_army_past_her_whole_list_is_not_sent(server, phone, lang):
    """Alice typed 250 army points alive for her own 30-point list (a slip
    for 25): it went to Bob, whose phone cannot know her total, and nothing
    on either phone said so. Her own box now stops at her whole list: the
    phone's number check holds the form, and the corrected numbers go."""
    alice_player, bob_player, _ids = playing(server.url)
    alice = open_phone(phone, alice_player, server.url, lang, viewport=NARROW)
    bob = open_phone(phone, bob_player, server.url, "en", viewport=NARROW)
    sent = action_ids(alice, "ProposeResult")

    alice.locator("details.propose summary").click()
    form = alice.locator("form.result-form")
    for name, value in (("objective_a", 7), ("objective_b", 3), ("army_a", 250), ("army_b", 20)):
        form.locator(f"input[name={name}]").fill(str(value))
    form.locator("button").click()
    own = form.locator("input[name=army_a]")
    assert own.evaluate("box => box.validity.rangeOverflow")
    assert own.evaluate("box => box.validationMessage")  # the phone's own words
    expect(own).to_have_value("250")  # nothing typed is lost

    own.fill("25")
    form.locator("button").click()
    expect(bob.locator("#result-controls .proposal")).to_contain_text("25 – 20")
    assert len(sent) == 1
