"""A seat's budget of wrong PINs (issue 22) counts PINs only: text that is
not a PIN at all (letters, a pasted word) is refused as wrong without being
checked, so it spends nothing of the budget and the player's right PIN
still moves the seat afterwards."""

import pytest
from django.test import Client

from tracker.models import Seat

from .rendered_forms import submit_on
from .table import claim, create_match

pytestmark = pytest.mark.django_db


def seat_url(match, letter):
    return f"/m/{match.code}/s/{match.seats.get(letter=letter).token}/"


def test_text_that_is_no_pin_spends_nothing_of_the_seats_budget(alice, mallory, settings):
    settings.SEAT_PIN_BUDGET = 3
    match = create_match(alice)
    claim(alice, match, "A", "Alice", pin="582914")
    for typed in ("abcdef", "58291a", "pin", "five"):
        refused = submit_on(mallory, seat_url(match, "A"), "card", pin=typed)
        assert refused.status_code == 403
        assert "That PIN is not right." in refused.content.decode()
    assert Seat.objects.get(match=match, letter="A").failed_pins == 0
    new_phone = Client()
    moved = submit_on(new_phone, seat_url(match, "A"), "card", pin="582914")
    assert moved.status_code == 302
    assert "You: Alice" in new_phone.get(f"/m/{match.code}/").content.decode()


def test_the_right_pin_spends_nothing_of_the_budget_however_often_it_moves_the_seat(
    alice, settings
):
    """Each try takes a unit before the PIN is checked, and a right PIN gives
    it back: the owner moving her seat from phone to phone more times than
    the budget holds is never locked out."""
    settings.SEAT_PIN_BUDGET = 2
    match = create_match(alice)
    claim(alice, match, "A", "Alice", pin="582914")
    for _ in range(settings.SEAT_PIN_BUDGET + 2):
        new_phone = Client()
        moved = submit_on(new_phone, seat_url(match, "A"), "card", pin="582914")
        assert moved.status_code == 302
        assert "You: Alice" in new_phone.get(f"/m/{match.code}/").content.decode()
    assert Seat.objects.get(match=match, letter="A").failed_pins == 0
