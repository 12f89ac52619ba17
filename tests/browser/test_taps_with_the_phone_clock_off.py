"""A phone whose own clock is set wrong (no network time at the venue, set
by hand) taps as any other (issue 17). Each tap's deadline
(X-Tracker-Deadline, tracker/taps.py) is in the server's clock, from the
pongs (app.js serverNowAtTheEarliest), not the phone's: a phone 30 minutes
behind that stamped its own time would have every tap refused as past its
deadline, sent again, and given up "not saved", though nothing was wrong
with the link.

A Spanish and an English phone, each 30 minutes behind, against an opponent
on a phone with its clock right.
"""

from __future__ import annotations

from datetime import datetime, timedelta

import pytest
from playwright.sync_api import expect

from .pages import LIVE, action_ids, open_phone, playing
from .test_link_faults import applied, tick_first_token

pytestmark = pytest.mark.browser


def pongs_heard(page) -> list[str]:
    """The socket frames the page receives that are pongs (from now on)."""
    heard: list[str] = []
    page.on(
        "websocket",
        lambda ws: ws.on(
            "framereceived",
            lambda payload: heard.append(payload) if '"pong"' in str(payload) else None,
        ),
    )
    return heard


@pytest.mark.parametrize("lang", ["es", "en"])
def test_a_tap_from_a_phone_whose_clock_is_behind_lands_once(served, phone, lang):
    alice_http, bob_http, ids = playing(served.url)
    kaplan = ids["Kaplan"]
    other = "en" if lang == "es" else "es"
    bob = open_phone(phone, bob_http, served.url, other)
    badges = bob.locator(f"#trooper-{kaplan} .badge")
    before = badges.count()

    alice = open_phone(phone, alice_http, served.url, lang)
    alice.clock.set_system_time(datetime.now() - timedelta(minutes=30))
    heard = pongs_heard(alice)
    alice.reload()
    expect(alice.locator("#connection")).to_have_text(LIVE[lang])
    # The phone has the server's time from a pong before it taps.
    for _ in range(100):
        if heard:
            break
        alice.wait_for_timeout(100)
    assert heard, "no pong reached the phone"
    sent = action_ids(alice, "SetTrooperState")

    form, _box = tick_first_token(alice, kaplan)
    form.locator("button:not([type=button])").click()

    # It lands: the opponent sees the token, and the tapping phone shows it
    # with no "not saved" bar.
    expect(badges).to_have_count(before + 1)
    expect(alice.locator(f"#trooper-{kaplan}")).to_have_attribute("data-tokens", "prone")
    expect(alice.locator("#unsent")).to_be_hidden()
    assert len(set(sent)) == 1, sent
    rows = applied(served.env["SQLITE_PATH"], alice_http.code, sent[0])
    assert [row.kind for row in rows] == ["TrooperStateChanged"]
    assert "refused unapplied" not in served.log_text()
