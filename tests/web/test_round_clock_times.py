"""The round clock (issue 21): what a phone counts down to, and the moment
the server records for time called at zero.

- data-ends-at (what static/tracker/app.js counts down to) is milliseconds
  since the epoch: the moment the running clock reaches zero;
- a timer that fires late (the server was busy) records time called at the
  moment the clock ran out, not when the timer got to it, counting the
  time run before a pause."""

from __future__ import annotations

import time
from datetime import timedelta

import pytest
from bs4 import BeautifulSoup
from django.utils import timezone

from tests.web.test_event_running import three_players
from tracker import event_clock
from tracker.models import EventRound, Match, TournamentEvent

pytestmark = pytest.mark.django_db


def test_a_running_clock_counts_down_to_its_end_in_milliseconds(carol, alice):
    event, org = three_players(carol)  # a 60-minute round
    match = Match.objects.get(event=event)
    assert org.submit("/clock/start/", within="#round-1").status_code == 302
    before = time.time()
    page = alice.get(f"/m/{match.code}/").content.decode()
    after = time.time()
    clock = BeautifulSoup(page, "lxml").select_one("#round-clock")
    ends_at = int(clock["data-ends-at"])
    # Started a moment ago: about 60 minutes from now, in milliseconds.
    assert (before + 60 * 60 - 30) * 1000 <= ends_at <= (after + 60 * 60) * 1000
    assert 60 * 60 - 30 <= int(clock["data-left"]) <= 60 * 60
    # On the organizer's run page too.
    run = BeautifulSoup(org.page(), "lxml").select_one("#clock-1")
    assert abs(int(run["data-ends-at"]) - ends_at) <= 30 * 1000


@pytest.mark.parametrize("run_before_pause", [0, 120])
def test_time_called_at_zero_is_recorded_at_the_moment_the_clock_ran_out(
    monkeypatch, run_before_pause
):
    event = TournamentEvent.objects.create(name="Liga")
    started = timezone.now() - timedelta(hours=1)
    event_round = EventRound.objects.create(
        event=event,
        number=1,
        minutes=10,
        published_at=started,
        clock_elapsed=float(run_before_pause),
        clock_started_at=started,
    )
    # The timer gets to it 15 minutes after the (re)start, well past zero.
    monkeypatch.setattr(event_clock, "now", lambda: started + timedelta(minutes=15))
    assert event_clock.call_time_if_run_out(event_round.pk) == 0
    event_round.refresh_from_db()
    ran_out = started + timedelta(seconds=10 * 60 - run_before_pause)
    assert event_round.time_called_at == ran_out
    assert event_round.clock_started_at is None and event_round.clock_elapsed == 10 * 60
    assert event_clock.call_time_if_run_out(event_round.pk) is None  # called once
