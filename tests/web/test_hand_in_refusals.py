"""Handing a list to the event's organizer from a match (tracker/
handed_lists.py) takes a list with troopers only: a hand-in of an empty
draft, which the page never offers, is refused and hands nothing in, so the
player can still hand their real list in once."""

import pytest

from tracker.models import HandedList, TournamentEvent

from .phone import Phone
from .test_handed_list_keeps_drafts import pair_round, seat_link

pytestmark = pytest.mark.django_db


def test_attack_an_empty_draft_is_not_handed_in(carol):
    assert carol.post("/organizer/events/", {"name": "Spring Open", "date": "2026-04-18"})
    spring = TournamentEvent.objects.get(name="Spring Open")
    match = pair_round(carol, spring, 1)
    alice = Phone()
    alice.claim(seat_link(match), "Alice Arroyo")
    assert not alice.forms("draft/hand")  # nothing to hand in: no button
    refused = alice.app.post(
        f"/m/{match.code}/draft/hand/",
        {},
        headers={"X-CSRFToken": alice.app.cookies["csrftoken"], "HX-Request": "true"},
        expect_errors=True,
    )
    assert "Add troopers to your list before handing it in." in refused.text
    assert not HandedList.objects.exists()
    alice.open()
    alice.submit("draft/add", name="Kaplan", cost="20")
    alice.submit("draft/hand")
    assert alice.error is None
    assert [row["name"] for row in HandedList.objects.get().rows] == ["Kaplan"]
