"""Seats: claiming, refusing a second browser, moving with the PIN, spectators."""

import re

import pytest
from django.test import Client

from tracker import seats
from tracker.models import Seat

from .rendered_forms import submit_on
from .table import claim, create_match, error_of

pytestmark = pytest.mark.django_db


def seat_url(match, letter):
    return f"/m/{match.code}/s/{match.seats.get(letter=letter).token}/"


def test_claiming_a_seat_shows_the_players_page(alice):
    match = create_match(alice)
    claim(alice, match, "A", "Alice")
    page = alice.get(f"/m/{match.code}/").content.decode()
    assert "You: Alice" in page
    assert Seat.objects.get(match=match, letter="A").name == "Alice"


def test_a_claimed_seat_link_lets_no_second_browser_in(alice, mallory):
    match = create_match(alice)
    claim(alice, match, "A", "Alice")
    response = mallory.get(seat_url(match, "A"))
    assert "Seat A is taken" in response.content.decode()
    # An attack: posting a claim (a name) where the page asks for a PIN changes nothing.
    mallory.post(seat_url(match, "A"), {"name": "Mallory", "pin": "0000"})
    page = mallory.get(f"/m/{match.code}/").content.decode()
    assert "You are watching as a spectator." in page
    assert "You: Alice" not in page


def test_the_pin_moves_the_seat_and_the_old_phone_loses_it(alice):
    match = create_match(alice)
    claim(alice, match, "A", "Alice", pin="582914")
    new_phone = Client()
    response = submit_on(new_phone, seat_url(match, "A"), "card", pin="582914")
    assert response.status_code == 302
    assert "You: Alice" in new_phone.get(f"/m/{match.code}/").content.decode()
    moved = "Your seat moved to another phone: this one now watches as a spectator."
    assert moved in alice.get(f"/m/{match.code}/").content.decode()


def test_a_wrong_pin_is_refused_and_changes_nothing(alice, mallory):
    match = create_match(alice)
    claim(alice, match, "A", "Alice", pin="582914")
    response = submit_on(mallory, seat_url(match, "A"), "card", pin="111211")
    assert response.status_code == 403
    assert "That PIN is not right." in response.content.decode()
    assert "You: Alice" in alice.get(f"/m/{match.code}/").content.decode()


def test_a_seats_pin_survives_its_budget_of_wrong_pins_then_is_checked_no_more(
    alice, mallory, settings
):
    settings.SEAT_PIN_BUDGET = 3
    match = create_match(alice)
    claim(alice, match, "A", "Alice", pin="582914")
    statuses = [
        submit_on(mallory, seat_url(match, "A"), "card", pin=f"{n:06d}").status_code
        for n in range(5)
    ]
    assert statuses == [403, 403, 403, 429, 429]
    # Spent: even the right PIN is not checked (else the budget stops no one),
    # and the page says who can still move the seat.
    refused = submit_on(mallory, seat_url(match, "A"), "card", pin="582914")
    assert refused.status_code == 429
    assert "its PIN no longer moves it" in refused.content.decode()
    assert "You: Alice" in alice.get(f"/m/{match.code}/").content.decode()


def test_the_claim_form_offers_a_random_pin_and_refuses_easy_ones(alice, bob):
    match = create_match(alice)
    pages = [bob.get(seat_url(match, "B")).content.decode() for _ in range(3)]
    offered = [re.search(r'name="pin" value="(\d+)"', page).group(1) for page in pages]
    assert all(len(pin) == 6 for pin in offered) and len(set(offered)) == 3
    for easy in ("123456", "000000", "987654", "121212", "123123"):
        response = submit_on(bob, seat_url(match, "B"), "card", name="Bob", pin=easy)
        assert response.status_code == 200
        assert "That PIN is too easy to guess" in response.content.decode()
    assert not Seat.objects.get(match=match, letter="B").claimed
    response = submit_on(bob, seat_url(match, "B"), "card", name="Bob", pin=offered[0])
    assert response.status_code == 302


def test_pins_are_stored_hashed(alice):
    match = create_match(alice)
    claim(alice, match, "A", "Alice", pin="987165")
    seat = Seat.objects.get(match=match, letter="A")
    assert "987165" not in seat.pin_hash and seat.pin_hash.startswith("pbkdf2_")


def test_seat_tokens_are_long_and_random(alice):
    match = create_match(alice)
    tokens = list(match.seats.values_list("token", flat=True))
    assert len(set(tokens)) == 2 and all(len(token) >= 40 for token in tokens)


def test_spectators_cannot_act(alice, bob, mallory):
    match = create_match(alice)
    claim(alice, match, "A", "Alice")
    claim(bob, match, "B", "Bob")
    response = mallory.post(f"/m/{match.code}/act/LockArmyList/", {"action_id": "abcdefgh1234"})
    assert response.status_code == 403


def test_an_unknown_seat_link_is_a_404(alice, mallory):
    match = create_match(alice)
    assert mallory.get(f"/m/{match.code}/s/not-a-real-token/").status_code == 404


def test_the_host_page_with_seat_links_is_only_for_its_creator(alice, mallory):
    match = create_match(alice)
    assert alice.get(f"/m/{match.code}/host/").status_code == 200
    assert mallory.get(f"/m/{match.code}/host/").status_code == 404


def test_a_bad_claim_form_explains_and_keeps_the_seat_free(alice, bob):
    match = create_match(alice)
    response = submit_on(bob, seat_url(match, "B"), "card", name="Bob", pin="12")
    assert response.status_code == 200
    assert "The PIN is 6 to 8 digits." in response.content.decode()
    assert not Seat.objects.get(match=match, letter="B").claimed
    assert error_of(response) is None


def test_the_match_page_renders_its_blocks_as_html_not_text(alice):
    match = create_match(alice)
    claim(alice, match, "A", "Alice")
    page = alice.get(f"/m/{match.code}/").content.decode()
    assert '<section data-h="' in page and "&lt;section" not in page


def test_two_phones_claiming_one_free_seat_at_once_seat_only_the_first(alice):
    """The race the page cannot show: both phones read the seat free, both
    submit. The claim re-checks the row under its lock, so the second is
    refused and the first keeps the seat and its PIN."""
    from django.contrib.sessions.backends.db import SessionStore

    match = create_match(alice)
    first, second = SessionStore(), SessionStore()
    row_first = Seat.objects.get(match=match, letter="B")
    row_second = Seat.objects.get(match=match, letter="B")  # read before the first claim
    assert seats.claim(first, row_first, "582914")
    assert not seats.claim(second, row_second, "111211")
    fresh = Seat.objects.get(match=match, letter="B")
    assert seats.held_seat(first, match) == fresh
    assert seats.held_seat(second, match) is None
    # The PIN kept is the first phone's.
    assert seats.move(SessionStore(), fresh, "582914") == seats.MOVED


def test_a_pin_checked_while_the_seat_is_handed_to_a_new_phone_moves_nothing(alice, monkeypatch):
    """The PIN check is slow on purpose (a password hash): an organizer may
    hand the seat to a new phone meanwhile. The old PIN, right when it was
    read, must not move the seat once the hand-off set a new link."""
    from django.contrib.sessions.backends.db import SessionStore

    match = create_match(alice)
    claim(alice, match, "A", "Alice", pin="582914")
    stale = Seat.objects.get(match=match, letter="A")
    real_check = seats.check_password

    def check_during_a_hand_off(pin, hashed):
        seats.hand_off(Seat.objects.get(pk=stale.pk))
        return real_check(pin, hashed)

    monkeypatch.setattr(seats, "check_password", check_during_a_hand_off)
    thief = SessionStore()
    assert seats.move(thief, stale, "582914") == seats.WRONG
    assert seats.held_seat(thief, match) is None
    fresh = Seat.objects.get(pk=stale.pk)
    assert not fresh.claimed and fresh.token != stale.token


def test_a_seats_pin_is_spent_at_exactly_its_budget_of_wrong_pins(alice, settings):
    match = create_match(alice)
    claim(alice, match, "A", "Alice", pin="582914")
    seat = Seat.objects.get(match=match, letter="A")
    seat.failed_pins = settings.SEAT_PIN_BUDGET - 1
    assert not seats.pins_spent(seat)
    seat.failed_pins = settings.SEAT_PIN_BUDGET
    assert seats.pins_spent(seat)
