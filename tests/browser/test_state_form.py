"""Issue 18: one State form for the page, not one per trooper row. A tap on
a trooper's name opens it prefilled with that trooper's state as its row
shows it; it sets the state, closes, and both phones show the change. One
phone in English and one in Spanish each time, either way round."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from tests.browser.pages import open_state
from tests.browser.phone_checks import AXE, assert_accessible, assert_tap_targets
from tests.browser.test_row_push import _match_in_play

pytestmark = pytest.mark.browser

LOCALE = {"en": "en-GB", "es": "es-ES"}
LIVE = {"en": "Live", "es": "En directo"}
WORDS = {
    "en": {"state": "State", "unconscious": "Unconscious", "prone": "Prone"},
    "es": {"state": "Estado", "unconscious": "Inconsciente", "prone": "Cuerpo a Tierra"},
}


def _phone(phone, server, code: str, session: str, lang: str):
    page = phone(LOCALE[lang])
    page.add_init_script(path=str(AXE))
    page.context.add_cookies([{"name": "sessionid", "value": session, "url": server.url}])
    page.goto(f"{server.url}/m/{code}/")
    expect(page.locator("#connection")).to_have_text(LIVE[lang])
    return page


def _shows(form, condition: str, ticked: set[str]) -> None:
    expect(form.locator("select[name=condition]")).to_have_value(condition)
    for box in form.locator("input[type=checkbox][name=tokens]").all():
        value = box.get_attribute("value")
        if value in ticked:
            expect(box).to_be_checked()
        else:
            expect(box).not_to_be_checked()


@pytest.mark.parametrize("alice_lang, bob_lang", [("en", "es"), ("es", "en")])
def test_a_rows_state_opens_the_one_form_prefilled(server, phone, alice_lang, bob_lang):
    made = _match_in_play(server)
    alice = _phone(phone, server, made["code"], made["A"], alice_lang)
    bob = _phone(phone, server, made["code"], made["B"], bob_lang)
    zhanshi = "#trooper-b0000001"  # Bob's second trooper (bench/setup_matches.army)

    # Alice sets Bob's trooper Unconscious and Prone from her phone.
    form = open_state(alice, zhanshi)
    expect(form.locator("h3")).to_contain_text(WORDS[alice_lang]["state"])
    expect(form.locator("h3")).to_contain_text("Zhanshi 1")
    _shows(form, "normal", set())
    assert_accessible(alice)  # the open dialog too
    assert_tap_targets(alice)
    form.locator("select[name=condition]").select_option("unconscious")
    form.locator("input[name=tokens][value=prone]").check()
    form.locator("button:not([type=button])").click()
    expect(form).to_be_hidden()  # closed once the server took it
    for page, lang in ((alice, alice_lang), (bob, bob_lang)):
        row = page.locator(zhanshi)
        expect(row).to_contain_text(WORDS[lang]["unconscious"])
        expect(row).to_contain_text(WORDS[lang]["prone"])

    # Another row opens the same form with its own state, and back again.
    _shows(open_state(alice, "#trooper-a0000002"), "normal", set())
    alice.locator("#state [data-close]").click()
    _shows(open_state(alice, zhanshi), "unconscious", {"prone"})
    alice.locator("#state [data-close]").click()

    # Bob's phone, pushed the row, prefills from it too; he stands it up.
    form = open_state(bob, zhanshi)
    expect(form.locator("h3")).to_contain_text(WORDS[bob_lang]["state"])
    _shows(form, "unconscious", {"prone"})
    form.locator("select[name=condition]").select_option("normal")
    form.locator("input[name=tokens][value=prone]").uncheck()
    form.locator("button:not([type=button])").click()
    expect(form).to_be_hidden()
    for page in (alice, bob):
        expect(page.locator(f"{zhanshi} .badge")).to_have_count(0)
    _shows(open_state(alice, zhanshi), "normal", set())
