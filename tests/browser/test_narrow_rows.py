"""A phone 360 px wide never scrolls sideways: a trooper row's chip longer
than the whole line (a Holoecho's three elements in Spanish, a Fireteam's
name) wraps inside itself instead of pushing the page wider than the
screen; a short chip still moves to the next line whole."""

import pytest
from playwright.sync_api import expect

from tests.rules.test_army_text import TWO_GROUPS

from .pages import add_trooper, create_match

pytestmark = pytest.mark.browser

NARROW = {"width": 360, "height": 740}
# What reaches past the screen's right edge, less what a box that clips or
# scrolls its overflow keeps inside it (the last lines' ellipsis).
WIDER_THAN_THE_SCREEN = """() => {
  const screen = document.documentElement.clientWidth;
  const clipped = n => {
    for (let p = n.parentElement; p; p = p.parentElement) {
      if (/(auto|scroll|hidden|clip)/.test(getComputedStyle(p).overflowX)) { return true; }
    }
    return false;
  };
  return [...document.querySelectorAll('body *')]
    .filter(n => n.getBoundingClientRect().right > screen + 1 && !clipped(n))
    .map(n => n.tagName + ' ' + (n.innerText || '').slice(0, 60));
}"""


def test_a_holoecho_row_fits_a_360_px_spanish_phone(server, phone):
    links = create_match(phone(), server)
    ana = phone("es-ES", NARROW)
    ana.goto(links[0])
    ana.fill("input[name=name]", "Ana")
    ana.fill("input[name=pin]", "246813")
    ana.click("button.primary")
    expect(ana.locator("#connection")).to_have_text("En directo")
    add_trooper(ana, "Hassassin Ayyar", 40, traits=["holoprojector"])
    add_trooper(ana, "Kaplan", 20, traits=["lieutenant_candidate"])
    ana.once("dialog", lambda dialog: dialog.accept())
    ana.click("text=Cerrar mi lista")
    row = ana.locator("#blk-seat_A li.trooper", has_text="Hassassin Ayyar")
    expect(row).to_contain_text(
        "Holoeco: la miniatura, Marcador de Holoeco 1, Marcador de Holoeco 2"
    )
    assert ana.evaluate(WIDER_THAN_THE_SCREEN) == []
    width = ana.evaluate("document.documentElement.scrollWidth")
    assert width <= NARROW["width"], f"the page is {width} px wide on a 360 px phone"
    # The short chip of the other row stays on one line.
    short = ana.locator("#blk-seat_A li.trooper", has_text="Kaplan").locator(".badge, .trait")
    for chip in short.all():
        assert len(chip.evaluate("n => [...n.getClientRects()]")) == 1


def spanish_seat(phone, link, name="Ana"):
    page = phone("es-ES", NARROW)
    page.goto(link)
    page.fill("input[name=name]", name)
    page.fill("input[name=pin]", "246813")
    page.click("button.primary")
    expect(page.locator("#connection")).to_have_text("En directo")
    return page


def pasted(page, text):
    page.fill("textarea[name=text]", text)
    page.click("text=Importar la lista")
    expect(page.locator("table.list")).to_be_visible()


def test_a_draft_of_suggested_rows_fits_a_360_px_spanish_phone(server, phone):
    """At a venue every list after the first finds its troopers in earlier
    locked lists: each row says "suggested from earlier lists: check it",
    and that chip pushed the draft's table (its remove buttons last) past
    the screen's edge."""
    host = phone()
    first = spanish_seat(phone, create_match(host, server, "Ronda 1")[0])
    pasted(first, TWO_GROUPS)
    first.once("dialog", lambda dialog: dialog.accept())
    first.click("text=Cerrar mi lista")
    expect(first.locator("table.list")).to_have_count(0)

    ana = spanish_seat(phone, create_match(host, server, "Ronda 2")[0])
    pasted(ana, TWO_GROUPS)
    expect(ana.locator("table.list .badge.suggested").first).to_be_visible()
    assert ana.evaluate(WIDER_THAN_THE_SCREEN) == []
    width = ana.evaluate("document.documentElement.scrollWidth")
    assert width <= NARROW["width"], f"the draft is {width} px wide on a 360 px phone"
    remove = ana.locator("table.list form[hx-post$='/draft/remove/'] button").first
    assert remove.bounding_box()["x"] + remove.bounding_box()["width"] <= NARROW["width"]


@pytest.mark.parametrize("locale", ["es-ES", "en-GB"])
def test_a_draft_row_named_without_a_space_fits_a_360_px_phone(server, phone, locale):
    """A name of 60 letters with no space (a slip, or a pasted code) made the
    draft's table 849 px wide: its points and remove button were off the
    screen's edge. The name now wraps inside its cell."""
    page = phone(locale, NARROW)
    page.goto(create_match(phone(), server)[0])
    page.fill("input[name=name]", "Ana")
    page.fill("input[name=pin]", "246813")
    page.click("button.primary")
    expect(page.locator("#connection")).to_have_text("En directo" if locale == "es-ES" else "Live")
    add_trooper(page, "X" * 60, 20)
    assert page.evaluate(WIDER_THAN_THE_SCREEN) == []
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= NARROW["width"], f"the draft is {width} px wide on a 360 px phone"
    remove = page.locator("table.list form[hx-post$='/draft/remove/'] button").first
    assert remove.bounding_box()["x"] + remove.bounding_box()["width"] <= NARROW["width"]


def test_the_event_audit_fits_an_organizers_360_px_spanish_phone(server, phone, browser):
    """An organizer at the venue checks the event's audit on her phone: its
    tables (every match verified, each round's results) scroll inside their
    card, as the match history's do, instead of widening the page."""
    from .test_round_clock import CREATE_ORGANIZER, log_in, published_round

    server.shell(CREATE_ORGANIZER.format(user="carol-narrow"))
    laptop = browser.new_context(viewport={"width": 1280, "height": 900}, locale="en-GB")
    carol = laptop.new_page()
    log_in(carol, server, "carol-narrow")
    published_round(carol, "Narrow Open")
    carol.click("text=Audit of the event")
    audit = carol.url
    carol_phone = phone("es-ES", NARROW)
    carol_phone.context.add_cookies(laptop.cookies())
    carol_phone.goto(audit)
    expect(carol_phone.locator("#verified table")).to_contain_text("Alicia Alba")
    assert carol_phone.evaluate(WIDER_THAN_THE_SCREEN) == []
    width = carol_phone.evaluate("document.documentElement.scrollWidth")
    assert width <= NARROW["width"], f"the event audit is {width} px wide on a 360 px phone"
    laptop.close()
