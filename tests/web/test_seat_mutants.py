"""Who holds a seat: behaviours a mutation round on tracker/seats.py, the
seat views and tracker/admission.py found no test watching. Each test here
fails on one small change of that code (named in the report of the round)
and passes on the code as it is.

- A browser keeps its seat keys for every match it has sat in: claiming a
  seat in a second match neither takes its seat in the first away nor makes
  it a third party there, free to hand the other seat to a new link.
- A browser that has held a seat stays a player once the seat moved away:
  its host page shows no hand-off and no link an organizer minted, and it
  may not take the other seat's new link.
- A seat link is its match's code and its token together.
- A seat handed to a new phone is taken there without a second claim.
- Wrong PINs stay counted when the owner moves the seat with the right one;
  a try on a link already handed off spends nothing of the new budget.
- The limit on wrong seat links counts per client address.
- A drawn PIN counts as drawn for the one claim it was offered to, and
  stays drawn when the claim form comes back refused.
- The start page puts first the match a seated player opened last.
- A venue's taps (one address) never count toward its page-load share, and
  a request that gave up waiting leaves no line behind it.

Players act through the forms their pages render (tests/web/phone.py);
attack steps are raw posts.
"""

from __future__ import annotations

import asyncio

import pytest

from tests.support import in_own_loop
from tracker import seats
from tracker.admission import PAGE, TAP, Admission
from tracker.models import Seat

from .phone import Phone, phone_app
from .test_admission import budgets
from .test_drawn_pins import FULL, claim_form, drawn_pin, rounds_of
from .test_seat_ownership import (
    VENUE,
    Received,
    at_venue,
    has_all,
    hosted_by_bob,
    move_here,
    organizer_phone,
    raw_post,
    saw_none,
    seat_path,
)

pytestmark = pytest.mark.django_db


def test_a_phone_seated_in_two_matches_keeps_its_seat_in_the_first():
    host = at_venue()
    first = host.create_match(name="Table 1")
    first_code = host.code
    second = host.create_match(name="Table 2")
    alice = at_venue()
    alice.claim(first["A"], "Alice", pin="913862")
    alice.claim(second["B"], "Alice", pin="604153")
    assert "You: Alice" in alice.open(first_code).text
    assert alice.can("draft/add")  # still her own army list to edit


def test_attack_a_host_who_plays_b_and_then_sits_in_another_match_still_hands_off_nothing():
    """Bob hosts and plays B; then his browser claims a seat at another
    table. He is still a player of the first match: no hand-off of A, no
    new link for it, none of Alice's secrets."""
    bob, alice, code = hosted_by_bob()
    other_host = at_venue()
    other = other_host.create_match(name="Another table")
    bob.claim(other["A"], "Bob", pin="271828")
    received = Received()
    old_link = seat_path(code, "A")
    page = received.keep(bob.visit(f"/m/{code}/host/"))
    assert "hand-off" not in page.text
    refused = received.keep(raw_post(bob, f"/m/{code}/hand-off/A/"))
    assert refused.status_code == 403
    assert seat_path(code, "A") == old_link
    assert Seat.objects.get(match__code=code, letter="A").claimed
    received.keep(bob.open(code))
    assert saw_none(received)
    assert has_all(alice)


def test_a_drawn_pin_kept_for_one_seat_is_a_chosen_pin_when_typed_on_another():
    """Two claim forms open on one phone (two tabs, two tables): the form
    loaded last drew the PIN kept for its seat. Typed into the other form,
    that PIN is the player's own choice, used twice: it gets the full
    stretching, as any PIN typed by hand."""
    host = at_venue()
    first = host.create_match(name="Table 4")
    first_code = host.code
    second = host.create_match(name="Table 5")
    player = at_venue()
    form_first = claim_form(player, first["A"])  # first tab
    form_second = claim_form(player, second["A"])  # second tab, drawn last
    pin = drawn_pin(form_second)
    form_second.fill({"name": "Ana"})
    player.send(form_second)
    assert player.error in (None, "")
    assert rounds_of(Seat.objects.get(match__code=host.code, letter="A").pin_hash) == 10_000
    form_first.fill({"name": "Ana", "pin": pin})
    player.send(form_first)
    assert player.error in (None, "")
    assert rounds_of(Seat.objects.get(match__code=first_code, letter="A").pin_hash) == FULL


def test_a_scan_from_one_address_leaves_another_addresss_mistyped_link_a_plain_404(settings):
    """The limit on wrong seat links counts per client address: a scan
    from one address is refused, and a phone elsewhere that mistypes a link
    is told the link is wrong, not to wait."""
    settings.GUESS_LIMIT = 3
    host = at_venue()
    host.create_match()
    scanner = at_venue()
    statuses = [
        scanner.app.get(f"/m/{host.code}/s/guess{n:040d}/", expect_errors=True).status_code
        for n in range(5)
    ]
    assert statuses[-1] == 429
    elsewhere = Phone(app=phone_app({"REMOTE_ADDR": "203.0.113.7"}))
    mistyped = elsewhere.app.get(f"/m/{host.code}/s/mistyped{0:037d}/", expect_errors=True)
    assert mistyped.status_code == 404
    assert "Too many wrong links" not in mistyped.text


def test_a_pin_sent_on_a_link_already_handed_off_spends_nothing_of_the_new_budget():
    """A PIN try that read the seat by its old link just before an
    organizer handed the seat to a new phone is refused, and the new PIN's
    budget starts whole: only tries on the seat's current link count."""
    from django.contrib.sessions.backends.db import SessionStore

    host = at_venue()
    links = host.create_match()
    alice = at_venue()
    alice.claim(links["A"], "Alice", pin="913862")
    stale = Seat.objects.get(match__code=host.code, letter="A")  # read by the old link
    seats.hand_off(Seat.objects.get(pk=stale.pk))
    assert seats.move(SessionStore(), stale, "400001") != seats.MOVED
    assert Seat.objects.get(pk=stale.pk).failed_pins == 0


def test_a_seat_handed_to_a_new_phone_is_taken_there_without_a_second_claim():
    """The new phone of a seat handed off is the same player: it lands on
    the match page with no refusal, and the name typed on the new phone
    renames no one (the seat was claimed once, by its player)."""
    host = at_venue()
    links = host.create_match()
    at_venue().claim(links["A"], "Alice", pin="913862")
    at_venue().claim(links["B"], "Bob", pin="580417")
    host.visit(f"/m/{host.code}/host/")
    host.submit("A")  # "Hand seat A to a new phone"
    new_phone = at_venue()
    new_phone.claim(host.seat_links()["A"], "Mallory", pin="604153")
    assert "You: Alice" in new_phone.text
    assert "already taken" not in new_phone.text
    assert Seat.objects.get(match__code=host.code, letter="A").name == "Alice"


def test_attack_a_phone_that_moved_b_away_still_may_not_take_as_new_link():
    """Bob moved seat B to his tablet with its PIN; his first phone holds
    no seat now, but it has held B: the link an organizer mints for A is
    refused there as on the tablet."""
    bob, alice, code = hosted_by_bob()
    tablet = at_venue()
    move_here(tablet, seat_path(code, "B"), "580417")
    assert "You: Bob" in tablet.open().text
    carol = organizer_phone()
    carol.visit(f"/organizer/matches/{code}/sheet/")
    carol.submit("A")  # the hand-off form of seat A
    new_link = seat_path(code, "A")
    received = Received()
    refused = received.keep(bob.app.get(new_link, expect_errors=True))
    assert refused.status_code == 403
    received.keep(raw_post(bob, new_link, {"name": "Bob", "pin": "271828"}))
    assert not Seat.objects.get(match__code=code, letter="A").claimed
    received.keep(bob.open(code))
    assert saw_none(received)


def test_attack_a_seat_link_under_another_matchs_code_is_no_seat_at_all():
    """A seat's link is its match's code and its token together: the token
    under another match's address finds nothing, so the browser holding B
    cannot take A's new link by going round A's match's own checks."""
    bob, alice, code = hosted_by_bob()
    carol = organizer_phone()
    carol.visit(f"/organizer/matches/{code}/sheet/")
    carol.submit("A")
    token = Seat.objects.get(match__code=code, letter="A").token
    elsewhere = at_venue()
    elsewhere.create_match(name="Another table")
    detour = f"/m/{elsewhere.code}/s/{token}/"
    received = Received()
    assert received.keep(bob.app.get(detour, expect_errors=True)).status_code == 404
    received.keep(raw_post(bob, detour, {"name": "Bob", "pin": "271828"}))
    assert not Seat.objects.get(match__code=code, letter="A").claimed
    received.keep(bob.open(code))
    assert saw_none(received)


def test_a_right_pin_gives_back_its_own_try_and_keeps_the_wrong_ones_counted():
    """Moving a seat with its PIN does not wipe the wrong PINs tried before
    it: else a guesser's tries would start over each time the owner moves."""
    host = at_venue()
    links = host.create_match()
    at_venue().claim(links["A"], "Alice", pin="913862")
    at_venue().claim(links["B"], "Bob", pin="580417")
    guesser = at_venue()
    wrong = [
        raw_post(guesser, seat_path(host.code, "A"), {"pin": f"{400000 + n}"}) for n in range(5)
    ]
    assert [answer.status_code for answer in wrong] == [403] * 5
    tablet = at_venue()
    move_here(tablet, seat_path(host.code, "A"), "913862")
    assert "You: Alice" in tablet.open().text
    page = host.visit(f"/m/{host.code}/host/").text
    assert "5 wrong PINs were tried on this seat since its PIN was set." in page


def test_attack_a_host_who_moved_b_away_never_sees_a_link_an_organizer_minted_for_a():
    """Bob hosts, plays B, and moves B to his tablet: his first browser
    still counts as a player. Its host page offers no hand-off and never
    shows the new link an organizer made for A (a third browser of his
    would take Alice's seat with it)."""
    bob, alice, code = hosted_by_bob()
    tablet = at_venue()
    move_here(tablet, seat_path(code, "B"), "580417")
    carol = organizer_phone()
    carol.visit(f"/organizer/matches/{code}/sheet/")
    carol.submit("A")
    new_link = seat_path(code, "A")
    page = bob.visit(f"/m/{code}/host/")
    assert new_link not in page.text
    assert "hand-off" not in page.text
    assert not Seat.objects.get(match__code=code, letter="A").claimed


def test_a_venues_taps_never_count_toward_its_share_of_page_loads():
    """Every phone at a venue is one address: its taps, however many came
    and went or are in flight, leave its page loads their whole share
    (tracker/admission.py; taps have no per-address cap)."""

    async def scenario():
        admission = Admission(slots=1)
        settings = budgets()  # 3 page loads per address
        for _ in range(5):  # taps served and done
            await admission.enter(TAP, VENUE)
            admission.leave(TAP, VENUE)
        await admission.enter(TAP, VENUE)  # one running
        waiting = [asyncio.create_task(admission.enter(TAP, VENUE)) for _ in range(2)]
        await asyncio.sleep(0)
        assert not admission.refuses(PAGE, VENUE, settings)
        for task in waiting:
            task.cancel()
        await asyncio.gather(*waiting, return_exceptions=True)
        admission.leave(TAP, VENUE)
        assert admission.by_client == {} and admission.running == 0

    in_own_loop(scenario)


def test_a_drawn_pin_kept_through_a_refused_claim_is_still_hashed_as_drawn():
    """The claim form comes back refused (no name) with the PIN it drew
    still in its field: kept as shown, that PIN is still the drawn one, and
    is hashed lightly (issue 18: no half second of a core per claim)."""
    host = at_venue()
    links = host.create_match(name="Table 6")
    player = at_venue()
    form = claim_form(player, links["A"])
    pin = drawn_pin(form)
    form.fill({"name": "   "})  # a browser sends it; the server finds no name
    player.send(form)
    assert not Seat.objects.get(match__code=host.code, letter="A").claimed
    [again] = [f for f in player.forms() if "pin" in f.names()]
    assert drawn_pin(again) == pin  # the field shows the PIN as drawn
    again.fill({"name": "Ana"})
    player.send(again)
    assert player.error in (None, "")
    assert rounds_of(Seat.objects.get(match__code=host.code, letter="A").pin_hash) == 10_000


def test_a_request_that_gave_up_waiting_leaves_no_line_behind_it():
    """A phone that stops waiting (its page load or tap cancelled in line)
    leaves its line empty: the next request of that kind, with a thread
    free, starts at once instead of waiting for a release that never
    comes."""

    async def scenario():
        admission = Admission(slots=1)
        for kind in (PAGE, TAP):
            await admission.enter(kind, VENUE)
            gone = asyncio.create_task(admission.enter(kind, VENUE))
            await asyncio.sleep(0)
            gone.cancel()
            await asyncio.gather(gone, return_exceptions=True)
            admission.leave(kind, VENUE)
            later = asyncio.create_task(admission.enter(kind, VENUE))
            await asyncio.sleep(0)
            assert later.done(), f"a {kind} with a thread free was kept waiting"
            admission.leave(kind, VENUE)
        assert admission.running == 0 and admission.by_client == {}

    in_own_loop(scenario)


def test_the_start_page_lists_first_the_match_a_seated_player_opened_last():
    """A player who is not the host finds her match again (issue 17): the
    start page puts first the match her phone opened last, not the newest."""
    host = at_venue()
    first = host.create_match(name="Table 7")
    first_code = host.code
    second = host.create_match(name="Table 8")
    second_code = host.code
    alice = at_venue()
    alice.claim(first["A"], "Alice", pin="913862")
    alice.claim(second["A"], "Alice", pin="604153")
    alice.open(first_code)
    alice.visit("/start/")
    listed = [
        anchor["href"]
        for anchor in alice.soup.select("a[href^='/m/']")
        if anchor["href"] in (f"/m/{first_code}/", f"/m/{second_code}/")
    ]
    assert listed[:1] == [f"/m/{first_code}/"]
    assert f"/m/{second_code}/" in listed
