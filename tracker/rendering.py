"""Turn what one viewer may see (reading.Seen) into HTML blocks.

The page is a few blocks, each with a stable id. A push re-sends only the
blocks whose HTML changed, so a phone mid-typing in its own block is not
wiped when the opponent acts.
"""

from __future__ import annotations

import hashlib

from django.template.loader import render_to_string
from django.utils.safestring import mark_safe

from tracker.labels import LABELS, label
from tracker.models import Match, Seat
from tracker.reading import Seen, seen_by
from tracker.rules.commitments import canonical_json
from tracker.rules.orders import OUTCOME_KINDS, SKILLS
from tracker.rules.sealing import OWNER_REVEALABLE
from tracker.rules.state import (
    CAMOUFLAGE,
    CONDITIONS,
    HOLOECHO_ELEMENTS,
    HOLOPROJECTOR,
    LIEUTENANT_CANDIDATE,
    TOKENS,
    TRAITS,
)

BLOCKS = ("header", "controls", "seat_A", "seat_B", "log")


def next_row_id(seat: Seat | None) -> str:
    """The id the next trooper added to the draft will get. Derived, not
    random, so re-rendering an unchanged draft gives identical HTML (and a
    double-tapped "add" is recognised by its id)."""
    if seat is None:
        return ""
    digest = hashlib.sha256((seat.token + canonical_json(seat.draft)).encode())
    return digest.hexdigest()[:12]


def context_for(seen: Seen, seat: Seat | None = None, request=None, error: str = "") -> dict:
    view = seen.view
    draft = list(seat.draft) if seat is not None else []
    mine = view.me.troopers if view.me else ()
    return {
        "match": seen.match,
        "view": view,
        "me": view.me,
        "times": seen.times,
        "log": seen.log,
        "error": error,
        "draft": draft or [],
        "draft_points": sum(row.get("cost", 0) for row in draft or []),
        "new_row_id": next_row_id(seat),
        "traits": [(t, LABELS[t]) for t in TRAITS],
        "conditions": [(c, LABELS[c]) for c in CONDITIONS],
        "tokens": [(t, LABELS[t]) for t in TOKENS],
        "holoecho_elements": [(e, LABELS[e]) for e in HOLOECHO_ELEMENTS],
        "lieutenant_options": _lieutenant_options(view),
        # Sealed skills have a command of their own (ActivateHoloecho);
        # ARO-only ones are offered to the reactive player alone.
        "skills": [
            (name, label(name))
            for name, skill in SKILLS.items()
            if not skill.aro_only and not skill.sealed
        ],
        "second_skills": [
            (name, label(name))
            for name, skill in SKILLS.items()
            if not skill.entire and not skill.aro_only
        ],
        "aro_skills": [(name, label(name)) for name, skill in SKILLS.items() if not skill.entire],
        "outcomes": [(name, label(name)) for name in OUTCOME_KINDS],
        "order_trooper": view.trooper(view.order.trooper_id) if view.order else None,
        # An Entire Order fills the Order: no second Short Skill is offered.
        "order_is_entire": bool(view.order)
        and any(SKILLS[s].entire for s in view.order.skills if s in SKILLS),
        "can_hide_as_marker": any(t.hidden and CAMOUFLAGE in t.traits for t in mine),
        "holoprojectors": [t for t in mine if HOLOPROJECTOR in t.traits and not t.holoechoes],
        # Only these are offered a Reveal button: the rules alone reveal the
        # others (a form the server would always refuse is not rendered).
        "owner_revealable": OWNER_REVEALABLE,
        "request": request,
    }


def _lieutenant_options(view):
    if view.me is None:
        return []
    candidates = [t for t in view.me.troopers if LIEUTENANT_CANDIDATE in t.traits]
    return candidates or list(view.me.troopers)


def render_blocks(
    seen: Seen, seat: Seat | None = None, request=None, error: str = ""
) -> dict[str, str]:
    context = context_for(seen, seat, request, error)
    blocks = {}
    for name in BLOCKS:
        template = f"tracker/blocks/{name.split('_')[0]}.html"
        letter = name[-1] if name.startswith("seat_") else None
        html = render_to_string(template, {**context, "block": name, "letter": letter})
        # The digest lets a phone skip swapping in a block identical to the one
        # it shows (static/tracker/app.js), so a push never wipes half-typed
        # input for nothing, whichever of the HTTP response and the push
        # arrives first.
        digest = hashlib.sha256(html.encode()).hexdigest()[:16]
        blocks[name] = mark_safe(html.replace("<section ", f'<section data-h="{digest}" ', 1))  # noqa: S308 (our own rendered template)
    return blocks


def oob_frame(blocks: dict[str, str], seq: int) -> str:
    """A websocket frame: changed blocks, each swapped by id, plus the seq."""
    parts = [f'<div id="seq" hx-swap-oob="true" data-seq="{int(seq)}"></div>']
    for html in blocks.values():
        parts.append(html.replace("<section ", '<section hx-swap-oob="true" ', 1))
    return "".join(parts)


def blocks_for(match: Match, seat: Seat | None) -> tuple[int, dict[str, str]]:
    """What a socket pushes: the blocks for the seat it authenticated."""
    seen = seen_by(match, seat.letter if seat else None)
    return seen.view.seq, render_blocks(seen, seat)
