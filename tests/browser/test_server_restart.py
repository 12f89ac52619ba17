"""The laptop's server dies mid-match and is started again (kill -9, then
`manage.py serve` on the same database): the phones say so, and come back
live by themselves, without a reload, showing the match as it is.

Nothing the server held in memory survives (the render cache, the channel
layer and its groups, the sockets' counters, the heartbeats): only the
SQLite file and the sessions in it. A tap made while the server was down
waits for the link (app.js's PATIENCE) and lands once it is back, once;
pushes reach both phones again afterwards. The phones reach the server
through a TCP proxy (tests/browser/netfault.py) so that the restarted
server, on a new port, is at the same address for them, as a laptop's is.
The new process is started before the old one dies and the proxy turned
to it once the tap is made: a process's start-up time (seconds on a busy
CI machine) is then no part of the tap's wait, which the test does not
measure.
"""

from __future__ import annotations

import os
import signal

import pytest
from playwright.sync_api import expect

from tests.scale.servers import LiveServer

from .netfault import FaultyLink
from .pages import LIVE, action_ids, open_phone, open_state, playing
from .test_link_faults import OFFLINE, applied, start_server, tick_first_token

pytestmark = pytest.mark.browser

# How long a frozen server stays frozen: past the sockets' silence deadline
# on both sides (app.js's and the server's), so both give up on them.
SLEPT_MS = 12_000


@pytest.fixture
def served(tmp_path):
    live = start_server(tmp_path)
    yield live
    live.stop()


@pytest.fixture
def link(served):
    proxy = FaultyLink(served.port).start()
    yield proxy
    proxy.close()


@pytest.mark.parametrize("alice_lang, bob_lang", [("es", "en"), ("en", "es")])
def test_a_restarted_server_brings_both_phones_back_live_and_lands_the_tap_made_meanwhile(
    served, link, phone, alice_lang, bob_lang
):
    database = served.env["SQLITE_PATH"]
    alice_http, bob_http, ids = playing(served.url)
    kaplan, fusilier = ids["Kaplan"], ids["Fusilier"]
    alice = open_phone(phone, alice_http, link.url, alice_lang)
    bob = open_phone(phone, bob_http, link.url, bob_lang)
    sent = action_ids(alice, "SetTrooperState")
    restarted = LiveServer(served.env, served.log).start()  # nothing in memory
    try:
        served.kill()
        expect(alice.locator("#connection")).to_have_text(OFFLINE[alice_lang])
        expect(bob.locator("#connection")).to_have_text(OFFLINE[bob_lang])

        # A tap while the server is down: it waits for the link.
        form, _box = tick_first_token(alice, kaplan)
        form.locator("button:not([type=button])").click()
        link.upstream_port = restarted.port  # the laptop's address answers again

        for page, lang in ((alice, alice_lang), (bob, bob_lang)):
            expect(page.locator("#connection")).to_have_text(LIVE[lang])
        # The tap landed, once, and both phones show it without a reload.
        for page in (alice, bob):
            expect(page.locator(f"#trooper-{kaplan}")).to_have_attribute("data-tokens", "prone")
        expect(alice.locator("#unsent")).to_be_hidden()
        assert len(set(sent)) == 1, sent  # sent again with its action id, if at all
        assert [row.kind for row in applied(database, alice_http.code, sent[0])] == [
            "TrooperStateChanged"
        ]

        # Pushes flow again: Bob's tap reaches Alice's phone as it is made.
        form, _box = tick_first_token(bob, fusilier)
        form.locator("button:not([type=button])").click()
        for page in (alice, bob):
            expect(page.locator(f"#trooper-{fusilier}")).to_have_attribute("data-tokens", "prone")
        state = open_state(alice, f"#trooper-{kaplan}")
        expect(state.locator("input[name=tokens]").first).to_be_checked()
    finally:
        restarted.stop()


@pytest.mark.parametrize("lang", ["es", "en"])
def test_a_server_frozen_and_woken_brings_both_phones_back_live(served, link, phone, lang):
    """A laptop's lid closed and opened again: the process stops (SIGSTOP),
    its sockets stay open and answer nothing, then it goes on (SIGCONT)
    with every phone's pings and reconnects waiting for it at once."""
    alice_http, bob_http, ids = playing(served.url)
    kaplan = ids["Kaplan"]
    other = "en" if lang == "es" else "es"
    alice = open_phone(phone, alice_http, link.url, lang)
    bob = open_phone(phone, bob_http, link.url, other)

    os.kill(served.process.pid, signal.SIGSTOP)
    try:
        expect(alice.locator("#connection")).to_have_text(OFFLINE[lang])
        expect(bob.locator("#connection")).to_have_text(OFFLINE[other])
        alice.wait_for_timeout(SLEPT_MS)
    finally:
        os.kill(served.process.pid, signal.SIGCONT)

    expect(alice.locator("#connection")).to_have_text(LIVE[lang], timeout=15_000)
    expect(bob.locator("#connection")).to_have_text(LIVE[other], timeout=15_000)
    form, _box = tick_first_token(alice, kaplan)
    form.locator("button:not([type=button])").click()
    for page in (alice, bob):
        expect(page.locator(f"#trooper-{kaplan}")).to_have_attribute("data-tokens", "prone")
    expect(alice.locator("#unsent")).to_be_hidden()
