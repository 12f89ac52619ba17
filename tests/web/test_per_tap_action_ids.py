"""An action id stands for one tap (issue 8: "A second use of an unchanged
form is silently dropped"). Two taps on the same unchanged form are two
actions; one tap sent twice (double tap in flight, htmx retry) is one.

These drive the server side of the contract through rendered forms; the
browser side (static/tracker/app.js choosing the id per tap) is proved in
tests/browser/test_per_tap_action_ids.py."""

import pytest

from tracker.models import Match, MatchEvent
from tracker.reading import load_state

from .phone_flows import ok, started

pytestmark = pytest.mark.django_db


def count(kind: str) -> int:
    return MatchEvent.objects.filter(kind=kind).count()


def test_two_reports_in_a_row_from_the_same_unchanged_form_both_append():
    _a, b, _ids = started()
    before = count("OutcomeReported")
    report = {"outcome": "saving_roll", "trooper_id": "Kaplan"}
    ok(b, b.submit("ReportOutcome", **report))
    ok(b, b.submit("ReportOutcome", **report))
    assert count("OutcomeReported") == before + 2


def test_two_reports_on_two_troopers_both_append():
    _a, b, _ids = started()
    before = count("OutcomeReported")
    ok(b, b.submit("ReportOutcome", outcome="saving_roll", trooper_id="Kaplan"))
    ok(b, b.submit("ReportOutcome", outcome="saving_roll", trooper_id="Fusilier"))
    assert count("OutcomeReported") == before + 2


def test_two_identical_sealed_notes_are_two_notes():
    a, _b, _ids = started()
    note = {"label": "Classified", "text": "HVT: Designation"}
    ok(a, a.submit("SealNote", **note))
    ok(a, a.submit("SealNote", **note))
    notes = [s for s in load_state(Match.objects.get()).secrets.values() if s.kind == "note"]
    assert len(notes) == 2
    assert a.text.count("Classified") >= 2


def test_one_tap_sent_twice_appends_once():
    a, _b, _ids = started()
    before = Match.objects.get().seq
    note = {"label": "Classified", "text": "Sent twice"}
    ok(a, a.submit("SealNote", action_id="one-tap-0000001", **note))
    after_first = Match.objects.get().seq
    assert after_first > before
    ok(a, a.submit("SealNote", action_id="one-tap-0000001", **note))
    assert Match.objects.get().seq == after_first
    assert MatchEvent.objects.filter(action_id="one-tap-0000001").count() == after_first - before
