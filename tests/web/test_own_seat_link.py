"""A player who opens their own seat's link again (scans the code a second
time, taps an old message) is taken to their match, not asked for the PIN
of the seat they already hold."""

import pytest

from .table import claim, create_match

pytestmark = pytest.mark.django_db


def test_opening_the_seat_link_you_hold_goes_to_your_match(alice):
    match = create_match(alice)
    claim(alice, match, "A", "Alice")
    link = f"/m/{match.code}/s/{match.seats.get(letter='A').token}/"
    response = alice.get(link)
    assert response.status_code == 302 and response["Location"] == f"/m/{match.code}/"
    page = alice.get(link, follow=True).content.decode()
    assert "You: Alice" in page
    assert 'name="pin"' not in page
