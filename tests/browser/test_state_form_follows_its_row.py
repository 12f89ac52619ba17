"""Issue 18: the State form open on a phone follows the row it was opened
for. The same player set that trooper's state meanwhile on another device
(a tablet beside the table): the push changes the row, and the open form
shows the new state, so the player's next Set starts from what is true and
does not silently undo the change made on the other device.

One device in Spanish and one in English, either way round.
"""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from .pages import open_phone, open_state, playing

pytestmark = pytest.mark.browser


def token_box(dialog, value):
    return dialog.locator(f"input[type=checkbox][name=tokens][value={value}]")


@pytest.mark.parametrize("lang, other", [("en", "es"), ("es", "en")])
def test_an_open_state_form_shows_a_change_made_on_another_device(served, phone, lang, other):
    alice_http, _bob_http, ids = playing(served.url)
    row = f"#trooper-{ids['Kaplan']}"
    alice = open_phone(phone, alice_http, served.url, lang)
    tablet = open_phone(phone, alice_http, served.url, other)  # the same seat

    dialog = open_state(alice, row)
    prone, second = (
        dialog.locator("input[type=checkbox][name=tokens]").nth(i).get_attribute("value")
        for i in (0, 1)
    )
    expect(token_box(dialog, prone)).not_to_be_checked()

    on_tablet = open_state(tablet, row)
    token_box(on_tablet, prone).check()
    on_tablet.locator("button:not([type=button])").click()
    expect(on_tablet).to_be_hidden()

    # The push reaches the phone: its row, and the form open on it.
    expect(alice.locator(row)).to_have_attribute("data-tokens", prone)
    expect(dialog).to_be_visible()
    expect(token_box(dialog, prone)).to_be_checked()

    # The player's own change adds to it.
    token_box(dialog, second).check()
    dialog.locator("button:not([type=button])").click()
    expect(dialog).to_be_hidden()
    both = re.compile(rf"^({prone} {second}|{second} {prone})$")
    expect(alice.locator(row)).to_have_attribute("data-tokens", both)
    expect(tablet.locator(row)).to_have_attribute("data-tokens", both)
