"""A list handed to the organizer is outside the log: the hand-in moves no
seq, so the render kept for the player's page (rendering._key) holds
whether the list is handed. Reloaded after the hand-in, the page says the
list is with the organizer and offers no second hand-in (the kept render,
from before it, offered one)."""

import pytest

from .phone import Phone
from .test_handed_list_keeps_drafts import open_event, pair_round, seat_link

pytestmark = pytest.mark.django_db


def test_the_page_reloaded_after_the_hand_in_offers_no_second_one(carol):
    spring = open_event(carol, "Spring Open")
    match = pair_round(carol, spring, 1)
    alice = Phone()
    alice.claim(seat_link(match), "Alice Arroyo")
    alice.submit("draft/add", name="Kaplan", cost="20")
    assert alice.error is None
    alice.open()
    assert alice.soup.select("form.hand-in")
    alice.submit("draft/hand")  # (and the page reloaded, as the phone does)
    assert alice.error is None
    alice.open()
    assert not alice.soup.select("form.hand-in")
    assert alice.soup.select("p.handed")
