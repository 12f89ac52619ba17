"""Handing a seat to a new phone cannot be taken back (the player's link and
PIN stop working, their phone loses the seat mid-match), so the host's page
asks first, in the host's language: a mis-tap on the host's phone took the
seat from its player at once. Declined, the player keeps the seat; accepted,
the seat gets its new link. Chromium, English and Spanish."""

import re

import pytest
from playwright.sync_api import expect

from .pages import claim, create_match

pytestmark = pytest.mark.browser

WORDS = {
    "en-GB": {
        "asks": "Hand seat A to a new phone? Its player's link and PIN stop working",
        "taken": "Taken by Alice.",
        "new_link": "Seat A has a new link",
    },
    "es-ES": {
        "asks": "¿Pasar el asiento A a un móvil nuevo? El enlace y el PIN de su jugador",
        "taken": "Ocupado por Alice.",
        "new_link": "El asiento A tiene un enlace nuevo",
    },
}


@pytest.mark.parametrize("locale", ["en-GB", "es-ES"])
def test_the_host_is_asked_before_a_seat_is_handed_to_a_new_phone(server, phone, locale):
    words = WORDS[locale]
    host = phone(locale)
    link_a, _link_b = create_match(host, server)
    host_page = host.url
    alice = phone()
    claim(alice, link_a, "Alice")

    host.goto(host_page)
    expect(host.locator(".seatlink").first).to_contain_text(words["taken"])
    asked = []

    def answer(accept):
        def on_dialog(dialog):
            asked.append(dialog.message)
            dialog.accept() if accept else dialog.dismiss()

        return on_dialog

    # A mis-tap, declined: nothing happens, Alice keeps her seat.
    host.once("dialog", answer(accept=False))
    host.locator("#hand-off-A").click()
    expect(host.locator(".seatlink").first).to_contain_text(words["taken"])
    assert len(asked) == 1 and asked[0].startswith(words["asks"]), asked
    alice.reload()
    expect(alice.locator("#connection")).to_have_text("Live")
    expect(alice.locator("#blk-seat_A.mine")).to_be_visible()

    # Meant, accepted: the seat gets a new link and Alice's phone loses it.
    host.once("dialog", answer(accept=True))
    host.locator("#hand-off-A").click()
    expect(host.locator("body")).to_contain_text(words["new_link"])
    assert len(asked) == 2
    expect(host.locator(".seatlink").first.locator("img.qr")).to_have_count(1)
    alice.reload()
    expect(alice.locator("#blk-seat_A.mine")).to_have_count(0)
    assert re.search(r"/m/[^/]+/host/", host.url)
