"""One tap, one action (issue 8) when a send is lost (issue 17). A Saving
Roll report whose first send never reached the server is sent again by the
phone, with its action id, and lands once. Then:

- The next report on the same trooper, from the same unchanged form, is a
  new action and counts: before, the form still read as waiting for the
  tap the phone had sent again, so the next tap repeated its id and the
  server dropped it as a repeat, with nothing said.
- A player who taps again at once, while the lost send is being sent
  again, repeats the same tap: it counts once, not twice.

One phone in Spanish and one in English, either way round.
"""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from .pages import action_ids, open_phone, playing, report, report_form
from .test_per_tap_action_ids import log_lines, no_request_in_flight
from .test_venue_taps import LET_IT_PASS, ORDER_COUNT_DONE

pytestmark = pytest.mark.browser


def to_alice_s_orders(alice, bob, alice_lang, bob_lang):
    """Alice's Order Count, Bob lets TM-S2 pass, and Alice's phone goes on
    through the Tactical and Impetuous Phases to her Orders."""
    alice.get_by_role("button", name=ORDER_COUNT_DONE[alice_lang]).click()
    bob.get_by_role("button", name=LET_IT_PASS[bob_lang]).click()
    order_card = alice.locator(".card.order form.quick")
    for _ in range(4):
        if order_card.count():
            return
        phase = alice.locator("#blk-header .phase").inner_text()
        alice.locator("form[hx-post$='/AdvancePhase/'] button").click()
        expect(alice.locator("#blk-header .phase")).not_to_have_text(phase)
        no_request_in_flight(alice)
    expect(order_card).to_be_visible()


def lose_the_next_send(page, command):
    """The next send of a `command` tap is lost on the way (never reaches
    the server); `lose()` arms it again."""
    armed = [True]

    def route(route):
        if armed[0]:
            armed[0] = False
            route.abort("internetdisconnected")
        else:
            route.continue_()

    page.route(re.compile(rf".*/act/{command}/$"), route)
    return lambda: armed.__setitem__(0, True)


@pytest.mark.parametrize("lang, other", [("es", "en"), ("en", "es")])
def test_a_report_sent_again_counts_once_and_the_next_counts_too(served, phone, lang, other):
    alice_http, bob_http, _ids = playing(served.url)
    alice = open_phone(phone, alice_http, served.url, other)
    bob = open_phone(phone, bob_http, served.url, lang)
    to_alice_s_orders(alice, bob, other, lang)
    reports = action_ids(bob, "ReportOutcome")
    lines = log_lines(alice, "Kaplan")
    before = lines.count()
    lose = lose_the_next_send(bob, "ReportOutcome")

    # Its first send is lost: the phone sends it again, and it counts once.
    with bob.expect_event("requestfailed", lambda r: "/act/ReportOutcome/" in r.url):
        report(bob, "saving_roll", "Kaplan (Alice)")
    expect(lines).to_have_count(before + 1)
    no_request_in_flight(bob)
    expect(bob.locator("#unsent")).to_be_hidden()
    assert len(set(reports)) == 1, reports

    # The next report on the same trooper, the form untouched, counts.
    report_form(bob, "Kaplan (Alice)").locator("button:not([type=button])").click()
    expect(lines).to_have_count(before + 2)
    no_request_in_flight(bob)
    assert len(set(reports)) == 2, reports

    # Lost again, and tapped again at once: the same tap, counted once.
    lose()
    with bob.expect_event("requestfailed", lambda r: "/act/ReportOutcome/" in r.url):
        report_form(bob, "Kaplan (Alice)").locator("button:not([type=button])").click()
    report_form(bob, "Kaplan (Alice)").locator("button:not([type=button])").click()
    expect(lines).to_have_count(before + 3)
    no_request_in_flight(bob)
    expect(bob.locator("#unsent")).to_be_hidden()
    assert len(set(reports)) == 3, reports
    assert reports[-1] == reports[-2], reports
