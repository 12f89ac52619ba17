"""A player's claim sent twice from her phone keeps her seat (round 1 of a
venue, bench/claim_round.py).

At a round's start every phone of the venue claims its seat at once, and a
claim may wait many seconds for a thread. A player who sees nothing happen
taps "Take this seat" again (or goes Back and taps it again): the browser
drops the first request and shows the second's answer. The first one had
taken the seat, but its answer, which carried the session holding the seat,
never reached the phone. The second was answered "Someone else took this
seat a moment ago." and the PIN form: the player was locked out of her own
seat by her own tap (1 phone of 300 in the bench with a fifth of them
tapping twice). Now the same browser's claim, with the PIN it set, is known
as its own: the phone holds the seat and the log has one claim, no move.
Another phone's claim with the same PIN is still a move, in the log.
"""

from __future__ import annotations

from urllib.parse import urlparse

import pytest

from tracker import seats
from tracker.models import MatchEvent

from .phone import Phone

pytestmark = pytest.mark.django_db

TAKEN = {
    "en": "Someone else took this seat a moment ago.",
    "es": "Otra persona acaba de ocupar este asiento.",
}
ALREADY = {
    "en": "Your first tap had already taken this seat: it is yours, on this phone.",
    "es": "Tu primer toque ya había ocupado este asiento: es tuyo, en este móvil.",
}


def claim_form(phone: Phone, link: str):
    phone.visit(urlparse(link).path)
    [form] = [f for f in phone.forms() if "pin" in f.names()]
    return form


def seat_shown(phone: Phone) -> str | None:
    live = phone.soup.select_one("#live")
    return live.get("data-seat") if live is not None else None


def claims_logged(code: str) -> list[str]:
    """The log's seat lines: claims and moves."""
    return list(
        MatchEvent.objects.filter(match__code=code, kind__in=("SeatClaimed", "SeatMoved"))
        .order_by("seq")
        .values_list("kind", flat=True)
    )


def sent_again_without_its_answer(player: Phone, form, cookies: list) -> None:
    """The browser dropped the first send's answer (a second tap replaced
    the request): its new session cookie never arrived, and the same form
    goes again from the cookies held before the first tap."""
    player.app.cookiejar.clear()
    for cookie in cookies:
        player.app.cookiejar.set_cookie(cookie)
    player.send(form)


def holds_seat_a(player: Phone, code: str) -> bool:
    player.open(code)
    return seat_shown(player) == "A" and player.can("draft/add")  # her own list's form


@pytest.mark.parametrize("language", ["en", "es"])
def test_the_same_claim_sent_again_keeps_the_seat_with_no_move_in_the_log(language):
    host = Phone(language)
    links = host.create_match(name="Mesa 7")
    player = Phone(language)
    form = claim_form(player, links["A"])
    form.fill({"name": "Alicia"})
    cookies = list(player.app.cookiejar)  # what the browser holds before the tap
    player.send(form)
    assert seat_shown(player) == "A"
    sent_again_without_its_answer(player, form, cookies)
    assert ALREADY[language] in player.text
    assert seat_shown(player) == "A"
    assert holds_seat_a(player, host.code)
    # One claim in the log: no "moved their seat to another phone".
    assert claims_logged(host.code) == ["SeatClaimed"]
    # Another phone's claim form with the PIN is still a move, in the log.
    other = Phone(language)
    other.visit(urlparse(links["A"]).path)
    [move] = [f for f in other.forms() if "pin" in f.names()]
    [pin] = [value for name, value in form.fields() if name == "pin"]
    move.fill({"pin": pin})
    other.send(move)
    assert claims_logged(host.code) == ["SeatClaimed", "SeatMoved"]
    assert not holds_seat_a(player, host.code)


@pytest.mark.parametrize("language", ["en", "es"])
def test_both_taps_read_the_seat_free_and_the_second_is_not_told_it_is_taken(language, monkeypatch):
    host = Phone(language)
    links = host.create_match(name="Mesa 9")
    player = Phone(language)
    form = claim_form(player, links["A"])
    form.fill({"name": "Alicia"})
    # The first tap: the same browser's request, whose answer it drops.
    first_tap = Phone(language)
    for cookie in player.app.cookiejar:
        first_tap.app.cookiejar.set_cookie(cookie)
    pending = [first_tap]
    real_hash = seats._pin_hash

    def first_tap_lands_meanwhile(session, typed):
        # The second tap read the seat free, as the first did; the first
        # commits while the second hashes its PIN (outside the lock).
        if pending:
            pending.pop().send(form)
        return real_hash(session, typed)

    monkeypatch.setattr(seats, "_pin_hash", first_tap_lands_meanwhile)
    player.send(form)  # the second tap, whose answer the browser shows
    assert not pending
    assert TAKEN[language] not in player.text
    assert ALREADY[language] in player.text
    assert holds_seat_a(player, host.code)
    assert claims_logged(host.code) == ["SeatClaimed"]


@pytest.mark.parametrize("language", ["en", "es"])
def test_the_tap_whose_answer_is_shown_keeps_the_seat_whichever_took_it(language, monkeypatch):
    """The other order: the send whose answer the browser shows took the
    seat, and the dropped one, which had read the seat free too, comes
    second. It must not take the seat from the session the phone got."""
    host = Phone(language)
    links = host.create_match(name="Mesa 10")
    player = Phone(language)
    form = claim_form(player, links["A"])
    form.fill({"name": "Alicia"})
    dropped = Phone(language)  # the same browser's other send; its answer is lost
    for cookie in player.app.cookiejar:
        dropped.app.cookiejar.set_cookie(cookie)
    pending = [player]
    real_hash = seats._pin_hash

    def shown_tap_lands_meanwhile(session, typed):
        if pending:
            pending.pop().send(form)
        return real_hash(session, typed)

    monkeypatch.setattr(seats, "_pin_hash", shown_tap_lands_meanwhile)
    dropped.send(form)
    assert not pending
    assert holds_seat_a(player, host.code)
    assert claims_logged(host.code) == ["SeatClaimed"]


def test_the_same_browser_sending_the_claim_again_with_another_pin_does_not_take_the_seat():
    """The claim sent again is known as its own only with the PIN it set:
    the form sent from the same browser with another PIN is not that claim
    (whoever typed it does not know the seat's PIN): it is a wrong PIN for
    the seat someone took, and its session does not hold the seat."""
    host = Phone()
    links = host.create_match(name="Mesa 8")
    player = Phone()
    form = claim_form(player, links["A"])
    form.fill({"name": "Alicia"})
    [pin] = [value for name, value in form.fields() if name == "pin"]
    cookies = list(player.app.cookiejar)
    player.send(form)
    assert seat_shown(player) == "A"
    form.fill({"pin": "".join(str((int(d) + 1) % 10) for d in pin)})
    sent_again_without_its_answer(player, form, cookies)
    assert "That PIN is not right." in player.text and ALREADY["en"] not in player.text
    assert not holds_seat_a(player, host.code)
    assert claims_logged(host.code) == ["SeatClaimed"]


def test_a_claim_sent_again_after_the_seat_moved_on_is_a_move_not_the_first_claim():
    """Known as its own only while the seat is still held by that claim:
    once the seat moved to another phone, the same browser's claim sent
    again (with the right PIN) moves it back, in the log, rather than being
    told the seat is its own while the other phone holds it."""
    host = Phone()
    links = host.create_match(name="Mesa 6")
    player = Phone()
    form = claim_form(player, links["A"])
    form.fill({"name": "Alicia"})
    [pin] = [value for name, value in form.fields() if name == "pin"]
    cookies = list(player.app.cookiejar)
    player.send(form)
    tablet = Phone()
    tablet.visit(urlparse(links["A"]).path)
    [move] = [f for f in tablet.forms() if "pin" in f.names()]
    move.fill({"pin": pin})
    tablet.send(move)
    assert holds_seat_a(tablet, host.code)
    sent_again_without_its_answer(player, form, cookies)
    assert ALREADY["en"] not in player.text
    assert holds_seat_a(player, host.code)
    assert not holds_seat_a(tablet, host.code)
    assert claims_logged(host.code) == ["SeatClaimed", "SeatMoved", "SeatMoved"]
