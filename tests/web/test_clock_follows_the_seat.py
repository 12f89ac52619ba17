"""The round clock's words once time is called depend on the phone's seat
(tracker/event_clock.todo_at_time): the seat asked to confirm a proposed
result is told so, the proposer and a spectator are asked nothing. A socket
keeps what the clock on its phone was rendered from (clock_key) and sends
the clock again only when the table or the phone's seat changes it
(consumers.MatchConsumer._clock_follows):

- a phone that wakes with a result to confirm gets the clock once, in its
  first frame, not a second time after it;
- a phone whose seat moves to another phone with its PIN is a spectator
  from that push on, and its clock says so (nothing to confirm), in its
  language."""

from __future__ import annotations

import pytest
from asgiref.sync import sync_to_async
from bs4 import BeautifulSoup

from tests.web.phone import Phone
from tests.web.test_event_round_checks import all_lists_in, event_of, publish
from tests.web.test_event_running import ok, pairings_of, seat_phone
from tests.web.test_round_clock_runs_out import connected, socket_of
from tests.web.test_round_clock_says_what_is_true import CALLED, CONFIRM, into_play

pytestmark = pytest.mark.django_db(transaction=True)


def clock_words(frame: str) -> str | None:
    clock = BeautifulSoup(frame, "lxml").select_one("#round-clock")
    return None if clock is None else " ".join(clock.get_text(" ").split())


def proposed_after_time(carol, language_a: str, language_b: str):
    """One table in play, time called, A proposes a result: B's phone is
    asked to confirm it (CL: the result rules, rules/results.py)."""
    event, org = event_of(carol, "Ana, PanOceania\nBea, Yu Jing", name="Torneo de otoño")
    all_lists_in(org, ["Ana", "Bea"])
    publish(org, seed=3)
    [(_table, match, first, _b)] = pairings_of(event, 1)
    a, b = seat_phone(carol, match, "A", language_a), seat_phone(carol, match, "B", language_b)
    into_play(a, b, first)
    assert org.submit("/clock/call/", within="#round-1").status_code == 302
    ok(a, "ProposeResult", objective_a=6, objective_b=2, army_a=20, army_b=40)
    return match, a, b


async def test_a_phone_waking_with_a_result_to_confirm_gets_the_clock_once(carol):
    match, a, b = await sync_to_async(proposed_after_time)(carol, "en", "es")
    for phone, words in ((b, CONFIRM["es"]), (a, CALLED["en"])):
        socket = socket_of(phone)
        assert (await socket.connect())[0]
        first = await socket.receive_from(timeout=5)
        assert 'id="seq"' in first
        assert clock_words(first) == words
        # What the clock was rendered from is what the blocks found: no
        # second clock follows the first frame.
        assert await socket.receive_nothing(timeout=0.3)
        await socket.disconnect()


async def test_a_seat_moved_away_takes_the_confirm_line_from_the_old_phone(carol):
    match, a, b = await sync_to_async(proposed_after_time)(carol, "en", "es")
    old = await connected(b)

    def move_seat_b() -> Phone:
        # The player opens their seat link on a new phone and moves the
        # seat there with its PIN (the one seat_phone claimed it with).
        token = match.seats.get(letter="B").token
        new = Phone("es")
        new.visit(f"/m/{match.code}/s/{token}/")
        [rendered] = [f for f in new.forms() if "pin" in f.names()]
        rendered.fill({"pin": "739164"})
        new.send(rendered)  # on to the match page, seat B's
        assert new.code == match.code
        new.open()
        assert new.can("ConfirmResult")
        return new

    new = await sync_to_async(move_seat_b)()
    frames = []
    while not any('id="round-clock"' in f for f in frames):
        frames.append(await old.receive_from(timeout=5))
    [clock] = [f for f in frames if 'id="round-clock"' in f]
    # The old phone watches now: time is called, and nothing is asked of it.
    assert clock_words(clock) == CALLED["es"]
    assert await old.receive_nothing(timeout=0.3)
    await old.disconnect()

    # The new phone's first frame asks it to confirm.
    fresh = socket_of(new)
    assert (await fresh.connect())[0]
    assert clock_words(await fresh.receive_from(timeout=5)) == CONFIRM["es"]
    await fresh.disconnect()


async def test_a_resync_after_a_hand_off_carries_the_clock_of_the_phones_seat_now(carol):
    """An organizer's hand-off logs its event, then takes the seat (views:
    record_hand_off, then seats.hand_off): the old phone's push for that
    event may render before the seat is taken and still find it B's. Its
    next resync renders the seat as it is, and the clock in that one frame
    is rendered for that seat, not for the one the socket found last: a
    spectator's words, once, with no second clock to mend the first."""
    from tracker import actions, seats
    from tracker.models import Match, Seat
    from tracker.rules.setup import BY_ORGANIZER

    match, a, b = await sync_to_async(proposed_after_time)(carol, "en", "es")
    old = await connected(b)
    # The hand-off's event, pushed to the old phone while it still holds B.
    match = await sync_to_async(Match.objects.get)(pk=match.pk)  # as the view reads it
    assert await sync_to_async(actions.record_hand_off)(match, "B", BY_ORGANIZER, "carol")
    pushed = await old.receive_from(timeout=5)
    assert 'id="seq"' in pushed
    assert await old.receive_nothing(timeout=0.3)  # the same seat: the same clock
    await sync_to_async(lambda: seats.hand_off(Seat.objects.get(match=match, letter="B")))()

    await old.send_to(text_data='{"resync": true}')
    frame = await old.receive_from(timeout=5)
    assert 'id="seq"' in frame
    assert clock_words(frame) == CALLED["es"]
    assert await old.receive_nothing(timeout=0.3)
    await old.disconnect()
