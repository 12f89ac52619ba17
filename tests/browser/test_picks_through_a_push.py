"""What a player picked in a form stays picked when the opponent acts (a
venue night, two new players): Bob picks his ARO, a trooper and a skill,
while Alice declares her Order's second Short Skill. The push swaps Bob's
whole controls block (the ARO card now says what she declared), and his
picks used to go back to the lists' first options, Fusilier and BS Attack:
his tap on "Declare ARO" then declared an ARO he never chose. Typed text
was carried into the new block; now the player's picks are too.

One phone in Spanish and one in English, either way round; every tap is
made on a phone's page (the match is brought to deployment over HTTP).
"""

from __future__ import annotations

from urllib.parse import urlsplit

import pytest
from playwright.sync_api import expect

from .pages import add_trooper, claim, create_match, open_phone, playing

pytestmark = pytest.mark.browser

NARROW = {"width": 360, "height": 740}


def tap(page, command, expected=None):
    """The button of the form posting `command` (and `expected`, for the
    phase ends): the same in any language."""
    form = page.locator(f"form[hx-post$='/{command}/']")
    if expected:
        form = form.filter(has=page.locator(f"input[name=expected][value={expected}]"))
    # The form may come with the opponent's push (Bob's "let it pass" once
    # Alice's Order Count is in): the block is read once it has come, or
    # the push itself would pass for the tap's answer.
    button = form.first.locator("button:not([type=button])").first
    button.wait_for()
    before = page.locator("#blk-controls").get_attribute("data-h")
    button.click()
    expect(page.locator("#blk-controls")).not_to_have_attribute("data-h", before)


@pytest.mark.parametrize("lang", ["en", "es"])
def test_an_aro_picked_while_the_opponent_declares_stays_picked(served, phone, lang):
    alice_http, bob_http, _ids = playing(served.url)
    other = "es" if lang == "en" else "en"
    alice = open_phone(phone, alice_http, served.url, other, viewport=NARROW)
    bob = open_phone(phone, bob_http, served.url, lang, viewport=NARROW)

    tap(alice, "AdvancePhase", "tactical")  # the Order Count
    tap(bob, "DeclineStrategicUse")  # TM-S2 let pass
    while alice.locator("form[hx-post$='/AdvancePhase/'] input[value=orders]").count() == 0:
        tap(alice, "AdvancePhase")  # the Tactical and Impetuous Phases end
    order = alice.locator(".card.order form").first
    order.locator("select[name=trooper_id]").select_option(label="Kaplan")
    order.locator("select[name=skill]").select_option("move")
    tap(alice, "DeclareSkill")

    aro = bob.locator(".card.aro form").first
    aro.locator("select[name=trooper_id]").select_option(label="Bolt")
    aro.locator("select[name=skill]").select_option("dodge")
    card_before = bob.locator("#blk-controls").get_attribute("data-h")

    # Alice's second Short Skill: Bob's ARO card is swapped for one that
    # says what she declared.
    second = alice.locator(".card.order form[hx-post$='/DeclareSkill/']")
    second.locator("select[name=skill]").select_option("move")
    second.locator("button:not([type=button])").first.click()
    expect(bob.locator("#blk-controls")).not_to_have_attribute("data-h", card_before)

    aro = bob.locator(".card.aro form").first
    expect(aro.locator("select[name=trooper_id] option:checked")).to_have_text("Bolt")
    expect(aro.locator("select[name=skill]")).to_have_value("dodge")
    aro.locator("button:not([type=button])").first.click()
    # The ARO declared is the one he picked, on both phones.
    for page in (alice, bob):
        newest = page.locator("#blk-log li").first
        expect(newest).to_contain_text("Bolt")
        expect(newest).not_to_contain_text("Fusilier")


@pytest.mark.parametrize("lang", ["en", "es"])
def test_a_classified_card_ticked_while_the_opponent_enters_the_initiative_stays_ticked(
    served, phone, lang
):
    """CL-3: Bob ticks the card he keeps while Alice enters the Initiative
    rolled at the table; his controls block is swapped (the Initiative card
    goes), and the tick went with it: his tap on "Keep" was refused as
    keeping none."""
    other = "es" if lang == "en" else "en"
    locales = {"en": "en-GB", "es": "es-ES"}
    host = phone(locales[other], NARROW)
    # Classified on by default. The seat links name the LAN address; this
    # server listens on 127.0.0.1.
    links = [served.url + urlsplit(link).path for link in create_match(host, served)]
    claim(host, links[0], "Alice")
    alice = host
    bob = phone(locales[lang], NARROW)
    claim(bob, links[1], "Bob")
    for page, trooper in ((alice, "Kaplan"), (bob, "Fusilier")):
        add_trooper(page, trooper, 20, ["lieutenant_candidate"])
        page.once("dialog", lambda dialog: dialog.accept())
        tap(page, "LockArmyList")
        tap(page, "DrawClassified")

    keep = bob.locator("form[hx-post$='/KeepClassified/']")
    keep.locator("input[name=keep]").nth(1).check()
    controls_before = bob.locator("#blk-controls").get_attribute("data-h")
    alice.select_option("select[name=first_turn]", "A")
    alice.select_option("select[name=deploys_first]", "A")
    tap(alice, "SetInitiative")
    expect(bob.locator("#blk-controls")).not_to_have_attribute("data-h", controls_before)

    boxes = keep.locator("input[name=keep]")
    expect(boxes.nth(1)).to_be_checked()
    expect(boxes.nth(0)).not_to_be_checked()
    kept = keep.locator("label.check").nth(1).inner_text().strip()
    tap(bob, "KeepClassified")
    expect(bob.locator("#classified ul.held")).to_contain_text(kept)
