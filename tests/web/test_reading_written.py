"""reading.written extends the kept state with the rows just written only
if the kept state is the one they were decided on (the seq before theirs).
Another process may have written the events between (each process keeps its
own states), and a state extended over that gap would be taken for the
match at the new seq from then on: every viewer's page would be built from
a state missing those events. No page path in one process leaves the kept
state behind the log, so the test calls the read cache directly."""

import copy

import pytest

from tracker import reading
from tracker.models import Match, MatchEvent

from .phone_flows import started

pytestmark = pytest.mark.django_db


def test_rows_written_past_a_kept_state_behind_the_log_are_not_applied_to_it():
    started()
    match = Match.objects.get()
    assert match.seq > 3
    afresh = reading.load_state(match)
    # This process last read the match three events ago (another wrote since).
    reading.forget()
    behind = copy.copy(match)
    behind.seq = match.seq - 3
    reading.load_all(behind)
    reading.written(match.pk, [MatchEvent.objects.get(match=match, seq=match.seq)])
    assert reading.load_state(match) == afresh
