"""A player typing a note when the opponent acts keeps typing (issue 18's
venue): the push swaps the whole controls block the note is in, and the
text is carried into the new block (test_venue_taps), with the keyboard's
place in it: the field keeps the focus and the caret where it was, so the
next keys go on in the note, not nowhere, with the phone's keyboard closed.

One phone in Spanish and one in English, either way round.
"""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from .pages import open_phone, playing
from .test_venue_taps import LET_IT_PASS, ORDER_COUNT_DONE, note_form

pytestmark = pytest.mark.browser


@pytest.mark.parametrize("lang", ["en", "es"])
def test_the_keys_typed_after_the_opponent_s_change_go_on_in_the_note(served, phone, lang):
    alice_http, bob_http, _ids = playing(served.url)
    other = "es" if lang == "en" else "en"
    alice = open_phone(phone, alice_http, served.url, lang)
    bob = open_phone(phone, bob_http, served.url, other)
    alice.get_by_role("button", name=ORDER_COUNT_DONE[lang]).click()
    let_pass = bob.get_by_role("button", name=LET_IT_PASS[other])
    expect(let_pass).to_be_visible()

    _details, form = note_form(alice, lang)
    text = form.locator("textarea[name=text]")
    text.click()
    alice.keyboard.type("the antenna  the bridge")
    # The caret put back between the two spaces, as a player taps there.
    alice.keyboard.press("End")
    for _ in range(len(" the bridge")):
        alice.keyboard.press("ArrowLeft")
    controls_before = alice.locator("#blk-controls").get_attribute("data-h")

    let_pass.click()
    expect(alice.locator("#blk-controls")).not_to_have_attribute("data-h", controls_before)

    _details, form = note_form(alice, lang)  # the block now shown
    text = form.locator("textarea[name=text]")
    expect(text).to_be_focused()
    alice.keyboard.type("by")
    expect(text).to_have_value("the antenna by the bridge")
