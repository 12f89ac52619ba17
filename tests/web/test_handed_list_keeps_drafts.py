"""A list handed to the event's organizer from one match starts every other
match of that player still setting up (tracker/handed_lists.py), except a
draft the player has already started there: that draft is never overwritten.
A list is the event's: another event's matches never start from it."""

import pytest

from tracker.models import Match, Seat, TournamentEvent

from .phone import Phone
from .rendered_forms import submit_on

pytestmark = pytest.mark.django_db

PAIRINGS = "Table, Player A, Player B\n1, Alice Arroyo, Bob Bravo\n"


def open_event(carol, name: str) -> TournamentEvent:
    """Carol creates the event `name` through the form of her events page."""
    response = submit_on(carol, "/organizer/events/", "card", name=name, date="2026-04-18")
    assert response.status_code == 302
    return TournamentEvent.objects.get(name=name)


def pair_round(carol, event, number: int, pairings: str = PAIRINGS) -> Match:
    data = {
        "points_limit": 300,
        "rounds": 3,
        "mission": "Supplies",
        "pairings": pairings,
        "event_round": number,
    }
    assert submit_on(carol, f"/organizer/events/{event.pk}/", "card", **data).status_code == 302
    return Match.objects.get(event=event, event_round=number)


def seat_link(match: Match) -> str:
    return f"/m/{match.code}/s/{match.seats.get(letter='A').token}/"


def draft_names(match: Match) -> list[str]:
    return [row["name"] for row in Seat.objects.get(match=match, letter="A").draft]


def test_handing_a_list_in_leaves_a_started_draft_elsewhere_alone(carol):
    spring = open_event(carol, "Spring Open")
    first, second, untouched = (pair_round(carol, spring, n) for n in (1, 2, 3))
    alice = Phone()
    alice.claim(seat_link(second), "Alice Arroyo")
    alice.submit("draft/add", name="Fusilier", cost="10")
    assert alice.error is None
    alice.claim(seat_link(first), "Alice Arroyo")
    alice.submit("draft/add", name="Kaplan", cost="20")
    assert alice.error is None
    alice.submit("draft/hand")
    assert alice.error is None
    assert draft_names(second) == ["Fusilier"]  # started there: hers, unchanged
    # Not yet claimed there: nothing in it for whoever claims it first...
    assert draft_names(untouched) == []
    # ...but her browser, which handed the list in, starts from it there.
    alice.claim(seat_link(untouched), "Alice Arroyo")
    assert draft_names(untouched) == ["Kaplan"]


def test_a_list_handed_in_at_one_event_starts_no_match_of_another(carol):
    spring, autumn = open_event(carol, "Spring Open"), open_event(carol, "Autumn Open")
    here, elsewhere = pair_round(carol, spring, 1), pair_round(carol, autumn, 1)
    alice = Phone()
    alice.claim(seat_link(here), "Alice Arroyo")
    alice.submit("draft/add", name="Kaplan", cost="20")
    alice.submit("draft/hand")
    assert alice.error is None
    assert draft_names(elsewhere) == []  # the same name at another event: not her list there


def test_a_handed_list_is_the_players_however_the_pairings_spell_the_name(carol):
    """The organizer types "Íñigo Pérez" for round 1 and "inigo  perez" for
    round 2: one player, as the roster and the standings read names (case,
    accents and spaces folded), so the list he handed in round 1 starts his
    round 2 match, and his page there offers no second hand-in."""
    spring = open_event(carol, "Spring Open")
    spellings = {1: "Íñigo Pérez", 2: "inigo  perez"}
    first, second = (
        pair_round(carol, spring, n, f"Table, Player A, Player B\n1, {spellings[n]}, Bob Bravo\n")
        for n in (1, 2)
    )
    inigo = Phone()
    inigo.claim(seat_link(first), "Íñigo Pérez")
    inigo.submit("draft/add", name="Kaplan", cost="20")
    inigo.submit("draft/hand")
    assert inigo.error is None
    inigo.claim(seat_link(second), "Íñigo Pérez")
    assert draft_names(second) == ["Kaplan"]
    assert "draft/hand" not in {form.command for form in inigo.forms()}
    assert spring.handed_lists.count() == 1
    assert [row["name"] for row in spring.handed_lists.get().rows] == ["Kaplan"]


def test_a_handed_list_starts_only_its_players_matches_not_the_opponents_draft(carol):
    """Alice hands her list in: her round 2 draft starts from it, while Bob's
    empty drafts, at her table and at his round 2 table, stay his own."""
    spring = open_event(carol, "Spring Open")
    first, second = (pair_round(carol, spring, n) for n in (1, 2))
    alice = Phone()
    alice.claim(seat_link(first), "Alice Arroyo")
    alice.submit("draft/add", name="Kaplan", cost="20")
    alice.submit("draft/hand")
    assert alice.error is None
    alice.claim(seat_link(second), "Alice Arroyo")  # her browser: given her list
    assert draft_names(second) == ["Kaplan"]
    for match in (first, second):
        assert Seat.objects.get(match=match, letter="B").draft == []
    bob = Phone()
    bob.claim(f"/m/{first.code}/s/{first.seats.get(letter='B').token}/", "Bob Bravo")
    assert "Kaplan" not in bob.text  # his draft is empty, and hers is sealed from him


def test_a_list_handed_in_starts_her_other_seat_already_held_on_this_phone(carol):
    """Alice took her round 2 seat before handing her list in from round 1,
    on the same phone: the hand-in starts round 2's empty draft at once
    (a pasted pairing gives her no list link to open for it)."""
    spring = open_event(carol, "Spring Open")
    first, second = (pair_round(carol, spring, n) for n in (1, 2))
    alice = Phone()
    alice.claim(seat_link(second), "Alice Arroyo")
    assert draft_names(second) == []
    alice.claim(seat_link(first), "Alice Arroyo")
    alice.submit("draft/add", name="Kaplan", cost="20")
    alice.submit("draft/hand")
    assert alice.error is None
    alice.open(second.code)
    assert "Kaplan" in alice.text
    assert alice.soup.select("p.handed") and not alice.soup.select("p.handed.changed")
    assert draft_names(second) == ["Kaplan"]
