"""Tests from the event's mutation round (issue 21): Swiss pairing, the
standings and the round clock, each guarding a behaviour a planted mutant
changed without any other test noticing.

- The round clock shows whole seconds left, never a second more than is
  left: a clock that has run 0.3 s says 9:59 of its 10 minutes, not 10:00.
- A timer that fires with a second and a half still left waits the rest:
  time is called at zero, not a second early.
- Round 3 is drawn against the pairings of every round before it, the
  last one included: four players meet in three rounds without a rematch,
  even where the standings would rather repeat round 2's tables.
- Players tied on TP, OP and VP share a rank and are listed by name
  whatever its case ("ana" before "Bea"), as a reader of the table expects.

No test waits for a clock: each reads a time the test sets."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.utils import timezone

from tests.web.test_event_round_checks import publish
from tests.web.test_event_running import pairings_of
from tests.web.test_swiss_score_distances import round_one_played, settle
from tracker import event_clock, event_running
from tracker.event_running import clock_left, clock_state
from tracker.models import EventRound, TournamentEvent
from tracker.tournament.scoring import DEFAULT_SCORING, Result, standings

pytestmark = pytest.mark.django_db


def test_the_clock_shows_the_whole_seconds_left_never_a_second_more():
    # Rounded, 599.7 s would show 10:00 with the clock already running.
    now = timezone.now()
    paused = EventRound(minutes=10, clock_elapsed=0.3)
    assert clock_left(paused, now) == 10 * 60 - 1
    running = EventRound(minutes=10, clock_started_at=now - timedelta(seconds=0.3))
    assert clock_left(running, now) == 10 * 60 - 1
    assert clock_state(running, now) == "running"


def test_a_timer_that_fires_a_second_and_a_half_early_does_not_call_time(monkeypatch):
    event = TournamentEvent.objects.create(name="Liga")
    started = timezone.now() - timedelta(hours=1)
    event_round = EventRound.objects.create(
        event=event, number=1, minutes=10, published_at=started, clock_started_at=started
    )
    early = started + timedelta(seconds=10 * 60 - 1.5)
    monkeypatch.setattr(event_clock, "now", lambda: early)
    # A second and a half left: the whole second it says, and no call yet.
    assert event_clock.call_time_if_run_out(event_round.pk) == 1
    event_round.refresh_from_db()
    assert event_round.time_called_at is None and event_round.clock_started_at == started
    assert event_round.clock_elapsed == 0


def test_players_tied_on_everything_are_listed_by_name_whatever_its_case():
    players = {1: ("Bea", False), 2: ("ana", False), 3: ("Cai", False), 4: ("dan", False)}
    # Two identical draws: all four on 2 TP, 3 OP and 50 VP.
    results = [Result(1, 1, 2, 3, 3, 50, 50), Result(1, 3, 4, 3, 3, 50, 50)]
    rows = standings(players, results, [], DEFAULT_SCORING)
    assert [(r.name, r.rank) for r in rows] == [("ana", 1), ("Bea", 1), ("Cai", 1), ("dan", 1)]


def test_round_three_repeats_no_table_of_round_two_even_where_the_standings_would(carol):
    names = "Ana, PanOceania\nBea, Yu Jing\nCai, Nomads\nDan, ALEPH"
    event, org = round_one_played(carol, names, [(3, 0, 0, 0), (3, 0, 0, 0)])
    publish(org)  # round 2: the two winners meet, and the two losers
    assert org.submit("/clock/call/", within="#round-2").status_code == 302
    # Winners' table 3-2 (8 TP, and 5 TP with the defensive bonus), losers'
    # table 3-0 (4 TP, 0 TP). By TP alone round 3 would repeat both tables
    # of round 2 (8 v 5, 4 v 0): the history must forbid it.
    (_t1, winners, _a1, _b1), (_t2, losers, _a2, _b2) = pairings_of(event, 2)
    settle(carol, winners, 3, 2)
    settle(carol, losers, 3, 0)
    assert [row.tp for row in event_running.standings(event)] == [8, 5, 4, 0]
    publish(org)
    met = {frozenset((a, b)) for n in (1, 2) for _t, _m, a, b in pairings_of(event, n)}
    third = {frozenset((a, b)) for _t, _m, a, b in pairings_of(event, 3)}
    assert len(met) == 4 and len(third) == 2
    assert not third & met
