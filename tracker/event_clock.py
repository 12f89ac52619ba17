"""The round clock on the phones (issue 21). The organizer starts, pauses
and calls time on a round; every phone of a match of that round shows the
time left and is told "time is called" at once.

The clock is not match history: it lives on the EventRound row, not in a
match's log, so a push cannot say "seq n exists" (the seq did not change).
Instead the match's group gets a `clock.changed` message carrying nothing
but that; each socket renders the clock itself, in its own phone's language
(tracker/consumers.py), as every block is rendered per viewer. The clock is
the same for both seats and spectators and holds no secret."""

from __future__ import annotations

import logging

from asgiref.sync import async_to_sync
from channels.layers import get_channel_layer
from django.template.loader import render_to_string
from django.utils import timezone

from tracker.announce import on_server_loop
from tracker.models import EventRound, Match

log = logging.getLogger(__name__)
ELEMENT_ID = "round-clock"


def round_of(match: Match) -> EventRound | None:
    if not match.event_id or not match.event_round:
        return None
    return EventRound.objects.filter(
        event_id=match.event_id, number=match.event_round, published_at__isnull=False
    ).first()


def clock_context(match: Match) -> dict | None:
    from tracker.event_running import clock_left, clock_state

    event_round = round_of(match)
    if event_round is None:
        return None
    now = timezone.now()
    left = clock_left(event_round, now)
    return {
        "number": event_round.number,
        "state": clock_state(event_round, now),
        "left": left,
        "minutes": left // 60,
        "seconds": f"{left % 60:02d}",
        # app.js counts down from this while the clock runs.
        "ends_at": int((now.timestamp() + left) * 1000) if event_round.clock_started_at else None,
    }


def render_clock(match: Match, oob: bool = False) -> str:
    """The clock element, in the active language; empty outside a round."""
    return render_to_string("tracker/round_clock.html", {"clock": clock_context(match), "oob": oob})


def announce_clock(event_round: EventRound) -> None:
    """Tell every socket of the round's matches that the clock changed.
    Best effort, as every push: a phone that missed it sees the clock on its
    next page load or resync."""
    layer = get_channel_layer()
    if layer is None:
        return
    ids = Match.objects.filter(
        event_id=event_round.event_id, event_round=event_round.number
    ).values_list("pk", flat=True)
    for match_id in ids:
        send = layer.group_send(f"match-{match_id}", {"type": "clock.changed"})
        if on_server_loop(send):
            continue
        try:
            async_to_sync(layer.group_send)(f"match-{match_id}", {"type": "clock.changed"})
        except Exception:  # a push is best effort
            log.warning("clock push for match %s failed", match_id, exc_info=True)
