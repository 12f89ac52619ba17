"""Tests from a mutation round over the event's pages (issue 21): the round
clock's words at time, the public event page, a player's list link and the
event's audit with the phones' receipts. Each guards a behaviour a planted
mutant changed without any other test noticing; each drives the pages as
their users do (rendered forms only)."""

from __future__ import annotations

import pytest
from asgiref.sync import sync_to_async

from tests.web.phone import Phone
from tests.web.test_event_round_checks import all_lists_in, event_of, publish
from tests.web.test_event_running import ok, pairings_of, seat_phone
from tests.web.test_handed_list_keeps_drafts import open_event, pair_round, seat_link
from tests.web.test_list_state_live import _frame_saying, _socket
from tests.web.test_round_clock_says_what_is_true import CALLED, clock_of, into_play
from tests.web.test_swiss_score_distances import settle

pytestmark = pytest.mark.django_db


def test_a_result_the_organizer_settled_at_time_asks_nothing_more_of_either_phone(carol):
    """Once the organizer settles a disputed result, neither phone is told
    to report or confirm anything: the clock says only that time is called
    (event_clock.todo_at_time: settled is done, as confirmed is)."""
    event, org = event_of(carol, "Ana, PanOceania\nBea, Yu Jing", name="Open de invierno")
    all_lists_in(org, ["Ana", "Bea"])
    publish(org, seed=3)
    [(_table, match, first, _b)] = pairings_of(event, 1)
    a, b = seat_phone(carol, match, "A", "es"), seat_phone(carol, match, "B", "en")
    into_play(a, b, first)
    assert org.submit("/clock/call/", within="#round-1").status_code == 302
    ok(b, "ProposeResult", objective_a=1, objective_b=9, army_a=10, army_b=200)
    ok(a, "DisputeResult", reason="Tenía la consola")
    settle(carol, match, 5, 5, 100, 100)
    assert clock_of(a) == (CALLED["es"], None)
    assert clock_of(b) == (CALLED["en"], None)


@pytest.mark.django_db(transaction=True)
async def test_a_list_handed_in_from_one_match_shows_at_once_on_the_players_other_match(carol):
    """Alice hands her list in from her round 1 page; her round 2 page, open
    on her phone with an empty draft, starts from that list at once (its
    socket is told to draw it again: handed_lists.hand_in), not on a reload."""
    spring = await sync_to_async(open_event)(carol, "Spring Open")
    first = await sync_to_async(pair_round)(carol, spring, 1)
    second = await sync_to_async(pair_round)(carol, spring, 2)
    alice = Phone()

    def seated_with_a_draft():
        alice.claim(seat_link(second), "Alice Arroyo")
        alice.claim(seat_link(first), "Alice Arroyo")
        alice.submit("draft/add", name="Kaplan", cost="20")
        assert alice.error is None

    await sync_to_async(seated_with_a_draft)()
    socket = _socket(alice, second)
    connected, _ = await socket.connect()
    assert connected
    assert "Kaplan" not in await socket.receive_from(timeout=5)

    def hand_in():
        alice.open(first.code)
        alice.submit("draft/hand")
        assert alice.error is None

    await sync_to_async(hand_in)()
    await _frame_saying(socket, "Kaplan")
    await socket.disconnect()
