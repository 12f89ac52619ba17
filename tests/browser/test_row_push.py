"""Issue 9, push less: a trooper's State change reaches the opponent's phone
as that one row (not the whole seat block), the phone records the block's new
digest, and a reload shows exactly what the row push left on the page."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest
from playwright.sync_api import expect

from tests.browser.conftest import ROOT
from tests.browser.pages import open_state

pytestmark = pytest.mark.browser


def _match_in_play(server) -> dict:
    made = subprocess.run(
        [sys.executable, "bench/setup_matches.py", "1"],
        cwd=ROOT,
        env=server.env,
        capture_output=True,
        text=True,
        check=True,
    )
    return json.loads(made.stdout)[0]


def _seated(phone, server, code: str, session: str):
    """A phone holding the seat whose session bench/setup_matches.py made."""
    page = phone()
    page.context.add_cookies([{"name": "sessionid", "value": session, "url": server.url}])
    page.goto(f"{server.url}/m/{code}/")
    expect(page.locator("#connection")).to_have_text("Live")
    return page


def test_a_state_change_reaches_the_opponent_as_one_row(server, phone):
    made = _match_in_play(server)
    alice = _seated(phone, server, made["code"], made["A"])
    bob = _seated(phone, server, made["code"], made["B"])
    frames: list[str] = []
    bob.on("websocket", lambda ws: ws.on("framereceived", lambda data: frames.append(str(data))))
    # Bob's socket opened before the listener: reconnect it by reloading.
    bob.reload()
    expect(bob.locator("#connection")).to_have_text("Live")
    row = "#trooper-a0000000"
    before = bob.locator("#blk-seat_A").get_attribute("data-h")

    form = open_state(alice, row)
    form.locator("input[name=tokens][value=prone]").check()
    form.locator("button:not([type=button])").click()

    expect(bob.locator(f"{row} .badge")).to_contain_text("Prone")
    pushed = [f for f in frames if "trooper-a0000000" in f]
    assert pushed, frames
    assert 'id="blk-seat_A"' not in pushed[-1]
    assert '<li hx-swap-oob="true"' in pushed[-1]
    recorded = bob.locator("#blk-seat_A").get_attribute("data-h")
    assert recorded != before
    # The digest the phone recorded is that of the block a fresh load shows.
    bob.reload()
    expect(bob.locator(f"{row} .badge")).to_contain_text("Prone")
    assert bob.locator("#blk-seat_A").get_attribute("data-h") == recorded
