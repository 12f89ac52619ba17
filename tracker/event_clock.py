"""The round clock on the phones (issue 21). The organizer starts, pauses
and calls time on a round; every phone of a match of that round shows the
time left and is told "time is called" at once.

The clock is not match history: it lives on the EventRound row, not in a
match's log, so a push cannot say "seq n exists" (the seq did not change).
Instead the match's group gets a `clock.changed` message carrying nothing
but that; each socket renders the clock itself, in its own phone's language
(tracker/consumers.py), as every block is rendered per viewer. The clock
holds no secret: once time is called its words say what is left for the
table (todo_at_time), from the match's public status and result and the
viewer's seat (the seat asked to confirm a proposed result is told so), and
a socket renders it again when those change (MatchConsumer._clock_follows).

At zero the server itself calls time: starting (or resuming) a clock arms a
timer on the server's event loop for the moment it runs out; when it fires,
the round is marked called (at the moment it ran out) and every phone of the
round is told, whether or not its own countdown (app.js) got there and
whether or not the organizer calls time. A pause or a call drops the timer;
a timer that fires after a pause and a resume finds time left and waits the
rest. A server restarted mid-round arms again the first time it renders a
running clock (a phone of the round loads its page). Tests inject `schedule` and `now` to advance time."""

from __future__ import annotations

import asyncio
import logging
from datetime import timedelta

from asgiref.sync import async_to_sync
from channels.db import database_sync_to_async
from channels.layers import get_channel_layer
from django.db import transaction
from django.template.loader import render_to_string
from django.utils import timezone
from django.utils.translation import gettext as _

from tracker.announce import group_of, on_server_loop, server_loop
from tracker.models import EventRound, Match

log = logging.getLogger(__name__)
ELEMENT_ID = "round-clock"


def round_of(match: Match) -> EventRound | None:
    if not match.event_id or not match.event_round:
        return None
    return EventRound.objects.filter(
        event_id=match.event_id, number=match.event_round, published_at__isnull=False
    ).first()


# What time called asks of a table, from its public status and result only
# (match.status and match.result, caches of the log that both phones see;
# rules/results.py: "Nothing here is secret") and the viewer's seat letter.
FINISH, REPORT, CONFIRM, ORGANIZER, SETTLE, NOTHING = (
    "finish",
    "report",
    "confirm",
    "organizer",
    "settle",
    "nothing",
)


def todo_at_time(match: Match, letter: str | None) -> str:
    """What is left for this phone's table once time is called:
    - FINISH: in play with no result yet: finish the Order, then propose one;
    - REPORT: the game is over (phase finished) and no result is proposed;
    - CONFIRM: the opponent proposed a result this seat confirms or disputes;
    - ORGANIZER: the table never reached play (setting up or deploying: it
      cannot propose a result), so the organizer records it from the audit
      page (rules.results.settle with time_called);
    - SETTLE: the result is disputed: the organizer settles it;
    - NOTHING: the result is confirmed or settled, or this phone proposed it
      (or watches) and the opponent's confirmation is awaited."""
    record = match.result or {}
    status = record.get("status")
    if status in ("confirmed", "settled"):
        return NOTHING
    if status == "disputed" or match.status == Match.Status.DISPUTED:
        return SETTLE
    if status == "proposed":
        mine = letter in ("A", "B") and record.get("proposed_by") != letter
        return CONFIRM if mine else NOTHING
    if match.status == Match.Status.SETTING_UP:
        return ORGANIZER
    if match.status == Match.Status.FINISHED:
        return REPORT
    return FINISH


def called_line(number: int, todo: str) -> str:
    """The clock's words once time is called, in the active language."""
    lines = {
        FINISH: _(
            "Round %(round)s: time is called. Finish the current Order and report the result."
        ),
        REPORT: _("Round %(round)s: time is called. Report the result."),
        CONFIRM: _("Round %(round)s: time is called. Confirm the proposed result or dispute it."),
        ORGANIZER: _(
            "Round %(round)s: time is called. The organizer will record this table's result."
        ),
        SETTLE: _(
            "Round %(round)s: time is called. The organizer will settle the disputed result."
        ),
        NOTHING: _("Round %(round)s: time is called."),
    }
    return lines[todo] % {"round": number}


def clock_key(match: Match, letter: str | None) -> tuple | None:
    """What the clock's rendering depends on besides the round's row: a
    socket renders the clock again when this changes (tracker/consumers.py),
    so the words the phone shows, or swaps in at zero, stay true. None for
    a match outside an event round."""
    if not match.event_id or not match.event_round:
        return None
    return (match.event_id, match.event_round, todo_at_time(match, letter))


def clock_context(match: Match, letter: str | None = None) -> dict | None:
    from tracker.event_running import clock_ends_at, clock_left, clock_state

    event_round = round_of(match)
    if event_round is None:
        return None
    now = timezone.now()
    left = clock_left(event_round, now)
    if event_round.clock_started_at and not event_round.time_called_at:
        arm(event_round, replace=False)  # after a restart, the first render arms it
    return {
        "number": event_round.number,
        "state": clock_state(event_round, now),
        "left": left,
        "minutes": left // 60,
        "seconds": f"{left % 60:02d}",
        # app.js counts down from this while the clock runs.
        "ends_at": clock_ends_at(event_round, now),
        # Shown once time is called, and swapped in by app.js at zero: what
        # is true for this table and this phone (todo_at_time).
        "called": called_line(event_round.number, todo_at_time(match, letter)),
    }


def render_clock(match: Match, letter: str | None = None, oob: bool = False) -> str:
    """The clock element, in the active language, for the phone of seat
    `letter` (None: a spectator); empty outside a round."""
    return render_to_string(
        "tracker/round_clock.html", {"clock": clock_context(match, letter), "oob": oob}
    )


def _groups(event_round: EventRound) -> list[str]:
    ids = Match.objects.filter(
        event_id=event_round.event_id, event_round=event_round.number
    ).values_list("pk", flat=True)
    return [group_of(match_id) for match_id in ids]


CHANGED = {"type": "clock.changed"}


def announce_clock(event_round: EventRound) -> None:
    """Tell every socket of the round's matches that the clock changed, and
    arm (or drop) the round's timer for time called at zero. Best effort, as
    every push: a phone that missed it (asleep, its socket gone) sees the
    clock on its next page load, reconnect or resync, whose first frame
    carries it (consumers.MatchConsumer._push)."""
    arm(event_round)
    layer = get_channel_layer()
    if layer is None:
        return
    for group in _groups(event_round):
        if on_server_loop(layer.group_send(group, CHANGED)):
            continue
        try:
            async_to_sync(layer.group_send)(group, CHANGED)
        except Exception:  # a push is best effort
            log.warning("clock push for %s failed", group, exc_info=True)


# ------------------------------------------------------ time called at zero

# The armed timers, by round id. Touched on the server's loop only.
_timers: dict[int, asyncio.TimerHandle] = {}


def schedule(loop: asyncio.AbstractEventLoop, delay: float, callback) -> asyncio.TimerHandle:
    """How a timer is set (a test puts its own here to advance time)."""
    return loop.call_later(delay, callback)


def now():
    """The server's time for the timer's check (a test advances it)."""
    return timezone.now()


def arm(event_round: EventRound, replace: bool = True) -> bool:
    """Set the round's timer for the moment its clock runs out if it runs,
    drop it if not (paused, called). From any thread: the timer lives on the
    server's loop. False without a running server loop (a management
    command): the phones' own countdowns still show zero, and the next
    render on a server arms it."""
    loop = server_loop()
    if loop is None or not loop.is_running():
        return False
    from tracker.event_running import clock_left  # event_running reads rows only

    running = event_round.clock_started_at is not None and not event_round.time_called_at
    left = clock_left(event_round) if running else None
    loop.call_soon_threadsafe(_set_timer, loop, event_round.pk, left, replace)
    return True


def _set_timer(loop, round_id: int, left: float | None, replace: bool = True) -> None:
    if not replace and round_id in _timers:
        return
    old = _timers.pop(round_id, None)
    if old is not None:
        old.cancel()
    if left is not None:
        _timers[round_id] = schedule(loop, left, lambda: loop.create_task(run_out(round_id)))


def call_time_if_run_out(round_id: int) -> int | None:
    """At the timer: 0 if this call marked the round called (its clock ran
    out), the seconds still left if it was paused and resumed since the
    timer was set, None if there is nothing to do (paused, called already)."""
    from tracker.event_running import clock_left

    with transaction.atomic():
        event_round = EventRound.objects.select_for_update().filter(pk=round_id).first()
        if event_round is None or event_round.time_called_at or not event_round.clock_started_at:
            return None
        left = clock_left(event_round, now())
        if left > 0:
            return left
        allowed = event_round.minutes * 60
        # Called at the moment it ran out, whenever the timer got to it.
        run_before = timedelta(seconds=allowed - event_round.clock_elapsed)
        event_round.time_called_at = event_round.clock_started_at + run_before
        event_round.clock_elapsed, event_round.clock_started_at = allowed, None
        event_round.save(update_fields=["time_called_at", "clock_elapsed", "clock_started_at"])
        return 0


async def run_out(round_id: int) -> None:
    """The timer fired: call time and tell every phone of the round."""
    _timers.pop(round_id, None)
    left = await database_sync_to_async(call_time_if_run_out, thread_sensitive=False)(round_id)
    if left is None:
        return
    if left > 0:
        _set_timer(asyncio.get_running_loop(), round_id, left)
        return
    groups = await database_sync_to_async(
        lambda: _groups(EventRound.objects.get(pk=round_id)), thread_sensitive=False
    )()
    layer = get_channel_layer()
    if layer is None:
        return
    for group in groups:
        try:
            await layer.group_send(group, CHANGED)
        except Exception:  # a push is best effort
            log.warning("time-called push for %s failed", group, exc_info=True)
