"""Publishing the next round ends the one before it (issue 21): round 1's
clock, left running while every table confirmed its result, went on
counting on the run page beside round 2's, offered Pause and Call time for
a round long over, and would have called time on round 1's phones in the
middle of round 2. Now time is called on it when round 2 is published.
Through the organizer's and the phones' rendered pages, in es and en."""

from __future__ import annotations

import pytest
from bs4 import BeautifulSoup

from tests.web.test_event_round_checks import all_lists_in, event_of, publish
from tests.web.test_event_running import ok, pairings_of, seat_phone
from tests.web.test_round_clock_says_what_is_true import CALLED, clock_of, into_play

pytestmark = pytest.mark.django_db

NAMES = ["Ana", "Bea", "Cai"]


def clock_buttons(html: str, number: int) -> set[str]:
    soup = BeautifulSoup(html, "lxml")
    return {
        form["action"].rstrip("/").rsplit("/", 1)[-1]
        for form in soup.select(f"#round-{number} form")
        if "/clock/" in form["action"]
    }


@pytest.mark.parametrize("language", ["en", "es"])
@pytest.mark.parametrize("left", ["running", "paused"])
def test_round_two_published_calls_time_on_round_one(carol, language, left):
    event, org = event_of(carol, "Ana, PanOceania\nBea, Yu Jing\nCai, Nomads")
    all_lists_in(org, NAMES)
    publish(org, seed=7)
    [(_table, match, first, _b)] = pairings_of(event, 1)
    a = seat_phone(carol, match, "A", language)
    b = seat_phone(carol, match, "B", "es" if language == "en" else "en")
    into_play(a, b, first)
    assert org.submit("/clock/start/", within="#round-1").status_code == 302
    if left == "paused":
        assert org.submit("/clock/pause/", within="#round-1").status_code == 302
    ok(a, "ProposeResult", objective_a=6, objective_b=2, army_a=20, army_b=40)
    ok(b, "ConfirmResult")
    shown, _at_zero = clock_of(a)
    assert shown != CALLED[language]  # the clock still counts, as the organizer left it

    publish(org)

    first_round = event.rounds.get(number=1)
    assert first_round.time_called_at is not None and first_round.clock_started_at is None
    page = org.page()
    assert clock_buttons(page, 1) == set()  # nothing left to do with round 1's clock
    assert clock_buttons(page, 2) == {"start", "call"}  # round 2's waits for its start
    assert clock_of(a) == (CALLED[language], None)
    assert not event.rounds.get(number=2).time_called_at
