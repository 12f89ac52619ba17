"""Issue 17: what a phone does with a tap once its link comes back.

- A tap made while the link is cut (connections reset and refused) fails,
  waits for the link (app.js's PATIENCE) and is sent again, with its action
  id, as soon as the socket is live again: it lands once and no "not saved"
  shows. The server-restart test makes its tap as the link returns, so its
  retry finds the link up; here the retry has to wait for the link.
- A tap that landed in a one-way stall that lasts on (every answer held,
  the give-up's resync over HTTP failed in it too) is told "saved after
  all" once the link is back: the socket's return is then the only thing
  left that asks the server about it.

A make-run server, the phone on a real faulty link (tests/browser/
netfault.py), in Spanish and in English."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from .pages import LIVE, NOT_SAVED, SAVED_AFTER_ALL, action_ids, open_phone, open_state, playing
from .test_link_faults import OFFLINE, applied

pytestmark = pytest.mark.browser


@pytest.mark.parametrize("lang", ["es", "en"])
def test_a_tap_made_while_the_link_is_cut_lands_once_it_is_back(served, link, phone, lang):
    alice_http, _bob_http, ids = playing(served.url)
    kaplan = ids["Kaplan"]
    alice = open_phone(phone, alice_http, link.url, lang)
    sent = action_ids(alice, "SetTrooperState")

    link.reset()
    expect(alice.locator("#connection")).to_have_text(OFFLINE[lang])
    form = open_state(alice, f"#trooper-{kaplan}")
    form.locator("input[name=tokens]").first.check()
    with alice.expect_event("requestfailed", lambda r: "/act/SetTrooperState/" in r.url):
        form.locator("button:not([type=button])").click()
    # Its retry comes a second after the failure and finds the link down:
    # the tap then waits for the link. The link comes back well within the
    # tap's patience (8 s from the tap).
    alice.wait_for_timeout(2_500)
    link.restore()

    expect(alice.locator("#connection")).to_have_text(LIVE[lang])
    expect(alice.locator(f"#trooper-{kaplan}")).to_have_attribute("data-tokens", "prone")
    expect(alice.locator("#unsent")).to_be_hidden()
    assert len(set(sent)) == 1 and len(sent) >= 2, sent
    rows = applied(served.env["SQLITE_PATH"], alice_http.code, sent[0])
    assert [row.kind for row in rows] == ["TrooperStateChanged"]


@pytest.mark.parametrize("lang", ["en", "es"])
def test_a_tap_that_landed_in_a_long_one_way_stall_is_saved_after_all_once_back(
    served, link, phone, lang
):
    alice_http, _bob_http, ids = playing(served.url)
    kaplan = ids["Kaplan"]
    alice = open_phone(phone, alice_http, link.url, lang)
    sent = action_ids(alice, "SetTrooperState")

    link.stall_down()
    form = open_state(alice, f"#trooper-{kaplan}")
    form.locator("input[name=tokens]").first.check()
    # Given up, and the give-up's resync (over HTTP: the socket is down)
    # fails in the stall too: wait for that failure, not for a time.
    with alice.expect_event("requestfailed", lambda r: "/blocks/" in r.url, timeout=30_000):
        form.locator("button:not([type=button])").click()
        expect(alice.locator("#unsent")).to_contain_text(NOT_SAVED[lang], timeout=20_000)
    rows = applied(served.env["SQLITE_PATH"], alice_http.code, sent[0])
    assert [row.kind for row in rows] == ["TrooperStateChanged"]

    link.restore()
    expect(alice.locator("#connection")).to_have_text(LIVE[lang])
    expect(alice.locator("#saved-after-all")).to_be_visible()
    expect(alice.locator("#saved-after-all")).to_have_text(SAVED_AFTER_ALL[lang])
    expect(alice.locator("#unsent")).to_be_hidden()
    expect(alice.locator(f"#trooper-{kaplan}")).to_have_attribute("data-tokens", "prone")
    assert set(sent) == {sent[0]}, sent
