"""One tap, one action id (issue 8): on a real phone, tapping the same
unchanged form twice appends twice, and a tap that is still in flight when
the player taps again is sent with the same id and appended once."""

import json

import pytest
from playwright.sync_api import expect

from .pages import action_ids, report, report_form
from .test_rule_stories import play_until_orders

pytestmark = pytest.mark.browser


def log_lines(page, text):
    return page.locator("#blk-log li", has_text=text)


def test_two_taps_on_an_unchanged_form_are_two_actions(server, phone):
    alice, bob = play_until_orders(server, phone)
    reports = action_ids(bob, "ReportOutcome")
    before = log_lines(alice, "Kaplan").count()
    report(bob, "saving_roll", "Kaplan (Alice)")
    expect(log_lines(alice, "Kaplan")).to_have_count(before + 1)
    # The same form, untouched: tap Report again.
    report_form(bob, "Kaplan (Alice)").locator("button:not([type=button])").click()
    expect(log_lines(alice, "Kaplan")).to_have_count(before + 2)
    assert len(reports) == 2 and reports[0] != reports[1], reports

    notes = action_ids(alice, "SealNote")
    for count in (1, 2):
        note_form(alice, "Classified", "HVT: Designation").locator(
            "button:not([type=button])"
        ).click()
        expect(alice.locator("#blk-seat_A li.secret", has_text="Classified")).to_have_count(count)
    assert len(set(notes)) == 2, notes


def note_form(page, label, text):
    """The "Seal a note" form, open, with `label` and `text` typed (unless
    still there from the last tap: then it is left unchanged)."""
    details = page.locator("details", has_text="Seal a note")
    if details.get_attribute("open") is None:
        details.locator("summary").click()
    form = details.locator("form")
    if form.locator("input[name=label]").input_value() != label:
        form.locator("input[name=label]").fill(label)
        form.locator("textarea[name=text]").fill(text)
    return form


def no_request_in_flight(page):
    page.wait_for_function("() => !document.querySelector('.htmx-request')")


def test_a_double_tap_in_flight_is_one_action(server, phone):
    alice, _bob = play_until_orders(server, phone)
    notes = action_ids(alice, "SealNote")
    form = note_form(alice, "Double", "tapped twice")
    # Two submits in the same tick: the second while the first is in flight
    # (htmx queues it behind the first).
    form.evaluate("f => { f.requestSubmit(); f.requestSubmit(); }")
    expect(alice.locator("#blk-seat_A li.secret", has_text="Double")).to_have_count(1)
    no_request_in_flight(alice)
    assert notes and len(set(notes)) == 1, json.dumps(notes)
    expect(alice.locator("#blk-seat_A li.secret", has_text="Double")).to_have_count(1)
    # Answered now: the next tap on the same form is a new action.
    note_form(alice, "Double", "tapped twice").evaluate("f => f.requestSubmit()")
    expect(alice.locator("#blk-seat_A li.secret", has_text="Double")).to_have_count(2)
    assert len(set(notes)) == 2, notes
