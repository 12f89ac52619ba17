"""Issue 17: a healthy link, even a slow one, keeps one socket and a line
that says "Live" all along. The fault tests check that the line turns
within 3 s of a fault and back; they wait for "Live" and would not see a
line that flickers "Offline" and a socket dropped and opened again every
few seconds while nothing is wrong (a silence deadline armed by every
frame and never disarmed), nor a page that says "Offline" while it loads.
Here the line is watched, from the page's load, for any "Offline", and
the page's sockets are counted (and its requests to catch up, which a
page in step never needs), over a link with 200 ms each way (a
venue's Wi-Fi, through tests/browser/netfault.py)."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from .pages import LIVE, open_phone, playing

pytestmark = pytest.mark.browser

# Long enough for several pings and several silence deadlines (2.2 s).
WATCHED_MS = 8_000

# Set a flag if the line ever says it is offline (its class, whatever the
# language), from the page's first moment: an init script, so the watch is
# in place before app.js first sets the line ("Connecting…" until the first
# frame or failure).
WATCH_LINE = """document.addEventListener("DOMContentLoaded", () => {
    const line = document.getElementById("connection");
    if (!line) { return; }
    window.saidOffline = line.classList.contains("offline");
    new MutationObserver(() => {
        if (line.classList.contains("offline")) { window.saidOffline = true; }
    }).observe(line, { attributes: true, childList: true, characterData: true, subtree: true });
});"""


def test_a_slow_healthy_link_keeps_one_socket_and_says_live_throughout(served, link, phone):
    alice_http, _bob_http, _ids = playing(served.url)
    link.latency(0.2)
    sockets, asked = [], []

    def opened(ws):
        sockets.append(ws.url)
        ws.on("framesent", lambda payload: asked.append(payload) if "resync" in payload else None)

    def counted_phone(locale):
        page = phone(locale)
        page.on("websocket", opened)
        page.add_init_script(WATCH_LINE)
        return page

    alice = open_phone(counted_phone, alice_http, link.url, "es")

    alice.wait_for_timeout(WATCHED_MS)
    assert alice.evaluate("window.saidOffline") is False
    expect(alice.locator("#connection")).to_have_text(LIVE["es"])
    assert len(sockets) == 1, sockets
    # A page in step with the pongs' seq asks for nothing: catching up is
    # for a page behind it (a venue's phones asking every few seconds would
    # each cost the server a render of every block).
    assert asked == [], asked
