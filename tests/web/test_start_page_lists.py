"""The installed app's start page (issue 17) lists the matches this phone
plays or created: a seat this browser held and lost (moved to a new phone
with its PIN) is no longer its match, and the new phone lists it."""

import pytest
from django.test import Client

from .rendered_forms import submit_on
from .table import claim, create_match

pytestmark = pytest.mark.django_db


def listed(client, match) -> bool:
    response = client.get("/start/")
    assert response.status_code == 200
    return f'href="/m/{match.code}/"' in response.content.decode()


def test_a_seat_moved_away_leaves_the_old_phones_start_page(alice, bob):
    host = Client()
    match = create_match(host)
    claim(alice, match, "A", "Alice", pin="582914")
    claim(bob, match, "B", "Bob")
    assert listed(alice, match) and listed(host, match)
    new_phone = Client()
    link = f"/m/{match.code}/s/{match.seats.get(letter='A').token}/"
    assert submit_on(new_phone, link, "card", pin="582914").status_code == 302
    assert listed(new_phone, match)
    assert not listed(alice, match)
    assert listed(host, match)  # the creator still finds it
