"""The round clock across pauses (issue 21), through the run page's
rendered forms: every stint the clock ran counts, however many pauses and
resumes come between, and a Start from a page rendered before the clock
was resumed (a second laptop's) is refused with "The clock of round 1 is
already running.",
never restarting the stint under way and so giving its time back.

No test waits for the clock: the run page's views read the time from a
wall the test moves on (the organizer views' `timezone`)."""

from __future__ import annotations

from datetime import timedelta

import pytest
from bs4 import BeautifulSoup
from django.utils import timezone

from tests.web.rendered_forms import submit
from tests.web.test_event_running import three_players
from tracker.organizer import event_views

pytestmark = pytest.mark.django_db


class Wall:
    """The organizer views' clock: `timezone`, but `now` is the test's."""

    def __init__(self):
        self.at = timezone.now()

    def now(self):
        return self.at

    def __getattr__(self, name):
        return getattr(timezone, name)

    def advance(self, minutes: int) -> None:
        self.at += timedelta(minutes=minutes)


@pytest.fixture
def wall(monkeypatch):
    held = Wall()
    monkeypatch.setattr(event_views, "timezone", held)
    return held


def run_clock(html: str) -> str:
    """Round 1's clock as the run page shows it, without its buttons."""
    clock = BeautifulSoup(html, "lxml").select_one("#clock-1")
    for form in clock.select("form"):
        form.decompose()
    return " ".join(clock.get_text(" ").split())


def test_every_stint_of_the_clock_counts_across_pauses(carol, wall):
    _event, org = three_players(carol)  # a 60-minute round
    assert org.submit("/clock/start/", within="#round-1").status_code == 302
    wall.advance(10)
    assert org.submit("/clock/pause/", within="#round-1").status_code == 302
    assert run_clock(org.page()) == "Time left 50:00 · paused"
    wall.advance(7)  # paused: no time runs
    assert run_clock(org.page()) == "Time left 50:00 · paused"
    assert org.submit("/clock/start/", within="#round-1").status_code == 302
    wall.advance(5)
    assert org.submit("/clock/pause/", within="#round-1").status_code == 302
    # 10 minutes, then 5: the second pause keeps the first stint.
    assert run_clock(org.page()) == "Time left 45:00 · paused"
    carol.defaults["HTTP_ACCEPT_LANGUAGE"] = "es"
    assert run_clock(org.page()) == "Tiempo restante 45:00 · en pausa"


@pytest.mark.parametrize(
    "lang, refused",
    [
        ("en", "The clock of round 1 is already running."),
        ("es", "El reloj de la ronda 1 ya está en marcha."),
    ],
)
def test_a_start_from_a_page_rendered_before_the_resume_gives_no_time_back(
    carol, wall, lang, refused
):
    _event, org = three_players(carol)
    carol.defaults["HTTP_ACCEPT_LANGUAGE"] = lang
    assert org.submit("/clock/start/", within="#round-1").status_code == 302
    wall.advance(10)
    assert org.submit("/clock/pause/", within="#round-1").status_code == 302
    # A second laptop loads the run page while the clock is paused.
    second_laptop = org.page()
    assert org.submit("/clock/start/", within="#round-1").status_code == 302
    wall.advance(15)
    # Its Resume button, pressed 15 minutes after the clock was resumed.
    response = submit(carol, second_laptop, "/clock/start/", within="#round-1")
    assert response.status_code == 302
    page = org.page()
    text = " ".join(BeautifulSoup(page, "lxml").get_text(" ").split())
    assert refused in text
    running = {"en": "Time left 35:00 · running", "es": "Tiempo restante 35:00 · en marcha"}
    assert run_clock(page) == running[lang]
