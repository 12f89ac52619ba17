"""The read path keeps each recent event's log line, described once per
process (reading.Loaded.lines, issue 18), and hands a viewer only the lines
of the events it may see: every viewer's log equals the one described afresh
from the stored events, whether the cached state was extended by the write
path (reading.written) or read back (load_all). (tests/rules/test_kept_log_lines.py:
a private event's line kept for its owner never reaches the other seat.)"""

import json

import pytest

from tracker import reading, rules
from tracker.models import Match, MatchEvent
from tracker.reading import RECENT, load_state, seen_by

from .flows import seal_both, set_up

pytestmark = pytest.mark.django_db


def described_afresh(match: Match, viewer: str | None) -> list:
    rows = MatchEvent.objects.filter(match=match).order_by("-seq")[:RECENT]
    events = [(row.seq, rules.event_from_data(row.kind, json.loads(row.data))) for row in rows]
    return rules.log_for(load_state(match), reversed(events), viewer)


def test_every_viewer_reads_the_lines_described_afresh(alice, bob):
    a, b = set_up(alice, bob)
    seal_both(a, b, load_state(Match.objects.get()))
    match = Match.objects.get()
    assert any(event.private_to for _seq, event in reading.load_all(match).recent)
    for viewer in ("A", "B", None):
        assert seen_by(match, viewer).log == described_afresh(match, viewer)
    # Read back rather than extended by the write path: the same lines.
    reading.forget()
    for viewer in ("A", "B", None):
        assert seen_by(match, viewer).log == described_afresh(match, viewer)


def test_the_kept_lines_are_those_of_the_recent_events_alone(alice, bob):
    a, b = set_up(alice, bob)
    seal_both(a, b, load_state(Match.objects.get()))
    loaded = reading.load_all(Match.objects.get())
    assert set(loaded.lines) == {seq for seq, _event in loaded.recent}
    assert all(loaded.lines[seq] == rules.log_line(seq, event) for seq, event in loaded.recent)
