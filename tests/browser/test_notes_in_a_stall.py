"""Two sealed notes in a row on a venue's Wi-Fi that stalls (a real stall,
tests/browser/netfault.py): Alice seals a note, the link stalls before its
answer comes, she types the next note and taps "Seal" again, the stall ends.
Before, the second note was thrown away: its tap was queued behind the first
and then dropped as already answered, and the text she typed was emptied as
if it had been sent. Now both notes are sealed, once each, and the form is
empty only once both are. In Spanish and in English.
"""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from .pages import LIVE, open_phone, playing
from .test_link_faults import OFFLINE

pytestmark = pytest.mark.browser


def type_note(page, label, text):
    form = page.locator("form[hx-post$='/act/SealNote/']")
    form.locator("input[name=label]").fill(label)
    form.locator("textarea[name=text]").fill(text)
    return form


@pytest.mark.parametrize("lang", ["es", "en"])
def test_the_next_note_sealed_while_the_last_is_stalled_is_sealed_too(served, link, phone, lang):
    alice_http, _bob_http, _ids = playing(served.url)
    alice = open_phone(phone, alice_http, link.url, lang, viewport={"width": 360, "height": 740})
    notes = alice.locator("#blk-seat_A li.secret")
    before = notes.count()
    alice.locator("details", has=alice.locator("form[hx-post$='/act/SealNote/']")).locator(
        "summary"
    ).click()

    link.stall()
    type_note(alice, "DataTracker", "Primera nota").locator("button:not([type=button])").click()
    expect(alice.locator("#connection")).to_have_text(OFFLINE[lang])
    form = type_note(alice, "HVT", "Segunda nota")
    form.locator("button:not([type=button])").click()
    link.restore()

    expect(alice.locator("#connection")).to_have_text(LIVE[lang])
    expect(notes).to_have_count(before + 2)
    expect(notes.filter(has_text="Primera nota")).to_have_count(1)
    expect(notes.filter(has_text="Segunda nota")).to_have_count(1)
    expect(form.locator("textarea[name=text]")).to_have_value("")
    expect(alice.locator("#unsent")).to_be_hidden()
