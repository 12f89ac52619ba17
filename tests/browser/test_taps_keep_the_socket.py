"""Issue 17: a tap answered on a healthy link leaves the socket alone. An
answer that got through is a sign to connect again at once only for a page
whose socket is down; a live one kept its socket, and its line kept saying
"Live", tap after tap. Reconnecting on every answer would drop each push
on its way and say "Offline" for a moment at every tap, at every table.

In Spanish and in English; the line is watched from the page's load
(test_healthy_link_stays_live.WATCH_LINE) and its sockets counted.
"""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from .pages import LIVE, open_phone, open_state, playing
from .test_healthy_link_stays_live import WATCH_LINE

pytestmark = pytest.mark.browser


def pongs_after(page, pongs, count):
    """Wait until `count` more pongs than now have reached the page."""
    wanted = len(pongs) + count
    for _ in range(200):
        if len(pongs) >= wanted:
            return
        page.wait_for_timeout(50)
    raise AssertionError(f"{len(pongs)} pongs, waited for {wanted}")


@pytest.mark.parametrize("lang", ["es", "en"])
def test_taps_on_a_healthy_link_keep_its_one_socket_and_say_live(served, phone, lang):
    alice_http, _bob_http, ids = playing(served.url)
    row = f"#trooper-{ids['Kaplan']}"
    sockets, pongs = [], []

    def opened(ws):
        sockets.append(ws.url)
        ws.on("framereceived", lambda payload: pongs.append(1) if '"pong"' in payload else None)

    def counted_phone(locale, **options):
        page = phone(locale, **options)
        page.on("websocket", opened)
        page.add_init_script(WATCH_LINE)
        return page

    alice = open_phone(counted_phone, alice_http, served.url, lang)
    pongs_after(alice, pongs, 2)  # the socket has been live a while

    for nth in (0, 1, 0):
        dialog = open_state(alice, row)
        box = dialog.locator("input[type=checkbox][name=tokens]").nth(nth)
        box.set_checked(not box.is_checked())
        tokens = alice.locator(row).get_attribute("data-tokens") or ""
        dialog.locator("button:not([type=button])").click()
        expect(dialog).to_be_hidden()
        expect(alice.locator(row)).not_to_have_attribute("data-tokens", tokens)
        pongs_after(alice, pongs, 2)

    expect(alice.locator("#connection")).to_have_text(LIVE[lang])
    assert alice.evaluate("window.saidOffline") is False
    assert len(sockets) == 1, sockets
