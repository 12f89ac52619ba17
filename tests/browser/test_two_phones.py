"""Two phones play through set-up and see each other's public changes live."""

import re

import pytest
from playwright.sync_api import expect

from .pages import add_trooper, claim, create_match, open_state

pytestmark = pytest.mark.browser


def test_two_phones_set_up_seal_and_see_changes_live(server, phone):
    seat_links = create_match(phone(), server)

    alice, bob = phone(), phone()
    claim(alice, seat_links[0], "Alice")
    claim(bob, seat_links[1], "Bob")

    # The link alone lets no third phone in.
    mallory = phone()
    mallory.goto(seat_links[0])
    expect(mallory.locator("h2")).to_contain_text("taken")

    add_trooper(alice, "Hassassin Ayyar", 40, traits=["holoprojector"])
    add_trooper(alice, "Kaplan", 20, traits=["lieutenant_candidate"])
    add_trooper(bob, "Fusilier", 10, traits=["lieutenant_candidate"])
    add_trooper(bob, "Bolt", 15)
    for page in (alice, bob):
        page.once("dialog", lambda dialog: dialog.accept())
        page.click("text=Lock my list")

    # Alice's locked list appears on Bob's phone without a reload.
    expect(bob.locator("#blk-seat_A")).to_contain_text("Hassassin Ayyar")
    alice.select_option("select[name=first_turn]", "A")
    alice.select_option("select[name=deploys_first]", "A")
    alice.click("text=Start deployment")
    expect(bob.locator("#blk-header")).to_contain_text("Deployment Phase")

    alice.select_option("select[name=lieutenant]", label="Kaplan")
    alice.check("input[value=marker2]")
    alice.once("dialog", lambda dialog: dialog.accept())
    alice.click("text=Seal my deployment")
    expect(alice.locator("#blk-seat_A .secrets")).to_contain_text("Kaplan")
    fingerprint = alice.locator("#blk-seat_A .secret .fp").first.inner_text()
    expect(bob.locator("#blk-seat_A .secrets")).to_contain_text(fingerprint)
    assert "Kaplan" not in bob.locator("#blk-seat_A .secrets").inner_text()
    assert "The real one is" not in bob.content()

    bob.once("dialog", lambda dialog: dialog.accept())
    bob.click("text=Seal my deployment")
    expect(alice.locator("#blk-header")).to_contain_text("Round 1 of 3")

    # A public change by Alice reaches Bob's page live.
    bolt = open_state(alice, alice.locator("#blk-seat_B li.trooper", has_text="Bolt"))
    bolt.locator("select[name=condition]").select_option("unconscious")
    bolt.locator("button", has_text="Set").click()
    expect(bob.locator("#blk-seat_B li.trooper", has_text="Bolt")).to_contain_text("Unconscious")
    expect(bob.locator("#blk-log")).to_contain_text(re.compile("Bolt is now Unconscious"))

    # Alice reveals her Lieutenant; Bob's phone shows it verified.
    alice.once("dialog", lambda dialog: dialog.accept())
    alice.locator("#blk-seat_A li.secret", has_text="Lieutenant").locator(
        "button", has_text="Reveal"
    ).click()
    lieutenant = bob.locator("#blk-seat_A li.secret", has_text="Lieutenant")
    expect(lieutenant).to_contain_text("Kaplan")
    expect(lieutenant).to_contain_text("Matches what was sealed")
    expect(lieutenant.locator(".verify")).to_have_text("Checked on this phone ✓")
