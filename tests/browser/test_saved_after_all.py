"""A tap given up on that landed all the same (issue 17's "saved after
all"): its answers were lost on the way back (the Wi-Fi dropped them) while
the socket stayed up, so the page moved on by its pushes and the form the
player typed in stayed where it was. Once the phone learns the tap landed,
the text typed for it goes from the form, as after any tap taken: a note
still typed there reads as not sent, and invites sealing it twice.
"""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from tests.scale.servers import read_sqlite

from .pages import NOT_SAVED, SAVED_AFTER_ALL, action_ids, open_phone, playing

pytestmark = pytest.mark.browser

SEAL_A_NOTE = {"en": "Seal a note", "es": "Sellar una nota"}


@pytest.mark.parametrize("lang", ["en", "es"])
def test_a_note_saved_after_all_leaves_its_form_empty(server, phone, lang):
    database = server.env["SQLITE_PATH"]
    alice, _bob, _ids = playing(server.url)
    page = open_phone(phone, alice, server.url, lang)
    notes = page.locator("#blk-seat_A li.secret")
    before = notes.count()
    sent = action_ids(page, "SealNote")

    def lose_the_answer(route):
        route.fetch()  # the server seals the note (once: the same id each send)
        route.abort("internetdisconnected")

    page.route(re.compile(r".*/act/SealNote/$"), lose_the_answer)
    page.locator("summary", has_text=SEAL_A_NOTE[lang]).click()
    form = page.locator("form[hx-post$='/act/SealNote/']")
    form.locator("input[name=label]").fill("Data Tracker")
    form.locator("textarea[name=text]").fill("the Fusilier")
    form.locator("button:not([type=button])").click()
    expect(page.locator("#unsent")).to_contain_text(NOT_SAVED[lang], timeout=20_000)
    expect(page.locator("#saved-after-all")).to_have_text(SAVED_AFTER_ALL[lang], timeout=10_000)
    expect(page.locator("#unsent")).to_be_hidden()
    expect(notes).to_have_count(before + 1)
    # The form is the one typed in: the pushes changed its block's parts only.
    assert form.evaluate("f => f.isConnected")
    expect(form.locator("input[name=label]")).to_have_value("")
    expect(form.locator("textarea[name=text]")).to_have_value("")
    rows = [r for r in read_sqlite(database, alice.code)[1] if r.action_id == sent[0]]
    assert [r.kind for r in rows] == ["SecretsSealed"]
    assert len(set(sent)) == 1, sent
