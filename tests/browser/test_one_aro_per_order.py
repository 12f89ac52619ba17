"""One ARO per trooper per Order, on two phones 360 px wide (Bob's in
Spanish or English): Bob declared Dodge for Fusilier and his ARO card still
offered Fusilier, so a second tap declared BS Attack for it against the
same Order and both logs read two AROs of one trooper. The card now offers
only Bob's other trooper, on a second tab of his seat too (the refusal of a
second ARO posted from a page behind, in Spanish and English, is
tests/web/test_one_aro_per_order.py).

Every tap is made on a phone's page (the match is brought to deployment over
HTTP).
"""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from .pages import open_phone, playing
from .test_picks_through_a_push import tap

pytestmark = pytest.mark.browser

NARROW = {"width": 360, "height": 740}
DODGE = {"en": "Fusilier declares Dodge.", "es": "Fusilier declara Esquivar."}


@pytest.mark.parametrize("lang", ["es", "en"])
def test_a_trooper_that_declared_its_aro_is_not_offered_another(served, phone, lang):
    alice_http, bob_http, _ids = playing(served.url)
    alice = open_phone(phone, alice_http, served.url, "en", viewport=NARROW)
    bob = open_phone(phone, bob_http, served.url, lang, viewport=NARROW)

    tap(alice, "AdvancePhase", "tactical")  # the Order Count
    tap(bob, "DeclineStrategicUse")  # TM-S2 let pass
    while alice.locator("form[hx-post$='/AdvancePhase/'] input[value=orders]").count() == 0:
        tap(alice, "AdvancePhase")  # the Tactical and Impetuous Phases end
    order = alice.locator(".card.order form").first
    order.locator("select[name=trooper_id]").select_option(label="Kaplan")
    order.locator("select[name=skill]").select_option("move")
    tap(alice, "DeclareSkill")

    troopers = bob.locator(".card.aro select[name=trooper_id] option")
    expect(troopers).to_have_text(["Fusilier", "Bolt"])
    # The same seat in a second tab of Bob's browser, its card shown now.
    second_tab = bob.context.new_page()
    second_tab.goto(bob.url)
    expect(second_tab.locator(".card.aro select[name=trooper_id] option")).to_have_count(2)

    aro = bob.locator(".card.aro form").first
    aro.locator("select[name=trooper_id]").select_option(label="Fusilier")
    aro.locator("select[name=skill]").select_option("dodge")
    tap(bob, "DeclareAro")
    expect(troopers).to_have_text(["Bolt"])
    expect(alice.locator("#aros-against")).to_contain_text("Fusilier")

    # The second tab follows by its socket: no Fusilier there either.
    expect(second_tab.locator(".card.aro select[name=trooper_id] option")).to_have_text(["Bolt"])
    for page in (bob, second_tab):
        expect(page.locator("#blk-log li", has_text="Fusilier")).to_have_count(1)
        expect(page.locator("#blk-log li").first).to_contain_text(DODGE[lang])
