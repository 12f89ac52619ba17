"""A tap's deadline (issue 17): no tap is applied after its phone gave up.

app.js stamps each tap's request with X-Tracker-Deadline: the moment, in
the server's clock (milliseconds since the epoch, read from the socket's
pongs, tracker/heartbeat.py), a little before the phone stops waiting for
the answer and tells the player "not saved". A request that reaches the
server later (held by a stalled Wi-Fi, or queued behind others) is refused
unapplied: only the player's "Send it again" may apply it, with the same
action id, so a send that did land is never doubled.

A request without the header (a page from before it, or a phone whose
socket never opened and so has no clock) is applied whenever it arrives,
as before; a header that is not a plain number of milliseconds counts as
none.
"""

from __future__ import annotations

import logging
import re
import time

from django.db.models import Q
from django.utils.translation import gettext as _

from tracker.models import MatchEvent
from tracker.rules.results import (
    ResultConfirmed,
    ResultDisputed,
    ResultProposed,
    ResultSettled,
)

log = logging.getLogger(__name__)

DEADLINE = re.compile(r"^[0-9]{1,15}$")


def deadline_of(request) -> float | None:
    """The tap's deadline in seconds since the epoch, or None for none."""
    found = DEADLINE.match(request.headers.get("X-Tracker-Deadline", ""))
    return int(found.group(0)) / 1000 if found else None


def is_late(request) -> bool:
    deadline = deadline_of(request)
    return deadline is not None and time.time() > deadline


# On the answer to a tap refused past its deadline (views.refused_alone).
LATE_HEADER = "X-Tracker-Late"


# On "Send it again" (static/tracker/app.js): the seq the phone showed
# when the tap was first made.
AGAIN_HEADER = "X-Tracker-Again"
SEQ = re.compile(r"[0-9]{1,15}")


# The result's events: a proposal sent again must not replace one made since.
RESULT_KINDS = tuple(
    kind.__name__ for kind in (ResultProposed, ResultConfirmed, ResultDisputed, ResultSettled)
)


def moved_on_since(request, match, seat: str) -> bool:
    """Whether this is a tap given up on and sent again by the player from a
    page her match has moved on from: since its seq, she did something else
    (on this phone or another), or the result changed. What the opponent
    does meanwhile otherwise (a State, a note) leaves her tap what it was.
    Only ever a refusal: a forged header costs its sender their own tap."""
    shown = request.headers.get(AGAIN_HEADER, "")
    # ASCII digits, and short: str.isdigit() also takes "²", and int()
    # refuses it, or a run of 5000 digits (a 500 with its traceback).
    if not SEQ.fullmatch(shown) or match.seq <= int(shown):
        return False
    since = MatchEvent.objects.filter(match_id=match.pk, seq__gt=int(shown))
    return since.filter(Q(actor=seat) | Q(kind__in=RESULT_KINDS)).exists()


def moved_on_refusal() -> str:
    return _(
        "Not sent again: the match has moved on since this tap. "
        "Look at the page as it is now and tap again if you still want it."
    )


def refusal() -> str:
    """What the answer says (nobody may be waiting for it any more)."""
    return _(
        "Not saved: this tap reached the tracker after your phone gave up on it. Send it again."
    )


def note_refused(code: str, action_id: str = "") -> None:
    log.warning("tap %s refused unapplied in match %s: past its deadline", action_id or "?", code)


def already_applied(match, action_id: str, actor: str | None = None) -> bool:
    """Whether a tap with this action id was applied already (by `actor`, a
    seat letter, if given): a late repeat of it is answered as the first was
    (the write path returns its outcome), never refused; a phone that gave
    up on it is told it landed after all (views.tap_status)."""
    if not action_id:
        return False
    found = MatchEvent.objects.filter(match=match, action_id=action_id)
    return (found.filter(actor=actor) if actor is not None else found).exists()
