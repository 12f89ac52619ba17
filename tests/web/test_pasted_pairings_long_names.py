"""Pasted pairings (the event page's form): a name past 60 characters is
refused whichever seat it is in, player B's as player A's, and nothing is
created. Only A's was checked: B's long name was created as typed (and on
PostgreSQL the seat's column refused it with a 500)."""

from __future__ import annotations

import pytest
from bs4 import BeautifulSoup

from tests.web.rendered_forms import submit
from tracker.models import Match, TournamentEvent

pytestmark = pytest.mark.django_db

REFUSED = "Line 2: a player's name is too long (at most 60 characters)."


@pytest.mark.parametrize("seat", ["A", "B"])
def test_a_long_name_in_either_seat_is_refused_and_nothing_is_created(carol, seat):
    event = TournamentEvent.objects.create(name="Spring Open", date="2026-04-18")
    long_name = "x" * 61
    pair = f"Bob, {long_name}" if seat == "B" else f"{long_name}, Bob"
    url = f"/organizer/events/{event.pk}/"
    page = carol.get(url).content.decode()
    response = submit(carol, page, url, at=url, pairings=f"1, Ana, Carla\n2, {pair}")
    assert response.status_code == 400
    text = " ".join(BeautifulSoup(response.content.decode(), "lxml").get_text(" ").split())
    assert REFUSED in text
    assert not Match.objects.exists()
