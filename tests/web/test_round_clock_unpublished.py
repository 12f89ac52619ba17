"""A round's clock runs only once the round is published (issue 21): a
drawn round still being checked has no clock to start, even by a post its
page never renders."""

import pytest

from tests.web.test_event_running import Organizer
from tracker.models import TournamentEvent

pytestmark = pytest.mark.django_db


def test_attack_the_clock_of_a_drawn_unpublished_round_does_not_start(carol):
    assert carol.post("/organizer/events/", {"name": "Spring Open", "date": "2026-04-18"})
    event = TournamentEvent.objects.get(name="Spring Open")
    org = Organizer(carol, event)
    assert org.submit("/roster/paste/", players="Ana Arroyo, PanOceania\nBea Blanco, Yu Jing\n")
    assert org.submit("/rounds/draw/", seed=7).status_code == 302
    assert "/clock/start/" not in org.page()
    response = carol.post(f"/organizer/events/{event.pk}/rounds/1/clock/start/")
    assert response.status_code == 404
    drawn = event.rounds.get(number=1)
    assert drawn.published_at is None and drawn.clock_started_at is None
