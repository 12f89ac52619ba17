"""The stories of the seed pages, played on two phones: the tracker, not the
owner, answers from what was sealed (HE-D3, HE-C5, HD-C3, HD-C2)."""

import pytest
from playwright.sync_api import expect

from .pages import (
    add_trooper,
    claim,
    confirm_next_dialog,
    create_match,
    declare,
    end_phase,
    first_order_count,
    lock_list,
    report,
)

pytestmark = pytest.mark.browser

POSITION = "On the roof of the red building, prone, facing the centre"


def play_until_orders(server, phone):
    links = create_match(phone(), server)
    alice, bob = phone(), phone()
    claim(alice, links[0], "Alice")
    claim(bob, links[1], "Bob")
    add_trooper(alice, "Hassassin Ayyar", 40, traits=["holoprojector"])
    add_trooper(alice, "Ninja", 30, traits=["hidden_deployment", "camouflage"])
    add_trooper(alice, "Kaplan", 20, traits=["lieutenant_candidate"])
    add_trooper(bob, "Fusilier", 10, traits=["lieutenant_candidate"])
    add_trooper(bob, "Bolt", 15)
    lock_list(alice)
    lock_list(bob)
    expect(alice.locator("select[name=first_turn]")).to_be_visible()
    alice.select_option("select[name=first_turn]", "A")
    alice.click("text=Start deployment")

    alice.select_option("select[name=lieutenant]", label="Kaplan")
    alice.locator("fieldset", has_text="Ninja").locator("textarea").fill(POSITION)
    alice.locator("svg.tablemap").first.click(position={"x": 40, "y": 40})
    alice.check("input[type=radio][value=marker1]")
    confirm_next_dialog(alice)
    alice.click("text=Seal my deployment")
    expect(alice.locator("#blk-controls")).to_contain_text("Your deployment is sealed")
    confirm_next_dialog(bob)
    bob.click("text=Seal my deployment")
    expect(alice.locator("#blk-header")).to_contain_text("Round 1 of 3")

    first_order_count(alice, bob)
    expect(alice.locator("#blk-header .phase")).to_contain_text("Impetuous Phase")
    end_phase(alice, "Impetuous Phase")
    expect(alice.locator("#blk-header .phase")).to_contain_text("· Orders")
    expect(alice.locator(".card.order")).to_contain_text("Declare an Order")
    return alice, bob


def test_holoecho_story_decoy_hit_then_the_real_one_discovered(server, phone):
    alice, bob = play_until_orders(server, phone)
    declare(alice, "Hassassin Ayyar", "move")
    expect(bob.locator(".card.aro")).to_contain_text("Hassassin Ayyar")

    # Bob hits Holoecho 2: the tracker answers from the seal, a decoy.
    report(bob, "saving_roll", "Hassassin Ayyar (Alice)", "marker2")
    for page in (alice, bob):
        expect(page.locator(".rulings")).to_contain_text("HE-D3")
    assert "The real one is" not in bob.locator("#blk-seat_A").inner_text()
    expect(bob.locator("#blk-seat_A li.trooper", has_text="Hassassin")).not_to_contain_text(
        "Holoecho marker 2"
    )

    # Bob discovers Holoecho 1: the real one; the seal is shown and checked.
    report(bob, "discovered", "Hassassin Ayyar (Alice)", "marker1")
    for page in (alice, bob):
        expect(page.locator(".rulings")).to_contain_text("HE-C5")
    sealed = bob.locator("#blk-seat_A li.secret", has_text="Real Holoecho")
    expect(sealed).to_contain_text("The real one is Holoecho marker 1.")
    expect(sealed).to_contain_text("Matches what was sealed at")
    expect(sealed.locator(".verify")).to_have_text("Checked on this phone ✓")


def test_hidden_deployment_story_marker_then_model_at_the_sealed_position(server, phone):
    alice, bob = play_until_orders(server, phone)
    expect(bob.locator("#blk-seat_A")).not_to_contain_text("Ninja")

    # Cautious Movement keeps the Camouflage marker (HD-C3): placed at the
    # written position. Which trooper it is stays private while it is a
    # marker (RT-5): Bob's phone reads "Camouflage marker 1" and only the
    # fingerprint of the sealed position, which names the trooper.
    declare(alice, "Ninja (Hidden Deployment)", "cautious_move", as_marker=True)
    marker = bob.locator("#blk-seat_A li.trooper", has_text="Camouflage marker 1")
    expect(marker).to_contain_text("Marker")
    expect(bob.locator(".card.aro")).to_contain_text("ARO against Camouflage marker 1")
    expect(bob.locator("body")).not_to_contain_text("Ninja")
    position = bob.locator("#blk-seat_A li.secret", has_text="Hidden Deployment position")
    expect(position).not_to_contain_text(POSITION)
    expect(alice.locator("#blk-seat_A")).to_contain_text("your opponent sees Camouflage marker 1")
    alice.click("text=End the Order")

    # A BS Attack places the model itself (HD-C2 / HD-C3): the marker state
    # ends, and Bob's phone shows the trooper and its position with its proof.
    declare(alice, "Ninja", "bs_attack")
    ninja = bob.locator("#blk-seat_A li.trooper", has_text="Ninja")
    expect(ninja).not_to_contain_text("Marker")
    expect(position).to_contain_text(POSITION)
    expect(position).to_contain_text("Matches what was sealed at")
    expect(position.locator(".verify")).to_have_text("Checked on this phone ✓")
    expect(position.locator("svg.tablemap circle.pin")).to_have_count(1)
    expect(bob.locator("#blk-log")).to_contain_text("Ninja declares BS Attack")
