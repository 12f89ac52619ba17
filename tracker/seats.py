"""Who a browser is in a match: seat A, seat B, or nobody (spectator).

Claiming a seat stores a random holder key in the browser's session and its
hash on the seat. The seat link alone never lets a second browser in (the
opponent may have seen the QR code); the PIN moves the seat to a new phone.

Seats belong to their players (issue 22): a browser that has held a seat of
a match is a player of it, and never hands a seat of it to a new phone nor
takes the other seat once that one has been claimed. The session's holder
keys are never removed, so they also say which seats it has ever held.
"""

from __future__ import annotations

import hashlib
import secrets
import unicodedata

from django.conf import settings
from django.contrib.auth.hashers import (
    PBKDF2PasswordHasher,
    check_password,
    get_hasher,
    make_password,
)
from django.core.cache import cache
from django.db import transaction
from django.db.models import F
from django.utils import timezone
from django.utils.crypto import constant_time_compare, salted_hmac

from tracker.compiled_queries import CompiledQuery
from tracker.models import Match, Seat, new_token

SESSION_KEY = "seat_holders"
# The PIN the claim form last offered this browser (an HMAC of it).
OFFERED_KEY = "offered_pin"


def _digest(key: str) -> str:
    return hashlib.sha256(key.encode()).hexdigest()


def _holders(session) -> dict:
    return session.get(SESSION_KEY) or {}


def held_seat(session, match: Match | None, rows: list[Seat] | None = None) -> Seat | None:
    """The Seat row this session holds in `match`, if any (one query, none
    when the caller passes the match's seat rows it has just read)."""
    holders = _holders(session)
    for seat in match.seats.all() if rows is None else rows:
        key = holders.get(str(seat.pk))
        if key and seat.holder_hash and secrets.compare_digest(_digest(key), seat.holder_hash):
            return seat
    return None


# A match's seat rows with the match, by its code: every tap's first read.
_SEATS_BY_CODE = CompiledQuery(
    lambda code: Seat.objects.select_related("match").filter(match__code=code), "code"
)


def match_and_seat(session, code: str) -> tuple[Match | None, Seat | None]:
    """The match with this code and the Seat row this session holds in it,
    in one query (the match comes with its seat rows), besides the
    session's own. (None, None) for no such match. The seat rows carry the
    returned Match as their `match`."""
    rows = _SEATS_BY_CODE.models(code)
    if not rows:
        # A match has its two seats from its creation (actions.create_match):
        # without any, it is unknown, or a row made by hand (tests).
        match = Match.objects.filter(code=code).first()
        return match, None
    match = rows[0].match
    for row in rows:
        row.match = match
    return match, held_seat(session, match, rows)


def has_sat(session, match: Match) -> bool:
    """Whether this session holds or has ever held a seat of `match`: it
    claimed one or moved one here with its PIN, even if the seat has moved
    on since. Such a browser is a player of the match, not a third party."""
    holders = _holders(session)
    return any(str(pk) in holders for pk in match.seats.values_list("pk", flat=True))


def moved_away(session, rows: list[Seat]) -> bool:
    """Whether this session held a seat among `rows` (a match's seat rows,
    as read) and holds none of them now: its seat moved to another phone
    (its PIN, a hand-off). No query. Its page says so: before, the buttons
    went and only "watching as a spectator" said why."""
    holders = _holders(session)
    return any(str(row.pk) in holders for row in rows) and held_seat(session, None, rows) is None


def sat_elsewhere(session, seat: Seat) -> bool:
    """Whether this session holds or has held another seat of `seat`'s match."""
    holders = _holders(session)
    others = Seat.objects.filter(match_id=seat.match_id).exclude(pk=seat.pk)
    return any(str(pk) in holders for pk in others.values_list("pk", flat=True))


def seat_of(session, match: Match) -> str | None:
    """The seat letter this session holds in `match`, if any."""
    seat = held_seat(session, match)
    return seat.letter if seat is not None else None


def _hold(session, seat: Seat, key: str | None = None) -> str:
    # A new session id whenever a seat is claimed or moved here (Django's own
    # session-fixation defence, as login() does): an id planted in the
    # victim's browser beforehand no longer names the session holding the seat.
    session.cycle_key()
    session.pop(OFFERED_KEY, None)  # offered once: a later claim gets a new one
    key = key or secrets.token_urlsafe(32)
    holders = dict(_holders(session))
    holders[str(seat.pk)] = key
    session[SESSION_KEY] = holders
    return _digest(key)


class _DrawnPinHasher(PBKDF2PasswordHasher):
    """PBKDF2 as Django's, stretched less: for a PIN the server drew."""

    iterations = 10_000


def offer(session, pin: str) -> None:
    """The claim form offers this browser `pin`, drawn by the server
    (forms.random_pin)."""
    session[OFFERED_KEY] = _offered_digest(pin)


def _offered_digest(pin: str) -> str:
    return salted_hmac("tracker.seats.offered_pin", pin).hexdigest()


def _pin_hash(session, pin: str) -> str:
    """The PIN's hash for the seat. A PIN its player chose may be one they
    use elsewhere: it gets Django's full stretching (PBKDF2, a million
    rounds, about half a second of a core), so that a copy of the database
    does not give it away cheaply. A PIN the server drew and this browser
    kept is used nowhere else and is worth no more than the seat it moves,
    whose guard is its budget of wrong tries (move): 10,000 rounds, a few
    milliseconds (issue 18: at a round's start every player of the venue
    claims a seat; 300 full hashes would take one to two minutes of a core (from single-hash timings), while
    every table's first taps waited for a thread)."""
    offered = session.get(OFFERED_KEY)
    drawn = offered and constant_time_compare(offered, _offered_digest(pin))
    # (Only where PBKDF2 is the hasher in force: check_password knows it.)
    if drawn and get_hasher().algorithm == _DrawnPinHasher.algorithm:
        return make_password(pin, hasher=_DrawnPinHasher())
    return make_password(pin)


# How long a claim is known as its browser's (claim's `browser`): a phone
# that tapped "Take this seat" again while the venue's burst kept the first
# tap waiting sends it again within this.
CLAIM_REPEAT_SECONDS = 600


def _claimed_by_key(seat: Seat) -> str:
    return f"tracker:claimed-by:{seat.pk}:{seat.token}"


def _browser_digest(browser: str) -> str:
    return salted_hmac("tracker.seats.claimed_by", browser).hexdigest()


def pin_digits(pin: str) -> str:
    """The PIN with every script's digits read as 0-9: full-width "７"
    (a Japanese or Chinese keyboard in full-width mode) or Persian "۷" is
    the 7 a new phone's keypad types when the seat is moved to it."""
    return "".join(str(unicodedata.decimal(c, c)) for c in pin)


def claim(session, seat: Seat, pin: str, browser: str = "") -> bool:
    """Take an unclaimed seat for this session. False if someone was first.
    `browser`: a secret only the claiming browser holds (its CSRF cookie):
    for a while, the same claim sent again from it is known as its own
    (repeated_claim)."""
    # The hash before the transaction: on SQLite a transaction holds the one
    # write lock from its start, and every tap at the venue waited behind a
    # full PIN hash (issue 18). A claim that loses the race has hashed for
    # nothing, which costs no one else.
    pin_hash = _pin_hash(session, pin_digits(pin))
    key = secrets.token_urlsafe(32)
    with transaction.atomic():
        fresh = Seat.objects.select_for_update().get(pk=seat.pk)
        if fresh.claimed:
            return False
        fresh.holder_hash = _hold(session, fresh, key)
        fresh.pin_hash = pin_hash
        fresh.claimed_at = timezone.now()
        fresh.save(update_fields=["holder_hash", "pin_hash", "claimed_at"])
    if browser:
        # Beside the sessions, which hold such keys too (the same cache).
        claimed_by = {"browser": _browser_digest(browser), "key": key}
        cache.set(_claimed_by_key(fresh), claimed_by, CLAIM_REPEAT_SECONDS)
    return True


def repeated_claim(session, seat: Seat, pin: str, browser: str) -> bool:
    """The claim form sent again by the browser whose other send took the
    seat, with the PIN it set: the player tapped "Take this seat" twice (or
    went Back and tapped it again) while the first tap waited in a busy
    venue's queue. The browser shows one send's answer and drops the
    other's, whichever came first, with the session it carried; so this
    session holds the seat with the same holder key as the claim's (the
    seat is unchanged, and the claim's session keeps it too), and the log
    has no line of its own: one claim, one browser. True if so; anything
    else is someone else's claim, which this one lost."""
    known = cache.get(_claimed_by_key(seat)) if browser else None
    if not known or not constant_time_compare(known["browser"], _browser_digest(browser)):
        return False
    fresh = Seat.objects.filter(pk=seat.pk, token=seat.token).first()
    if (
        fresh is None
        # Still held by that claim (not moved on since) ...
        or not secrets.compare_digest(fresh.holder_hash, _digest(known["key"]))
        # ... with the PIN it set (the same form sent again carries it).
        or not check_password(pin_digits(pin), fresh.pin_hash)
    ):
        return False
    _hold(session, fresh, known["key"])
    return True


MOVED, WRONG, SPENT = "moved", "wrong", "spent"


def move(session, seat: Seat, pin: str) -> str:
    """Move a claimed seat to this session if the PIN is right (MOVED); the
    old phone loses it. WRONG: the PIN was checked and is not right. SPENT:
    the seat's budget of wrong PINs is spent and the PIN was not checked.

    The budget is per seat and lasts as long as its PIN (issue 22), whoever
    guesses and from wherever: a venue is one address and cookies are free,
    so neither tells the owner from her opponent. Each try takes one unit of
    the budget before the PIN is checked (an atomic update, so a burst of
    parallel guesses cannot all slip under it) and a right PIN gives it
    back. Guesses never cost the owner anything until the budget is spent;
    after that only an organizer or an unseated host hands the seat on
    (`hand_off`, which sets a new PIN and a new budget). The seat itself
    stays on the phone that holds it."""
    budget = settings.SEAT_PIN_BUDGET
    rows = Seat.objects.filter(pk=seat.pk, token=seat.token)
    if not rows.filter(failed_pins__lt=budget).update(failed_pins=F("failed_pins") + 1):
        # Still counted: the host page shows every try, not only those checked.
        rows.update(failed_pins=F("failed_pins") + 1)
        return SPENT
    if not seat.pin_hash or not check_password(pin_digits(pin), seat.pin_hash):
        return WRONG
    with transaction.atomic():
        fresh = Seat.objects.select_for_update().get(pk=seat.pk)
        if fresh.token != seat.token or fresh.pin_hash != seat.pin_hash:
            return WRONG  # handed to a new phone while this PIN was checked
        fresh.holder_hash = _hold(session, fresh)
        fresh.failed_pins = max(0, fresh.failed_pins - 1)  # a right PIN is no wrong try
        fresh.save(update_fields=["holder_hash", "failed_pins"])
    return MOVED


def wrong_pins(seat: Seat) -> int:
    """PIN tries that failed on this seat since its PIN was set, from anyone:
    every one, checked or refused unchecked (read from the caller's row)."""
    return seat.failed_pins


def pins_spent(seat: Seat) -> bool:
    """Whether the seat's PIN no longer moves it (its budget is spent)."""
    return seat.failed_pins >= settings.SEAT_PIN_BUDGET


def holder_mark(seat: Seat) -> str:
    """Which holder a page showed for this seat: a hand-off button carries
    it, so one from a page behind (a second laptop's sheet, a send tapped
    again) does not hand off the phone the seat went to since. No secret in
    it: a digest of the link and the holder, which both change then."""
    return salted_hmac("tracker.seats.holder_mark", f"{seat.token}:{seat.holder_hash}").hexdigest()[
        :20
    ]


def hand_off(seat: Seat) -> Seat:
    """An organizer or an unseated host gives a seat to a new phone (its
    holder's phone died, or the PIN is forgotten, or spent): a fresh seat
    link, shown only on their page, and the seat free for whoever opens that
    link first, who sets a new PIN with a new budget. The old link and PIN
    stop working and the old phone loses the seat. The caller logs who did
    it (actions.record_hand_off) before calling this."""
    with transaction.atomic():
        fresh = Seat.objects.select_for_update().get(pk=seat.pk)
        fresh.token = new_token()
        fresh.holder_hash = ""
        fresh.pin_hash = ""
        fresh.failed_pins = 0
        fresh.save(update_fields=["token", "holder_hash", "pin_hash", "failed_pins"])
    return fresh


def too_many_guesses(request, scope: str) -> bool:
    """Count one guess (a wrong seat link) for this client address and say
    whether it is over the limit for the window. Our own counter rather than
    django-ratelimit's: its windows are fixed slots of the clock, so a limit
    could reset a moment after the first guess; here the window starts with
    the first guess."""
    address = request.META.get("REMOTE_ADDR", "?")
    return _count(f"guess:{scope}:{address}") > settings.GUESS_LIMIT


def _count(key: str) -> int:
    cache.add(key, 0, settings.GUESS_WINDOW_SECONDS)
    try:
        return cache.incr(key)
    except ValueError:
        cache.set(key, 1, settings.GUESS_WINDOW_SECONDS)
        return 1
