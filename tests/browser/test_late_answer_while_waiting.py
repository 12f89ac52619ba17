"""A tap held by a stall that ends between its deadline and the moment the
phone gives up on it (issue 17's deadline is a little before that): the send
reaches the tracker late and is refused unapplied, and the answer reaches a
phone that is still waiting. That answer's words ("this tap reached the
tracker after your phone gave up on it. Send it again.") were shown, in the
controls and in the State dialog, by a phone that had not given up, with no
"Send it again" to tap, and the tap was not sent again: it was lost unless
the player tapped again. Now the phone takes it as a send that did not land
and sends the same tap again, which lands once. A make-run server, a real
faulty link (tests/browser/netfault.py), in Spanish and in English."""

from __future__ import annotations

import json
import time

import pytest
from playwright.sync_api import expect

from .pages import LIVE, action_ids, open_phone, open_state, playing
from .test_link_faults import applied

pytestmark = pytest.mark.browser

GAVE_UP = {
    "en": "after your phone gave up on it",
    "es": "cuando tu móvil ya había dejado de esperarlo",
}


# Set a flag if the page ever shows `words` (a message that comes and goes
# before a check could see it), from the page's load on.
WATCH_WORDS = """document.addEventListener("DOMContentLoaded", () => {
    window.sawWords = false;
    new MutationObserver(() => {
        if (document.body.textContent.includes(%s)) { window.sawWords = true; }
    }).observe(document.body, { childList: true, characterData: true, subtree: true });
});"""


@pytest.mark.parametrize("lang", ["es", "en"])
def test_a_late_answer_to_a_phone_still_waiting_sends_the_tap_again(served, link, phone, lang):
    alice_http, _bob_http, ids = playing(served.url)
    kaplan = ids["Kaplan"]
    alice = open_phone(phone, alice_http, link.url, lang)
    alice.add_init_script(WATCH_WORDS % json.dumps(GAVE_UP[lang]))
    alice.reload()
    expect(alice.locator("#connection")).to_have_text(LIVE[lang])
    deadlines: list[str] = []
    alice.on(
        "request",
        lambda r: (
            deadlines.append(r.headers.get("x-tracker-deadline", ""))
            if "/act/SetTrooperState/" in r.url
            else None
        ),
    )
    sent = action_ids(alice, "SetTrooperState")
    refused_before = served.log.read_text().count("refused unapplied")

    form = open_state(alice, f"#trooper-{kaplan}")
    form.locator("input[name=tokens]").first.check()
    link.stall()
    form.locator("button:not([type=button])").click()
    # The stall ends just past the send's deadline (the server's clock is
    # this machine's), before the phone gives up on it.
    while not deadlines:
        time.sleep(0.005)
    assert deadlines[0], "the send carries no deadline"
    while time.time() * 1000 <= int(deadlines[0]) + 20:
        time.sleep(0.005)
    link.restore()

    expect(alice.locator(f"#trooper-{kaplan}")).to_have_attribute("data-tokens", "prone")
    expect(alice.locator("#connection")).to_have_text(LIVE[lang])
    assert served.log.read_text().count("refused unapplied") == refused_before + 1
    # Sent again with the same id, applied once; nothing claims the phone
    # gave up, and nothing is left to send again.
    assert len(set(sent)) == 1 and len(sent) >= 2, sent
    rows = applied(served.env["SQLITE_PATH"], alice_http.code, sent[0])
    assert [row.kind for row in rows] == ["TrooperStateChanged"]
    expect(alice.locator("#live")).not_to_contain_text(GAVE_UP[lang])
    assert alice.evaluate("window.sawWords") is False, "the late answer's words were shown"
    expect(alice.locator("#unsent")).to_be_hidden()
