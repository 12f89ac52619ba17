"""What each block of the page reads: a small per-viewer *input view* per
block (issue 18, Phoenix LiveView's change tracking as the model).

A block is re-rendered only when its input view differs from the one of the
last render for the same per-viewer key (rendering.viewer_blocks); an equal
input means the same HTML, so the previous HTML and its digest are reused.
Each input is built from the viewer's own Seen (reading.seen_by, the one
read path) and holds every value the block's templates read, and no more:
a value left out would leave a stale block, a value put in for nothing only
costs a render. So the projections are coarse (whole views, whole logs), and
leave out only what a block demonstrably never reads:

- the view's seq (no block shows it: match.html's seq marker is not a block);
- a trooper's state tokens, outside the seat blocks (only trooper_row.html
  shows them; the controls read conditions, never tokens);
- "can undo" outside its own fragment (rendering.UNDO), so that "Undo my last
  change" moving to the other player does not re-render the controls.

A template that starts reading a new value must have it in its block's
input here. tests/web/test_render_once.py plays a whole match with
rendering.CHECK on, which compares every kept block and spliced part with a
render from scratch (TRACKER_RENDER_CHECK=1 does the same for any run).

The times of events need no place in an input: an event's time never
changes, and every block that shows one shows it for a seq its input holds.
"""

from __future__ import annotations

import dataclasses
from operator import attrgetter

from tracker.rules.visibility import PlayerView, SeatView, TrooperView
from tracker.templatetags.phone_tags import current_order

# An input view is a tuple of the view's own frozen values (dataclasses
# compared field by field): equal inputs, equal HTML. It is compared with the
# previous one, never hashed, so the values are taken as the view holds them
# (a dict among them compares by content) rather than copied into hashable
# form, which cost more than the renders it saved.


def _getter(kind: type, *dropped: str) -> attrgetter:
    return attrgetter(*(f.name for f in dataclasses.fields(kind) if f.name not in dropped))


# The view less its seq, "can undo" and its seats (projected apart).
_VIEW = _getter(PlayerView, "seq", "can_undo", "seats")
_SEAT = _getter(SeatView, "troopers")
_TROOPER_UNTOKENED = _getter(TrooperView, "tokens")


def _untokened(view: PlayerView) -> tuple:
    """The view less seq, "can undo" and the troopers' state tokens."""
    return (
        _VIEW(view),
        tuple((_SEAT(s), tuple(_TROOPER_UNTOKENED(t) for t in s.troopers)) for s in view.seats),
    )


def _names(view) -> tuple:
    return tuple((s.seat, s.name, s.claimed) for s in view.seats)


def header(seen) -> tuple:
    # The banners and rulings read the log and the view, the notices the
    # result and the organizer's views. The log first: it differs most often.
    return ("header", tuple(seen.log), _untokened(seen.view))


def recent(seen) -> tuple:
    # A log line's text reads the line and the players' names only
    # (tracker_tags.log_text, the key of its memo).
    return ("recent", tuple(seen.log[-3:]), _names(seen.view))


def log(seen) -> tuple:
    return ("log", tuple(seen.log), _names(seen.view))


def seat(seen, letter: str) -> tuple:
    # Its skeleton: the rows are parts, each with its own input (the
    # trooper_row memo's key), so a trooper's tokens stay out; the secrets
    # name troopers of either seat (named_in).
    view = seen.view
    return (
        "seat",
        letter,
        _SEAT(view.seat(letter)),
        _untokened(view)[1],
        view.viewer,
        view.phase,
        view.round,
        view.turn_phase,
        view.active_seat,
        view.order,
        view.settings,
        _names(view),
    )


def controls(seen, receipt) -> tuple:
    # The Order and ARO cards read the log only through current_order.
    return ("controls", current_order(seen.log), receipt, _untokened(seen.view))


def undo(view) -> tuple:
    return ("undo", view.can_undo)
