"""The full match of tests/web/full_match.py, shortened to one Game Round,
on two phones in Chromium: Alice in English, Bob in Spanish. Every step is a
tap on what the phone shows; every check is on what the other phone shows.

Covered: lists with a Holoprojector trooper and a Camouflaged Hidden
Deployment Infiltrator, sealing, TM-S2, the Impetuous Phase, an ARO against a
Holoecho (decoy hit, HE-D3), an ARO against an ordinary trooper by a hidden
trooper (HD-C2), the real Holoecho Discovered (HE-C5) with the RP-2 choice on
its owner's phone only, the result proposed and confirmed. Retreat! and the
other Command Token uses are in the web version (tests/web/test_full_match.py).

At a glance (issue 19): both phones are 360 px wide, and at every checkpoint
each phone's decision (its [data-decision] card or button) and the last
things that happened (#recent) end within the first screen, and a banner
strip clears with one tap. The taps of an Order (3), an ARO (<= 3) and a hit
report (<= 4) are counted: a tap is a click, or a pick in a list or drop-down
that does not already show the wanted choice (a player taps nothing there).
"""

import pytest
from playwright.sync_api import expect

from .pages import confirm_next_dialog, report_option
from .phone_checks import screenshot

pytestmark = pytest.mark.browser

HD_NINJA = "Ninja: on the roof of the red building, prone"
NARROW = {"width": 360, "height": 740}
TAPS = {"count": 0}


def tapped(locator) -> None:
    locator.click()
    TAPS["count"] += 1


def picked(select, **wanted) -> None:
    """Pick an option; a tap only if the list does not show it already."""
    before = select.input_value()
    select.select_option(**wanted)
    if select.input_value() != before:
        TAPS["count"] += 1


def taps_of(action, *args, **kwargs) -> int:
    TAPS["count"] = 0
    action(*args, **kwargs)
    return TAPS["count"]


FIRST_SCREEN_JS = """(selector) => {
  window.scrollTo(0, 0);
  const shown = [...document.querySelectorAll(selector)].filter(n => n.getClientRects().length);
  if (!shown.length) { return null; }
  return shown[0].getBoundingClientRect().bottom;
}"""


def at_a_glance(page, decision=True, name=""):
    """Issue 19 on one phone: its decision and the last things that happened
    end above the fold; a banner strip goes with one tap."""
    page.wait_for_function("() => !document.querySelector('.htmx-request')")
    height = page.viewport_size["height"]
    strip = page.locator(".banners [data-banner-bar]:not([hidden])")
    if strip.count():
        strip.locator("button[data-ack]").click()
        expect(page.locator(".banner:not([hidden])")).to_have_count(0)
        expect(strip).to_have_count(0)
    if name:
        screenshot(page, f"glance-{name}")
    if decision:
        bottom = page.evaluate(FIRST_SCREEN_JS, "[data-decision]")
        assert bottom is not None, f"{name}: no decision shown"
        assert bottom <= height, f"{name}: the decision ends at {bottom:.0f} px of {height}"
    bottom = page.evaluate(FIRST_SCREEN_JS, "#recent")
    assert bottom is not None, f"{name}: the last things that happened are not shown"
    assert bottom <= height, f"{name}: #recent ends at {bottom:.0f} px of {height}"


def create_one_round_match(host, server):
    host.goto(server.url + "/")
    host.fill("input[name=name]", "League final")
    host.fill("input[name=rounds]", "1")
    host.click("button.primary")
    expect(host.locator("img.qr")).to_have_count(2)
    return host.locator("a.seaturl").all_inner_texts()


def aro(page, trooper, skill, element=None):
    form = page.locator(".card.aro form")
    picked(form.locator("select[name=trooper_id]"), label=trooper)
    picked(form.locator("select[name=skill]"), value=skill)
    if element:
        picked(form.locator("select[name=target_element]"), value=element)
    tapped(form.locator("button:not([type=button])"))
    # Answered once the ARO heads the log (newest first) on this phone.
    expect(page.locator("#blk-log li").first).to_contain_text(trooper.split(" (")[0])


def order(page, trooper, skill):
    form = page.locator(".card.order form").first
    picked(form.locator("select[name=trooper_id]"), label=trooper)
    picked(form.locator("select[name=skill]"), value=skill)
    tapped(form.locator("button:not([type=button])"))
    expect(page.locator(".card.order form[hx-post$='/EndOrder/']")).to_be_visible()


def report(page, outcome, trooper_label, element=""):
    details = page.locator("details.outcome").last
    if details.get_attribute("open") is None:
        tapped(details.locator("summary"))
    # A form per kind of target (what may be reported on it): the player
    # uses the one listing this trooper, the named target's, first.
    form = details.locator("form").filter(has=report_option(page, trooper_label))
    picked(form.locator("select[name=outcome]"), value=outcome)
    picked(
        form.locator("select[name=trooper_id]"),
        value=report_option(form, trooper_label).get_attribute("value"),
    )
    if element or form.locator("select[name=element]").count():
        picked(form.locator("select[name=element]"), value=element)
    tapped(form.locator("button:not([type=button])"))


def end_order(page):
    page.locator(".card.order form[hx-post$='/EndOrder/'] button").click()
    expect(page.locator(".card.order form[hx-post$='/EndOrder/']")).to_have_count(0)


def tap(page, command, confirm=False):
    """The submit button of the form that posts `command`: the same in any
    language."""
    if confirm:
        confirm_next_dialog(page)
    page.locator(f"form[hx-post$='/{command}/'] button:not([type=button])").first.click()


def claim(page, link, name):
    page.goto(link)
    page.fill("input[name=name]", name)
    page.fill("input[name=pin]", "246813")
    page.click("button.primary")
    live = page.locator("#connection")
    expect(live).to_have_text(live.get_attribute("data-online"))


def add_trooper(page, name, cost, traits=(), silhouette=2):
    form = page.locator("form.addrow")
    form.locator("input[name=name]").fill(name)
    form.locator("input[name=cost]").fill(str(cost))
    form.locator("input[name=silhouette]").fill(str(silhouette))
    if traits:
        form.locator("details.traits summary").click()
        for trait in traits:
            form.locator(f"input[name=traits][value={trait}]").check()
    form.locator("button:not([type=button])").click()
    expect(page.locator("table.list")).to_contain_text(name)


def end_phase(page, expected_phase):
    form = page.locator(f"form[hx-post$='/AdvancePhase/']:has(input[value={expected_phase}])")
    form.locator("button").click()
    expect(form).to_have_count(0)


def test_a_match_on_two_phones_in_two_languages(server, phone):
    links = create_one_round_match(phone(), server)
    alice, bob = phone("en-GB", NARROW), phone("es-ES", NARROW)
    claim(alice, links[0], "Alice")
    claim(bob, links[1], "Bob")
    expect(alice.locator("html")).to_have_attribute("lang", "en")
    expect(bob.locator("html")).to_have_attribute("lang", "es")

    add_trooper(alice, "Hassassin Ayyar", 40, ["holoprojector"], silhouette=3)
    add_trooper(alice, "Kaplan", 20, ["lieutenant_candidate"])
    add_trooper(alice, "Daylami", 20, ["impetuous"])
    add_trooper(bob, "Fusilier", 10, ["lieutenant_candidate"])
    add_trooper(bob, "Ninja", 30, ["hidden_deployment", "camouflage", "infiltration"])
    tap(alice, "LockArmyList", confirm=True)
    tap(bob, "LockArmyList", confirm=True)
    expect(alice.locator("#blk-seat_B")).to_contain_text("Fusilier")
    expect(alice.locator("#blk-seat_B")).not_to_contain_text("Ninja")

    alice.select_option("select[name=first_turn]", "A")
    alice.select_option("select[name=deploys_first]", "A")
    tap(alice, "SetInitiative")
    alice.select_option("select[name=lieutenant]", label="Kaplan")
    alice.check("input[type=radio][value=marker1]")
    tap(alice, "SealDeployment", confirm=True)
    bob.select_option("select[name=lieutenant]", label="Fusilier")
    bob.locator("fieldset", has_text="Ninja").locator("textarea").fill(HD_NINJA)
    tap(bob, "SealDeployment", confirm=True)

    expect(alice.locator("#blk-header")).to_contain_text("Round 1 of 1")
    expect(alice.locator("#blk-seat_B")).not_to_contain_text("Ninja")
    at_a_glance(alice, name="round-en")
    at_a_glance(bob, name="round-es")

    # TM-S2: Alice's first tap is her Order Count; at its end Bob's phone
    # offers the Strategic Use while Alice's waits. Bob limits her to one
    # Command Token (once per game: his phone asks first).
    end_phase(alice, "tactical")
    expect(alice.locator("#s2-waiting")).to_be_visible()
    at_a_glance(alice)
    at_a_glance(bob, name="tm-s2-es")
    tap(bob, "LimitOpponentTokens", confirm=True)
    expect(alice.locator("#command-tokens")).to_contain_text(
        "TM-S2: your opponent limited you to 1 Command Token this Turn"
    )
    expect(alice.locator("#s2-waiting")).to_have_count(0)
    end_phase(alice, "tactical")
    expect(alice.locator("#blk-header .phase")).to_contain_text("Impetuous Phase")
    at_a_glance(alice)
    at_a_glance(bob)
    assert taps_of(order, alice, "Daylami", "move") <= 3
    end_order(alice)
    end_phase(alice, "impetuous")

    # The Hassassin moves: Bob shoots Holoecho marker 2, a decoy (HE-D3).
    assert taps_of(order, alice, "Hassassin Ayyar", "move") <= 3
    # The ARO card says what was declared, in the reader's language.
    expect(bob.locator(".card.aro .declared")).to_contain_text("Mover")
    at_a_glance(alice)
    at_a_glance(bob, name="aro-es")
    assert taps_of(aro, bob, "Fusilier", "bs_attack", element="marker2") <= 3
    # The active phone shows the ARO declared against its Order.
    expect(alice.locator("#aros-against")).to_contain_text("Fusilier")
    at_a_glance(alice, name="aro-against-en")
    at_a_glance(bob)
    # The report takes the target and element the ARO named.
    assert taps_of(report, bob, "saving_roll", "Hassassin Ayyar (Alice)", "marker2") <= 4
    expect(alice.locator(".rulings")).to_contain_text("HE-D3")
    expect(bob.locator(".rulings")).to_contain_text("HE-D3")
    expect(bob.locator("#blk-seat_A")).not_to_contain_text("El Holoeco real es")
    at_a_glance(alice, name="hit-en")
    at_a_glance(bob, name="hit-es")
    end_order(alice)

    # Kaplan moves: the hidden Ninja shoots him (an ARO against an ordinary
    # trooper), which ends its Hidden Deployment (HD-C2).
    assert taps_of(order, alice, "Kaplan", "move") <= 3
    at_a_glance(bob)
    assert taps_of(aro, bob, "Ninja (Despliegue Oculto)", "bs_attack") <= 3
    position = alice.locator("#blk-seat_B li.secret", has_text=HD_NINJA)
    expect(position).to_contain_text("Matches what was sealed at")
    expect(position.locator(".verify")).to_have_text("Checked on this phone ✓")
    at_a_glance(alice, name="reveal-en")
    at_a_glance(bob, name="after-aro-es")
    end_order(alice)
    end_phase(alice, "orders")
    end_phase(alice, "states")

    # Bob's turn: he Discovers Holoecho marker 1, the real one (HE-C5).
    end_phase(bob, "tactical")
    end_phase(bob, "impetuous")
    assert taps_of(order, bob, "Fusilier", "discover") <= 3
    at_a_glance(alice)
    at_a_glance(bob)
    assert taps_of(report, bob, "discovered", "Hassassin Ayyar (Alice)", "marker1") <= 4
    real = bob.locator("#blk-seat_A li.secret", has_text="Holoeco real")
    expect(real).to_contain_text("El Holoeco real es Marcador de Holoeco 1.")
    expect(real).to_contain_text("Coincide con lo sellado a las")
    end_order(bob)  # HE-T: the model replaces the marker at the end of the Order
    # RP-2: a 40 mm model for a 25 mm marker; the choice is on Alice's phone only.
    # (Bob may have a placement of his own to confirm, his revealed Ninja's:
    # what he must not get is a form for Alice's Hassassin.)
    choice = alice.locator("form[hx-post$='/ChooseReplacement/']")
    expect(alice.locator(".rulings")).to_contain_text("RP-2")
    expect(choice).to_be_visible()
    at_a_glance(alice, name="rp2-en")
    # Bob's revealed Ninja went centre on centre (RP-1): a line with no
    # "Placed" to tap, below the last lines.
    at_a_glance(bob, name="rp2-es")
    hassassin = choice.locator("input[name=trooper_id]").get_attribute("value")
    bobs_card = bob.locator(".card.choice:not(.mine)")
    expect(bobs_card).to_contain_text("Alice")
    expect(bobs_card).to_contain_text("RP-2")
    expect(bobs_card.locator("form")).to_have_count(0)
    expect(
        bob.locator(f"form[hx-post$='/ChooseReplacement/']:has(input[value='{hassassin}'])")
    ).to_have_count(0)
    choice.locator("input[value=edge]").check()
    choice.locator("button").click()
    expect(bob.locator("#blk-log")).to_contain_text("RP-2")
    end_phase(bob, "orders")
    end_phase(bob, "states")
    expect(alice.locator("#blk-controls")).to_contain_text("The match is over.")
    # The receipt is a card of its own, after the last lines.
    at_a_glance(alice, name="over-en")
    at_a_glance(bob)

    # The result: Alice proposes, Bob confirms.
    form = alice.locator("form.result-form")
    for name, value in (("objective_a", 7), ("objective_b", 3), ("army_a", 80), ("army_b", 40)):
        form.locator(f"input[name={name}]").fill(str(value))
    form.locator("button").click()
    expect(bob.locator("form[hx-post$='/ConfirmResult/']")).to_be_visible()
    at_a_glance(bob, name="confirm-es")
    tap(bob, "ConfirmResult")
    expect(alice.locator("#result-controls")).to_contain_text("Both players confirmed the result.")
    expect(bob.locator("#result-controls")).to_contain_text(
        "Ambos jugadores han confirmado el resultado."
    )
