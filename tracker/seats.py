"""Who a browser is in a match: seat A, seat B, or nobody (spectator).

Claiming a seat stores a random holder key in the browser's session and its
hash on the seat. The seat link alone never lets a second browser in (the
opponent may have seen the QR code); the PIN moves the seat to a new phone.
"""

from __future__ import annotations

import hashlib
import secrets

from django.conf import settings
from django.contrib.auth.hashers import check_password, make_password
from django.core.cache import cache
from django.db import transaction
from django.utils import timezone

from tracker.models import Match, Seat, new_token

SESSION_KEY = "seat_holders"


def _digest(key: str) -> str:
    return hashlib.sha256(key.encode()).hexdigest()


def _holders(session) -> dict:
    return session.get(SESSION_KEY) or {}


def held_seat(session, match: Match, rows: list[Seat] | None = None) -> Seat | None:
    """The Seat row this session holds in `match`, if any (one query, none
    when the caller passes the match's seat rows it has just read)."""
    holders = _holders(session)
    for seat in match.seats.all() if rows is None else rows:
        key = holders.get(str(seat.pk))
        if key and seat.holder_hash and secrets.compare_digest(_digest(key), seat.holder_hash):
            return seat
    return None


def seat_of(session, match: Match) -> str | None:
    """The seat letter this session holds in `match`, if any."""
    seat = held_seat(session, match)
    return seat.letter if seat is not None else None


def _hold(session, seat: Seat) -> str:
    # A new session id whenever a seat is claimed or moved here (Django's own
    # session-fixation defence, as login() does): an id planted in the
    # victim's browser beforehand no longer names the session holding the seat.
    session.cycle_key()
    key = secrets.token_urlsafe(32)
    holders = dict(_holders(session))
    holders[str(seat.pk)] = key
    session[SESSION_KEY] = holders
    return _digest(key)


def claim(session, seat: Seat, pin: str) -> bool:
    """Take an unclaimed seat for this session. False if someone was first."""
    with transaction.atomic():
        fresh = Seat.objects.select_for_update().get(pk=seat.pk)
        if fresh.claimed:
            return False
        fresh.holder_hash = _hold(session, fresh)
        fresh.pin_hash = make_password(pin)
        fresh.claimed_at = timezone.now()
        fresh.save(update_fields=["holder_hash", "pin_hash", "claimed_at"])
    return True


def move(session, seat: Seat, pin: str) -> bool:
    """Move a claimed seat to this session if the PIN is right; the old phone
    loses it.

    Wrong PINs slow the guesser, never the seat (issue 11): they are counted
    per guessing address by the view (`too_many_guesses`), which refuses that
    address for the window, and per seat (`wrong_pins`) so the host or an
    organizer can see that a seat is being guessed at and hand it to a new
    phone. A seat never refuses its right PIN because of someone else's
    guesses: an opponent who saw the QR code cannot lock its owner out."""
    if not seat.pin_hash or not check_password(pin, seat.pin_hash):
        _count(f"guess:pin-seat:{seat.pk}")
        return False
    with transaction.atomic():
        fresh = Seat.objects.select_for_update().get(pk=seat.pk)
        fresh.holder_hash = _hold(session, fresh)
        fresh.save(update_fields=["holder_hash"])
    return True


def wrong_pins(seat: Seat) -> int:
    """Wrong PINs tried on this seat in the current window, from anyone."""
    return cache.get(f"guess:pin-seat:{seat.pk}") or 0


def hand_off(seat: Seat) -> Seat:
    """The host or an organizer gives a seat to a new phone (its holder's
    phone died, or its PIN is forgotten): a fresh seat link, shown only to
    them, and the seat free for whoever opens that link first, who sets a
    new PIN. The old link and PIN stop working and the old phone loses the
    seat; the log records the move (SeatMoved) when the new phone takes it."""
    with transaction.atomic():
        fresh = Seat.objects.select_for_update().get(pk=seat.pk)
        fresh.token = new_token()
        fresh.holder_hash = ""
        fresh.pin_hash = ""
        fresh.save(update_fields=["token", "holder_hash", "pin_hash"])
    cache.delete(f"guess:pin-seat:{seat.pk}")
    return fresh


def too_many_guesses(request, scope: str) -> bool:
    """Count one guess (a wrong seat link or PIN) for this client address and
    say whether it is over the limit for the window."""
    address = request.META.get("REMOTE_ADDR", "?")
    return _count(f"guess:{scope}:{address}") > settings.GUESS_LIMIT


def _count(key: str) -> int:
    cache.add(key, 0, settings.GUESS_WINDOW_SECONDS)
    try:
        return cache.incr(key)
    except ValueError:
        cache.set(key, 1, settings.GUESS_WINDOW_SECONDS)
        return 1


def guesses_exhausted(request, scope: str) -> bool:
    address = request.META.get("REMOTE_ADDR", "?")
    return (cache.get(f"guess:{scope}:{address}") or 0) >= settings.GUESS_LIMIT
