"""A PIN typed in another script's digits: full-width "７３９１６４" (a
Japanese or Chinese keyboard left in full-width mode) or Persian "۷۳۹۱۶۴"
(a Persian keyboard's own digits). The claim took it, stored as typed, and
the same PIN typed later on a new phone, whose keypad gives 0-9, was "not
right" and spent the seat's budget: the player was locked out of her own
seat. Digits are digits, whichever keyboard typed them."""

from __future__ import annotations

import pytest
from django.test import Client

from tracker.models import Seat

from .rendered_forms import submit_on
from .table import claim, create_match
from .test_seats import seat_url

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize(
    ("claimed_with", "moved_with"),
    [("７３９１６４", "739164"), ("739164", "۷۳۹۱۶۴"), ("٧٣٩١٦٤", "７３９１６４")],
)
def test_a_pin_moves_the_seat_whichever_keyboard_typed_its_digits(alice, claimed_with, moved_with):
    match = create_match(alice)
    claim(alice, match, "A", "Alice", pin=claimed_with)
    new_phone = Client()
    response = submit_on(new_phone, seat_url(match, "A"), "card", pin=moved_with)
    assert response.status_code == 302
    assert "You: Alice" in new_phone.get(f"/m/{match.code}/").content.decode()
    assert Seat.objects.get(match=match, letter="A").failed_pins == 0
