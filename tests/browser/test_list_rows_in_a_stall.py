"""Army list rows entered on a venue's Wi-Fi that stalls or resets, as a
new player does it: the host creates the match on her own phone and takes
seat A there, through a real faulty link (tests/browser/netfault.py), then
types her list row after row without waiting for each to show.

- The next row typed (and added) while the last one is stalled: before,
  the stalled row's answer swapped the list in and the typed row vanished
  (not added, its text gone, no message). Now it is added too, once.
- A row given up on in a reset keeps the traits the player ticked (the
  bar says "not saved"): before, its boxes were unticked, so tapping
  "Add trooper" again added it without Hidden Deployment, and the bar
  stayed, offering to add it a second time.

A make-run server; in Spanish and in English."""

from __future__ import annotations

from urllib.parse import urlparse

import pytest
from playwright.sync_api import expect

from .pages import LIVE, LOCALE, NOT_SAVED, create_match, type_row
from .test_link_faults import OFFLINE

pytestmark = pytest.mark.browser

ADD = {"en": "Add trooper", "es": "Añadir tropa"}
HIDDEN_DEPLOYMENT = {"en": "Hidden Deployment", "es": "Despliegue Oculto"}


def host_seated(phone, link, lang):
    """The host's phone, through `link`: she creates the match and takes seat A."""
    host = phone(LOCALE[lang], viewport={"width": 360, "height": 740})
    seats = create_match(host, link, "Viernes")
    # Seat links name the server's LAN address: her phone opens it through the link.
    host.goto(link.url + urlparse(seats[0]).path)
    host.fill("input[name=name]", "Alicia")
    host.fill("input[name=pin]", "246813")
    host.click("button.primary")
    expect(host.locator("#connection")).to_have_text(LIVE[lang])
    return host


def rows_named(page, name):
    return page.locator("table.list tbody tr").filter(has_text=name)


@pytest.mark.parametrize("lang", ["es", "en"])
def test_the_next_row_added_while_the_last_is_stalled_is_added_too(served, link, phone, lang):
    host = host_seated(phone, link, lang)
    link.stall()
    type_row(host, "Uno", 11).get_by_role("button", name=ADD[lang]).click()
    expect(host.locator("#connection")).to_have_text(OFFLINE[lang])
    # Typed and added while "Uno" is still on its way.
    form = type_row(host, "Dos", 12, traits=["hidden_deployment"])
    form.get_by_role("button", name=ADD[lang]).click()
    link.restore()

    expect(rows_named(host, "Dos")).to_have_count(1)
    expect(rows_named(host, "Dos")).to_contain_text(HIDDEN_DEPLOYMENT[lang])
    expect(rows_named(host, "Uno")).to_have_count(1)
    expect(host.locator("form.addrow input[name=name]")).to_have_value("")
    expect(host.locator("#unsent")).to_be_hidden()


@pytest.mark.parametrize("lang", ["en", "es"])
def test_a_row_typed_while_the_last_is_stalled_stays_typed(served, link, phone, lang):
    host = host_seated(phone, link, lang)
    link.stall()
    type_row(host, "Uno", 11).get_by_role("button", name=ADD[lang]).click()
    expect(host.locator("#connection")).to_have_text(OFFLINE[lang])
    type_row(host, "Dos", 12)  # not added yet
    link.restore()

    expect(rows_named(host, "Uno")).to_have_count(1)
    expect(host.locator("form.addrow input[name=name]")).to_have_value("Dos")
    expect(host.locator("form.addrow input[name=cost]")).to_have_value("12")
    expect(rows_named(host, "Dos")).to_have_count(0)


@pytest.mark.parametrize("lang", ["en", "es"])
def test_a_row_given_up_on_keeps_its_traits_and_is_added_once(served, link, phone, lang):
    host = host_seated(phone, link, lang)
    link.reset()
    form = type_row(host, "Fantasma", 25, traits=["hidden_deployment", "infiltration"])
    form.get_by_role("button", name=ADD[lang]).click()
    expect(host.locator("#unsent")).to_be_visible(timeout=30_000)
    expect(host.locator("#unsent")).to_contain_text(NOT_SAVED[lang])
    link.restore()
    expect(host.locator("#connection")).to_have_text(LIVE[lang])

    # The form still holds the row as the player tapped it, boxes included.
    expect(form.locator("input[name=name]")).to_have_value("Fantasma")
    expect(form.locator("input[value=hidden_deployment]")).to_be_checked()
    expect(form.locator("input[value=infiltration]")).to_be_checked()
    # Tapping "Add trooper" again is the same tap: added once, the bar goes.
    form.get_by_role("button", name=ADD[lang]).click()
    expect(rows_named(host, "Fantasma")).to_have_count(1)
    expect(rows_named(host, "Fantasma")).to_contain_text(HIDDEN_DEPLOYMENT[lang])
    expect(host.locator("#unsent")).to_be_hidden()
