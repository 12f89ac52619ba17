"""A match's log keeps its newest reading.RECENT events, not its first: past
that many events (fewer here), the tap a player just made is still the top line of the
log and of "Just now", on the page it is answered with, on a page read
afresh from the whole log, and on the opponent's page."""

from __future__ import annotations

import re

import pytest
from bs4 import BeautifulSoup

from tracker import reading
from tracker.models import MatchEvent

from .phone_flows import ok, started

pytestmark = pytest.mark.django_db


def _top_seqs(html: str) -> tuple[int, int]:
    """The seq of the top line of the log and of "Just now"."""
    soup = BeautifulSoup(html, "lxml")
    log = soup.select("#log-list > li")
    recent = soup.select("#recent > li")
    assert log and recent
    return (
        int(re.fullmatch(r"log-(\d+)", log[0]["id"]).group(1)),
        int(re.fullmatch(r"recent-(\d+)", recent[0]["id"]).group(1)),
    )


def test_past_the_kept_events_the_newest_tap_tops_the_log(monkeypatch):
    # Fewer kept events than a match's set-up appends (40 in play), so that a
    # few taps go past them.
    monkeypatch.setattr(reading, "RECENT", 6)
    a, b, _ids = started()
    report = {"outcome": "saving_roll", "trooper_id": "Kaplan"}
    for _ in range(2):
        ok(b, b.submit("ReportOutcome", **report))
    assert MatchEvent.objects.count() > 2 * reading.RECENT
    newest = MatchEvent.objects.filter(kind="OutcomeReported").order_by("-seq").first().seq
    assert _top_seqs(b.html) == (newest, newest)  # the page after the tap
    a.open()
    assert _top_seqs(a.html) == (newest, newest)  # the opponent's
    reading.forget()  # a process that reads the whole log from its first event
    b.open()
    assert _top_seqs(b.html) == (newest, newest)
