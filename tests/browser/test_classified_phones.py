"""Classified Objectives on two phones (CL-2..CL-6): Alice draws and keeps
two, accomplishes one; Bob's phone shows it with its proof, checked on his
phone, and never the other."""

import re

import pytest
from playwright.sync_api import expect

from .pages import confirm_next_dialog, lieutenants_listed

pytestmark = pytest.mark.browser

PROOF = "Kaplan held the console"


def league_night(phone, server, kept: int):
    """A match whose host draws 3 Classified Objectives a player, `kept` of
    them kept; Alice and Bob seated with their lists locked."""
    host = phone()
    host.goto(server.url + "/")
    host.fill("input[name=name]", "League night")
    host.fill("input[name=classified_drawn]", "3")
    host.fill("input[name=classified_kept]", str(kept))
    host.click("button.primary")
    expect(host.locator("img.qr")).to_have_count(2)
    return lieutenants_listed(phone, host.locator("a.seaturl").all_inner_texts())


def both_deploy(alice, bob):
    """Alice goes first; both seal their deployment: Game Round 1 begins."""
    alice.select_option("select[name=first_turn]", "A")
    alice.click("text=Start deployment")
    for page in (alice, bob):
        confirm_next_dialog(page)
        page.click("text=Seal my deployment")


def test_classified_drawn_kept_accomplished_and_sealed_on_two_phones(server, phone):
    alice, bob = league_night(phone, server, kept=2)

    alice.click("text=Draw my Classified Objectives")
    cards = alice.locator("#classified label.check")
    expect(cards).to_have_count(3)
    drawn = [text.strip() for text in cards.all_inner_texts()]
    expect(bob.locator("#blk-log")).to_contain_text("Alice drew their Classified Objectives")
    for card in drawn:
        assert card not in bob.locator("main").inner_text()
    cards.nth(0).locator("input").check()
    cards.nth(2).locator("input").check()
    alice.click("text=Keep and seal")
    expect(bob.locator("#blk-seat_A")).to_contain_text("2 Classified Objectives held")

    both_deploy(alice, bob)
    expect(bob.locator("#blk-header")).to_contain_text("Round 1 of 3")

    held = alice.locator("#classified li", has_text=drawn[0])
    held.locator("input[name=proof]").fill(PROOF)
    confirm_next_dialog(alice)
    held.locator("button", has_text="Accomplished").click()

    revealed = bob.locator("#blk-seat_A li.secret.revealed")
    expect(revealed).to_contain_text(drawn[0])
    expect(revealed).to_contain_text("Matches what was sealed")
    expect(revealed.locator(".verify")).to_have_text("Checked on this phone ✓")
    expect(bob.locator("#blk-log")).to_contain_text(PROOF)
    expect(bob.locator("#blk-seat_A")).to_contain_text(
        re.compile(r"1 Classified Objective held · 1 accomplished \(1 OP\)")
    )
    assert drawn[2] not in bob.locator("main").inner_text()
    expect(alice.locator("#classified")).to_contain_text(drawn[2])


def test_a_half_typed_proof_stays_with_its_own_card_when_another_is_accomplished(server, phone):
    """The block swapped after a tap carries what was typed in its other
    forms (static/tracker/app.js), each into the same form: a proof typed
    under one held card stays under that card, not under the next one."""
    alice, bob = league_night(phone, server, kept=3)

    alice.click("text=Draw my Classified Objectives")
    cards = alice.locator("#classified label.check")
    expect(cards).to_have_count(3)
    drawn = [text.strip() for text in cards.all_inner_texts()]
    for index in range(3):
        cards.nth(index).locator("input").check()
    alice.click("text=Keep and seal")
    both_deploy(alice, bob)
    expect(bob.locator("#blk-header")).to_contain_text("Round 1 of 3")

    def held(card):
        return alice.locator("#classified li", has_text=card)

    held(drawn[1]).locator("input[name=proof]").fill("the second card's half-typed proof")
    held(drawn[2]).locator("input[name=proof]").fill("the third card's half-typed proof")
    held(drawn[0]).locator("input[name=proof]").fill(PROOF)
    confirm_next_dialog(alice)
    held(drawn[0]).locator("button", has_text="Accomplished").click()

    expect(bob.locator("#blk-seat_A li.secret.revealed")).to_contain_text(drawn[0])
    expect(alice.locator("#classified li")).to_have_count(2)
    expect(held(drawn[1]).locator("input[name=proof]")).to_have_value(
        "the second card's half-typed proof"
    )
    expect(held(drawn[2]).locator("input[name=proof]")).to_have_value(
        "the third card's half-typed proof"
    )
