"""A round clock's Start from a page behind the clock (issue 21): a second
laptop, or Back to the page from before the clock ran. Another device
started the clock and paused it (a fire alarm, a ruling); the page still
showed "not started" and its Start, and the tap resumed the paused clock
on every phone of the round, undoing that pause. It is now told the clock
was started and paused since, in the organizer's language, and the clock
stays paused; the page as it is now resumes it."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import User
from django.test import Client

from tests.web.rendered_forms import submit
from tests.web.test_event_running import Organizer, three_players

pytestmark = pytest.mark.django_db

STAYS_PAUSED = {
    "en": (
        "The clock of round 1 was started and paused since this page showed it: "
        "it stays paused. Check it, then resume it."
    ),
    "es": (
        "El reloj de la ronda 1 se puso en marcha y se pausó desde que esta página lo "
        "mostró: sigue en pausa. Revísalo y luego reanúdalo."
    ),
}


@pytest.mark.parametrize("lang", ["en", "es"])
def test_start_from_a_page_before_the_clock_ran_does_not_resume_a_paused_clock(carol, lang):
    event, org = three_players(carol)
    carol.defaults["HTTP_ACCEPT_LANGUAGE"] = lang
    behind = org.page()  # round 1's clock not started: the page offers Start
    second = Client()
    second.force_login(User.objects.get(username="carol"))
    other = Organizer(second, event)
    assert other.submit("/clock/start/", within="#round-1").status_code == 302
    assert other.submit("/clock/pause/", within="#round-1").status_code == 302
    paused = event.rounds.get(number=1)
    assert paused.clock_started_at is None and paused.clock_elapsed > 0

    assert submit(carol, behind, "/clock/start/", within="#round-1").status_code == 302
    event_round = event.rounds.get(number=1)
    assert event_round.clock_started_at is None
    assert event_round.clock_elapsed == paused.clock_elapsed
    assert STAYS_PAUSED[lang] in org.text()
    # The page as it is now offers Resume, and it resumes.
    assert org.submit("/clock/start/", within="#round-1").status_code == 302
    assert event.rounds.get(number=1).clock_started_at is not None
