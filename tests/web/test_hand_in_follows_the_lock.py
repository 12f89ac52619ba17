"""The hand-in button of a player's match page follows the event's lock
(issue 21): the organizer locks the lists from her event page, which writes
nothing to the match's log, and Alice's next page shows that the lists are
locked instead of the button. Her blocks are cached per viewer and seq
(rendering.viewer_blocks); the lock is part of that key, so a page rendered
before it is not served after it, by the page or by a tap's answer."""

import pytest

from tests.web.phone import Phone
from tests.web.test_event_running import Organizer, take_late_list
from tests.web.test_handed_list_keeps_drafts import open_event, pair_round, seat_link
from tracker.models import HandedList, Match

pytestmark = pytest.mark.django_db

HAND_IN = "Hand this list to the organizer of Spring Open"
LOCKED = "The army lists of this event are locked"


def alice_with_a_draft(carol):
    event = open_event(carol, "Spring Open")
    match = pair_round(carol, event, 1)
    alice = Phone()
    alice.claim(seat_link(match), "Alice Arroyo")
    alice.submit("draft/add", name="Fusilier", cost="10")
    assert alice.error is None
    return event, match, alice


def test_the_page_after_the_lock_shows_it_instead_of_the_button(carol):
    event, match, alice = alice_with_a_draft(carol)
    alice.open()
    assert HAND_IN in alice.text and LOCKED not in alice.text
    seq = Match.objects.get(pk=match.pk).seq
    assert Organizer(carol, event).submit("/lists/", within=".lock-now").status_code == 302
    alice.open()
    assert Match.objects.get(pk=match.pk).seq == seq  # nothing in the log moved
    assert LOCKED in alice.text
    assert HAND_IN not in alice.text
    assert not alice.can("draft/hand")


def test_a_tap_after_the_lock_is_answered_without_the_button(carol):
    """The draft tap's answer (htmx) carries the draft block as it now is
    (a draft edit changes the key by itself: this guards the answer, not
    the lock's place in the key)."""
    event, _match, alice = alice_with_a_draft(carol)
    alice.open()
    assert Organizer(carol, event).submit("/lists/", within=".lock-now").status_code == 302
    alice.submit("draft/add", name="Bolt", cost="15")
    assert alice.error is None
    assert LOCKED in alice.text and HAND_IN not in alice.text


def test_after_the_lock_only_a_late_list_the_organizer_took_is_handed_in(carol):
    """A player on the roster is not thereby let past the lock: her hand-in,
    posted by hand with no button to tap, is refused and hands nothing in,
    until the organizer takes her late list from the run page."""
    event = open_event(carol, "Spring Open")
    org = Organizer(carol, event)
    roster = "Alice Arroyo, PanOceania\nBob Bravo, Yu Jing\n"
    assert org.submit("/roster/paste/", players=roster).status_code == 302
    match = pair_round(carol, event, 1)
    alice = Phone()
    alice.claim(seat_link(match), "Alice Arroyo")
    alice.submit("draft/add", name="Fusilier", cost="10")
    assert org.submit("/lists/", within=".lock-now").status_code == 302
    alice.open()
    assert LOCKED in alice.text and not alice.can("draft/hand")
    refused = alice.app.post(
        f"/m/{match.code}/draft/hand/",
        {},
        headers={"X-CSRFToken": alice.app.cookies["csrftoken"], "HX-Request": "true"},
        expect_errors=True,
    )
    assert LOCKED in refused.text
    assert not HandedList.objects.exists()
    take_late_list(org, "Alice Arroyo")
    alice.open()
    alice.submit("draft/hand")
    assert alice.error is None
    assert [row["name"] for row in HandedList.objects.get().rows] == ["Fusilier"]


def test_a_late_list_is_taken_from_a_table_that_types_the_name_another_way(carol):
    """The pasted pairing says "alice arróyo" where the roster says "Alice
    Arroyo": one player (case and accents folded), so the late list the
    organizer took for her is handed in from that table's seat."""
    event = open_event(carol, "Spring Open")
    org = Organizer(carol, event)
    roster = "Alice Arroyo, PanOceania\nBob Bravo, Yu Jing\n"
    assert org.submit("/roster/paste/", players=roster).status_code == 302
    pairings = "Table, Player A, Player B\n1, alice arróyo, Bob Bravo\n"
    match = pair_round(carol, event, 1, pairings)
    alice = Phone()
    alice.claim(seat_link(match), "alice arróyo")
    alice.submit("draft/add", name="Fusilier", cost="10")
    assert org.submit("/lists/", within=".lock-now").status_code == 302
    take_late_list(org, "Alice Arroyo")
    alice.open()
    assert LOCKED not in alice.text
    alice.submit("draft/hand")
    assert alice.error is None
    assert [row["name"] for row in HandedList.objects.get().rows] == ["Fusilier"]
