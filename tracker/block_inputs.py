"""What each block of the page reads: a small per-viewer *input view* per
block (issue 18, Phoenix LiveView's change tracking as the model).

A block is re-rendered only when its input view differs from the one of the
last render for the same per-viewer key (rendering.viewer_blocks); an equal
input means the same HTML, so the previous HTML and its digest are reused.
Each input is built from the viewer's own Seen (reading.seen_by, the one
read path) and holds every value the block's templates read, and no more:
a value left out would leave a stale block, a value put in for nothing only
costs a render. So the projections are coarse (whole views), and leave out
only what a block demonstrably never reads:

- the view's seq (no block shows it: match.html's seq marker is not a block);
- a trooper's state tokens, outside the seat blocks (only trooper_row.html
  shows them; the controls read conditions, never tokens);
- "can undo" outside its own fragment (rendering.UNDO), so that "Undo my last
  change" moving to the other player does not re-render the controls.
- the log, outside the lines the header's banners and rulings show; the log
  and recent blocks show each line as a part of its own (rendering.LISTS),
  so their skeletons read nothing of it.

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
from tracker.templatetags.phone_tags import banners_for, current_order
from tracker.templatetags.tracker_tags import line_reads

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


# The last view projected and its projection: a render asks for it three
# times (the controls and both seat blocks), each a walk of every trooper.
# Identity, not equality: the view held cannot be freed, so its id is never
# another's; one tuple, swapped whole, so threads never see half of one.
_last_untokened: tuple = (None, ())


def _untokened(view: PlayerView) -> tuple:
    """The view less seq, "can undo" and the troopers' state tokens."""
    global _last_untokened
    seen, projected = _last_untokened
    if seen is not view:
        projected = (
            _VIEW(view),
            tuple((_SEAT(s), tuple(_TROOPER_UNTOKENED(t) for t in s.troopers)) for s in view.seats),
        )
        _last_untokened = (view, projected)
    return projected


def _names(view) -> tuple:
    return tuple((s.seat, s.name, s.claimed) for s in view.seats)


# What header.html shows of the view itself (its title, phase, turn and
# Orders left), choices.html (the open choices), notices.html (the result,
# the organizer's views) and rulings.html (the Order in progress).
_HEADER_VIEW = attrgetter(
    "viewer",
    "name",
    "settings",
    "phase",
    "round",
    "turn_phase",
    "active_seat",
    "orders_left",
    "order",
    "choices",
    "result",
    "organizer_views",
)


def _naming(trooper) -> tuple | None:
    # All tracker_tags.trooper_name reads of a trooper.
    if trooper is None:
        return None
    return (trooper.id, trooper.name, trooper.masked, trooper.marker_number)


def header(seen) -> tuple:
    """The header reads of the log only its banners (phone_tags.banners_for:
    lines of a few kinds) and rulings (the HD-/HE-/RP- lines among the last
    eight), and of the troopers only the names of those rulings.html names
    and the Holoechoes an ARO against the acting one picks among (HE-3);
    so a State tap, or any line of another kind, leaves it as it was."""
    view = seen.view
    banners = tuple(
        (
            b["line"],
            b["kind"],
            b["secret"],
            b["asks"],
            b["withheld"],
            line_reads(b["line"], view),
            # secret_payload.html names the trooper a payload names (named_in).
            _naming(view.trooper((b["secret"].payload or {}).get("trooper_id") or ""))
            if b["secret"] is not None
            else None,
        )
        for b in banners_for(view, seen.log)
    )
    rulings = tuple((line, line_reads(line, view)) for line in ruling_lines(seen.log))
    stuck = tuple(_naming(t) for s in view.seats for t in s.troopers if t.no_room)
    order = view.order
    acting = None
    if order is not None:
        acting = view.trooper(order.trooper_id)
        acting = (acting.seat, acting.holoechoes, _naming(acting)) if acting else None
    # The title's round and table (tracker_tags.match_title), an event's;
    # its name is the view's.
    table = (seen.match.event_round, seen.match.table_number)
    return (
        "header",
        _HEADER_VIEW(view),
        _names(view),
        banners,
        rulings,
        stuck,
        acting,
        table,
        seen.moved_away,
    )


def ruling_lines(log) -> list:
    """The lines rulings.html shows: of the last eight, those of a rule of
    Hidden Deployment, Holoecho or replacement, reveals and reports apart."""
    return [
        line
        for line in log[-8:]
        if line.rule
        and line.kind not in ("SecretRevealed", "OutcomeReported")
        and line.rule[:3] in ("HD-", "HE-", "RP-")
    ]


def recent(seen) -> tuple:
    # Its lines are parts (rendering.LISTS, each line's input tracker_tags'
    # recent_row_html): the skeleton reads only whether there is a line.
    return ("recent", bool(seen.log))


def log(seen) -> tuple:
    # Its lines are parts (log_row_html's input: the line, its time, the
    # names it reads); the skeleton reads nothing, but an empty list has no
    # run of parts to splice into (rendering._render_block).
    return ("log", bool(seen.log))


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
