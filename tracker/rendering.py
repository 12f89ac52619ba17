"""Turn what one viewer may see (reading.Seen) into HTML blocks.

The page is a few blocks, each with a stable id. A push re-sends only the
blocks whose HTML changed, so a phone mid-typing in its own block is not
wiped when the opponent acts.

Rendering is the expensive part of an action (the profile of issue 9: about
two thirds of a served action), so each viewer's blocks are rendered once per
(match, seq, viewer, language, draft) and shared by the POST's answer, that
viewer's sockets and page loads in this process; every spectator shares one
render. The key's viewer is the seat the caller authenticated from the
session, never anything the client sent.
"""

from __future__ import annotations

import functools
import hashlib
import os
import re
import secrets
import threading
from collections import OrderedDict
from dataclasses import dataclass, replace

from django.template.loader import render_to_string
from django.utils import translation
from django.utils.safestring import mark_safe

from tracker import block_inputs
from tracker.audit import receipt_code
from tracker.handed_lists import hand_in_open, handed_for, is_handed_draft
from tracker.labels import label, outcome_label
from tracker.models import Match, MatchEvent, Seat
from tracker.reading import Seen, seen_by
from tracker.row_ids import row_id
from tracker.rules.commitments import canonical_json
from tracker.rules.orders import ARO_SKILLS, OUTCOME_KINDS, SKILLS
from tracker.rules.process_caches import emptied_by
from tracker.rules.sealing import OWNER_REVEALABLE, trooper_choices
from tracker.rules.state import (
    CAMOUFLAGE,
    CONDITIONS,
    FINISHED,
    HOLOECHO_ELEMENTS,
    TOKENS,
    TRAITS,
)
from tracker.template_loaders import squeeze_breaks
from tracker.templatetags.tracker_tags import (
    PARTS,
    line_inputs,
    log_lines,
    log_row_html,
    recent_row_html,
    trooper_row_html,
    trooper_row_key,
    undo_html,
    unmemoized,
)

# "recent" (issue 19): the last three log lines, a block of its own so that
# a new line never re-sends the controls a player may be typing in.
BLOCKS = ("header", "controls", "recent", "seat_A", "seat_B", "log")


def next_row_id(seat: Seat | None) -> str:
    """The id the next trooper added to the draft will get. Derived, not
    random, so re-rendering an unchanged draft gives identical HTML (and a
    double-tapped "add" is recognised by its id); keyed, so the opponent
    cannot recompute it from the seat link and the rows they see (row_ids)."""
    if seat is None:
        return ""
    return row_id(seat.token, canonical_json(seat.draft))


def context_for(seen: Seen, seat: Seat | None = None, request=None, error: str = "") -> dict:
    view = seen.view
    draft = list(seat.draft) if seat is not None else []
    mine = view.me.troopers if view.me else ()
    return {
        "match": seen.match,
        "view": view,
        "me": view.me,
        "moved_away": seen.moved_away,
        "times": seen.times,
        "log": seen.log,
        "error": error,
        "draft": draft or [],
        "draft_points": sum(row.get("cost", 0) for row in draft or []),
        "new_row_id": next_row_id(seat),
        **_choices(translation.get_language() or ""),
        # One select per trooper-choice secret kind (a Lieutenant, a reserve...).
        "trooper_choices": [
            {"kind": k.kind, "label": str(k.label), "required": k.required, "troopers": troopers}
            for k, troopers in trooper_choices(view)
        ],
        "order_trooper": view.trooper(view.order.trooper_id) if view.order else None,
        # An Entire Order fills the Order: no second Short Skill is offered.
        "order_is_entire": bool(view.order)
        and any(SKILLS[s].entire for s in view.order.skills if s in SKILLS),
        "can_hide_as_marker": any(t.hidden and CAMOUFLAGE in t.traits for t in mine),
        "holoprojectors": [t for t in mine if t.id in view.holoecho_candidates],
        # Fireteams (fireteams.py): the viewer's teams, and who may join one.
        "my_fireteams": sorted({t.fireteam for t in mine if t.fireteam}),
        "fireteam_candidates": [
            t
            for t in mine
            if not (t.hidden or t.marker or t.holoechoes or t.fireteam or t.reserved)
            and t.condition == "normal"
        ],
        # Only these are offered a Reveal button: the rules alone reveal the
        # others (a form the server would always refuse is not rendered).
        "owner_revealable": OWNER_REVEALABLE,
        "request": request,
        # Called by the draft template only (a query): the event's handed list.
        "handed_list": (lambda: handed_for(seat)) if seat is not None else None,
        # And whether this draft is that list (a draft edited after the
        # hand-in is this match's only).
        "draft_is_handed": lambda: seat is not None and is_handed_draft(seat, handed_for(seat)),
        # And whether the event's lists are locked (no hand-in then, issue 21).
        "event_lists_locked": lambda: _lists_locked(seen.match, seat),
        "receipt": receipt_for(seen),
        # What only the answer to a pasted army list fills (render_blocks' extra).
        "import_text": "",
        "import_problems": (),
        "import_skipped": (),
    }


@functools.cache
def _choices(language: str) -> dict[str, tuple[tuple[str, str], ...]]:
    """The fixed option lists of the forms, labelled in `language` (the
    active one: the caller passes it so each language is built once, not
    translated again label by label in every render)."""
    return {
        "traits": tuple((t, label(t)) for t in TRAITS),
        "conditions": tuple((c, label(c)) for c in CONDITIONS),
        "tokens": tuple((t, label(t)) for t in TOKENS),
        "holoecho_elements": tuple((e, label(e)) for e in HOLOECHO_ELEMENTS),
        # Sealed skills have a command of their own (ActivateHoloecho);
        # ARO-only ones are offered to the reactive player alone.
        "skills": tuple(
            (name, label(name))
            for name, skill in SKILLS.items()
            if not skill.aro_only and not skill.sealed
        ),
        "second_skills": tuple(
            (name, label(name))
            for name, skill in SKILLS.items()
            if not skill.entire and not skill.aro_only
        ),
        "aro_skills": tuple((name, label(name)) for name in ARO_SKILLS),
        "outcomes": tuple((name, outcome_label(name)) for name in OUTCOME_KINDS),
    }


RECEIPT_RESULTS = ("confirmed", "settled")


def receipt_for(seen: Seen) -> dict | None:
    """The match's head (seq and hash) for both phones to keep, at the end
    and once a result is confirmed or settled: a record of the log kept
    outside the database (docs/security.md). Every viewer may hold it: the
    chain covers a random salt in every private event, so the hash tests no
    guess of what a viewer may not see."""
    view = seen.view
    result = view.result or {}
    if view.phase != FINISHED and result.get("status") not in RECEIPT_RESULTS:
        return None
    head = (
        MatchEvent.objects.filter(match=seen.match, seq=view.seq)
        .values_list("hash", flat=True)
        .first()
    )
    if head is None:
        return None
    return {"seq": view.seq, "hash": head, "code": receipt_code(head)}


# Where a part (a trooper row, the Undo form) stands in its block's skeleton
# while the block renders. Random per process, and a comment: escaped text
# from a player can never contain it.
PLACEHOLDER = f"<!--part-{secrets.token_hex(8)}-->"


class Parts:
    """A block's parts in the order it renders them: (id, input, html), each
    standing in the block's skeleton as PLACEHOLDER. Collected through the
    context (tracker_tags.PARTS) by the tags that render parts."""

    def __init__(self) -> None:
        self.items: list[tuple[str, object, str]] = []

    def add(self, ident: str, inputs: object, html: str) -> str:
        self.items.append((ident, inputs, html))
        return mark_safe(PLACEHOLDER)  # noqa: S308 (a constant of ours)


# Blocks whose parts are one list, the log's lines: in their skeleton the run
# of parts is one PLACEHOLDER (Shape.listed), so a new line in and the oldest
# out (the log holds the newest reading.RECENT events) are spliced without
# rendering the block around them again.
# Each list block's list element, by id: a push adds the new lines at its top.
LISTS = {"log": "log-list", "recent": "recent"}
_RUN = re.compile(f"(?:{re.escape(PLACEHOLDER)})+")


@dataclass(frozen=True)
class Shape:
    """A rendered block as its skeleton and its parts: what a push compares
    to send only the parts that changed (changed_parts). A listed
    shape's skeleton holds one PLACEHOLDER for all its parts, in order, and
    `listed` is the id of their list element."""

    skeleton: str
    parts: tuple[tuple[str, object, str], ...]
    listed: str = ""

    def html(self) -> str:
        if self.listed:
            return self.skeleton.replace(PLACEHOLDER, "".join(h for _i, _v, h in self.parts))
        pieces = self.skeleton.split(PLACEHOLDER)
        out = [pieces[0]]
        for (_ident, _inputs, part), piece in zip(self.parts, pieces[1:], strict=True):
            out += [part, piece]
        return "".join(out)

    def with_part(self, ident: str, inputs: object, html: str) -> Shape:
        return Shape(
            self.skeleton,
            tuple((i, inputs, html) if i == ident else (i, v, h) for i, v, h in self.parts),
            self.listed,
        )


# block digest -> its Shape, for the blocks rendered lately in this process:
# about four per viewer's key of the render cache (its blocks now and those
# its sockets sent last). A shape no longer kept costs a whole render of its
# block or a whole block sent, never a wrong one. A skeleton is small (its
# rows are placeholders): a few KB each.
_SHAPES_SIZE = 8192
_shapes: OrderedDict[str, Shape] = OrderedDict()


def _finish(shape: Shape) -> str:
    """The block's HTML with its digest, the shape kept under that digest."""
    html = shape.html()
    # The digest lets a phone skip swapping in a block identical to the one
    # it shows (static/tracker/app.js), so a push never wipes half-typed
    # input for nothing, whichever of the HTTP response and the push
    # arrives first; a reconnecting phone names the digests it shows so the
    # first frame leaves them out (consumers.py).
    digest = digest_of(html)
    _keep_shape(digest, shape)
    return mark_safe(html.replace("<section ", f'<section data-h="{digest}" ', 1))  # noqa: S308 (our own rendered template)


def _in_use(html: str, shape: Shape) -> None:
    """A block kept unchanged by a render is in use: its shape, kept by
    digest for the pushes (changed_parts: what a socket sent, compared with
    what it sends next), is the newest again, as a block's just rendered.
    A block no tap changes for a while (the controls through a run of State
    taps) must outlive the other tables' renders until it changes."""
    _keep_shape(digest_of_block(html), shape)


def _keep_shape(digest: str, shape: Shape) -> None:
    """`shape` kept under `digest` as the newest of _shapes."""
    with _lock:
        _shapes[digest] = shape
        _shapes.move_to_end(digest)
        while len(_shapes) > _SHAPES_SIZE:
            _shapes.popitem(last=False)


def _render_block(name: str, context: dict) -> str:
    template = f"tracker/blocks/{name.split('_')[0]}.html"
    letter = name[-1] if name.startswith("seat_") else None
    parts = Parts()
    skeleton = squeeze_breaks(
        render_to_string(template, {**context, "block": name, "letter": letter, PARTS: parts})
    )
    stats["blocks"] += 1
    if name in LISTS:
        listed = _RUN.sub(PLACEHOLDER, skeleton)
        # One run of parts, or the block is kept as any other (an empty list
        # has no run: its input says when it fills, block_inputs.log).
        if listed.count(PLACEHOLDER) == 1:
            return _finish(Shape(listed, tuple(parts.items), listed=LISTS[name]))
    return _finish(Shape(skeleton, tuple(parts.items)))


def shape_of(html: str) -> Shape | None:
    """The shape of a block rendered lately, kept by when it was last used
    (rendered, kept by a render: _in_use, or asked for here): what a push
    compares the block a socket sent with (changed_parts). A render splices
    its own previous render's shapes (_Entry), not these."""
    digest = digest_of_block(html)
    with _lock:
        shape = _shapes.get(digest)
        if shape is not None:
            _shapes.move_to_end(digest)
        return shape


def digest_of(html: str) -> str:
    return hashlib.sha256(html.encode()).hexdigest()[:16]


def render_some(seen: Seen, seat: Seat | None, names, context: dict) -> dict[str, str]:
    """Render the blocks `names` from `context` (context_for's): the one
    place blocks are rendered, whole or a few at a time."""
    return {name: _render_block(name, context) for name in names}


def render_blocks(
    seen: Seen, seat: Seat | None = None, request=None, error: str = "", extra: dict | None = None
) -> dict[str, str]:
    """Render every block, uncached (the cached path is `viewer_blocks`).
    `extra` is what only this one answer shows (a pasted list's problems)."""
    context = {**context_for(seen, seat, request, error), **(extra or {})}
    return render_some(seen, seat, BLOCKS, context)


def inputs_of(seen: Seen, context: dict) -> dict[str, tuple]:
    """Each block's input view (tracker/block_inputs.py): what its skeleton
    reads, its parts (fresh_parts) apart."""
    return {
        "header": block_inputs.header(seen),
        "controls": block_inputs.controls(seen, context["receipt"]),
        "recent": block_inputs.recent(seen),
        "seat_A": block_inputs.seat(seen, "A"),
        "seat_B": block_inputs.seat(seen, "B"),
        "log": block_inputs.log(seen),
    }


def fresh_parts(name: str, context: dict) -> dict[str, tuple[object, object]]:
    """The parts block `name` may show, by id: (input, a function that
    renders it). "Undo my last change" moves between the players on nearly
    every tap, and a State tap changes one trooper's row: neither renders
    the block around it again."""
    view, code = context["view"], context["match"].code
    if name == "controls":
        return {"undo": (block_inputs.undo(view), lambda: undo_html(view, code))}
    if name.startswith("seat_"):
        # Each row's input only; its HTML (a memo lookup that hashes the
        # whole trooper view) only for a row whose input changed.
        language = translation.get_language()
        rows = {}
        for t in view.seat(name[-1]).troopers:
            key = trooper_row_key(t, view, language)
            rows[f"trooper-{t.id}"] = (key, lambda t=t, key=key: trooper_row_html(t, view, key)[1])
        return rows
    if name in LISTS:
        # The lines in the order the block shows them (newest first), each
        # rendered only when asked (a line already shown is not).
        view, log, times = context["view"], context["log"], context["times"]
        if name == "recent":  # every line's time
            row_html = recent_row_html
            lines = [(line, times.get(line.seq)) for line in reversed(log[-3:])]
        else:  # a minute's time once
            row_html, lines = log_row_html, log_lines(log, times)
        found = {}
        for inputs in line_inputs(name, lines, view):
            _block, line, when, _reads = inputs
            found[f"{name}-{line.seq}"] = (
                inputs,
                lambda line=line, when=when: row_html(line, when, view)[1],
            )
        return found
    return {}


def _render_changed(
    seen: Seen, seat: Seat | None, previous: _Entry | None
) -> tuple[dict[str, str], dict[str, tuple], dict[str, Shape]]:
    """The blocks of `seen` and their shapes: those whose skeleton input
    equals the previous render's (same per-viewer key) kept, with the parts
    whose input changed spliced in; the others rendered.

    The previous render's own shapes, not those kept by digest (shape_of):
    two tables whose blocks read alike share a digest, and the shape kept
    under it holds the other table's part inputs (its own log lines), each
    compared field by field with this table's and unequal."""
    context = context_for(seen, seat)
    inputs = inputs_of(seen, context)
    done: dict[str, tuple[str, Shape | None]] = {}
    stale = []
    for name in BLOCKS:
        found = None
        if previous is not None and previous.inputs.get(name) == inputs[name]:
            shape = previous.shapes.get(name)
            if shape is not None:
                found = _splice(previous.blocks[name], shape, fresh_parts(name, context))
        if found is None:
            stale.append(name)
        else:
            done[name] = found
            stats["reused"] += 1
            if found[0] is previous.blocks[name]:
                _in_use(*found)
    # Rendered whole by render_some, the one place blocks are rendered (a
    # test plants leaks there); each with the shape its render kept (none
    # for HTML no render made: the next render renders that block whole).
    for name, html in render_some(seen, seat, stale, context).items():
        done[name] = (html, shape_of(html))
    blocks = {name: done[name][0] for name in BLOCKS}
    if CHECK:
        _check(seen, seat, blocks)
    return blocks, inputs, {name: done[name][1] for name in BLOCKS if done[name][1] is not None}


# Set (TRACKER_RENDER_CHECK=1, or by a test): every render that kept blocks or
# parts is compared with a whole render from scratch, block by block. A
# difference is an input view missing a value its block reads.
CHECK = os.environ.get("TRACKER_RENDER_CHECK") == "1"


class StaleBlock(AssertionError):
    pass


def _check(seen: Seen, seat: Seat | None, blocks: dict[str, str]) -> None:
    counted = stats["blocks"]
    # From the templates, not the rows' memos: a memo key missing a value
    # would hand this render the stale row too (tracker_tags.unmemoized).
    with unmemoized():
        whole = render_blocks(seen, seat)
    stats["blocks"] = counted  # the check's renders are not the code's
    stale = [
        name for name in BLOCKS if digest_of_block(blocks[name]) != digest_of_block(whole[name])
    ]
    if stale:
        raise StaleBlock(f"kept blocks differ from a whole render: {stale}")


def _splice(
    html: str, shape: Shape, fresh: dict[str, tuple[object, object]]
) -> tuple[str, Shape] | None:
    """Block `html` (of `shape`) with each part whose input changed rendered
    again and put in its place, and its new shape; None if it shows a part
    the block could not have now (the caller renders the block whole)."""
    if shape.listed:
        return _splice_list(html, shape, fresh)
    parts, changed = [], False
    for ident, before, part in shape.parts:
        if ident not in fresh:
            return None
        inputs, render = fresh[ident]
        if inputs != before:
            part, changed = render(), True
            stats["parts"] += 1
        parts.append((ident, inputs, part))
    if not changed:
        return html, shape
    shape = Shape(shape.skeleton, tuple(parts))
    return _finish(shape), shape


def _splice_list(
    html: str, shape: Shape, fresh: dict[str, tuple[object, object]]
) -> tuple[str, Shape]:
    """A listed block with the parts of `fresh`, in its order: a part it
    showed with the same input kept, any other (a new line) rendered, one
    no longer in `fresh` (the oldest line) dropped."""
    shown = {ident: (inputs, part) for ident, inputs, part in shape.parts}
    parts, changed = [], list(fresh) != [ident for ident, _v, _h in shape.parts]
    for ident, (inputs, render) in fresh.items():
        kept = shown.get(ident)
        if kept is not None and kept[0] == inputs:
            parts.append((ident, inputs, kept[1]))
        else:
            parts.append((ident, inputs, render()))
            stats["parts"] += 1
            changed = True
    if not changed:
        return html, shape
    shape = Shape(shape.skeleton, tuple(parts), listed=shape.listed)
    return _finish(shape), shape


@dataclass
class _Entry:
    version: tuple[int, str]
    blocks: dict[str, str]
    inputs: dict[str, tuple]
    shapes: dict[str, Shape]


# (match id, created, viewer, language, draft digest, handed) -> the newest
# render of that key. Only the newest seq of each key is kept: an older one is
# never asked for again, and the next seq's render starts from it. The chain
# hash makes the entry that of this very log (a test database that reuses a
# primary key does not get another match's render).
_CACHE_SIZE = 2048
_cache: OrderedDict[tuple, _Entry] = OrderedDict()
_lock = threading.Lock()
# renders: a viewer's blocks at a new seq; blocks: blocks rendered; reused:
# blocks kept from the previous render (input unchanged); parts: parts
# rendered on their own; hits: answers from the cache.
stats = {"hits": 0, "renders": 0, "blocks": 0, "reused": 0, "parts": 0}
# key -> (version, set when its render is done): the renders under way.
_rendering: dict[tuple, tuple[tuple[int, str], threading.Event]] = {}
# A render takes milliseconds; past this a waiting thread renders itself.
RENDER_WAIT_SECONDS = 10


def _key(match: Match, viewer: str | None, seat: Seat | None, moved_away: bool = False) -> tuple:
    # The draft lives on the seat, outside the log: its edits change the seat
    # block without moving seq, so its digest is part of the key.
    draft = canonical_json(seat.draft) if seat is not None else ""
    # A list handed to the event's organizer (outside the log too) takes the
    # hand-in button off the draft, and the draft says whether it is that
    # list (a corrected list replaces it): the key follows the list handed
    # in and when, in every process.
    handed_list = handed_for(seat) if seat is not None and match.event_id is not None else None
    handed = handed_list.handed_at if handed_list is not None else None
    # So does the lock of the event's lists, which a deadline sets by itself.
    locked = seat is not None and _lists_locked(match, seat)
    return (
        match.pk,
        match.created_at,
        viewer or "",
        translation.get_language() or "",
        digest_of(draft),
        handed,
        locked,
        moved_away,
    )


def _lists_locked(match: Match, seat: Seat | None) -> bool:
    return (
        seat is not None
        and match.event_id is not None
        and not hand_in_open(match, seat.listed_name)
    )


def _cached(key: tuple, version: tuple[int, str]) -> dict[str, str] | None:
    """The cached blocks of `key` at `version`; the caller holds _lock."""
    cached = _cache.get(key)
    if cached is None or cached.version != version:
        return None
    _cache.move_to_end(key)
    stats["hits"] += 1
    return cached.blocks


def viewer_blocks(
    match: Match, viewer: str | None, seat: Seat | None = None, moved_away: bool = False
) -> tuple[int, dict[str, str]]:
    """(seq, blocks) for the viewer the caller authenticated, at `match.seq`,
    in the active language. Shared by every request and socket of that
    viewer; `seat` must be the Seat row of `viewer` (None for a spectator).
    `moved_away`: a spectator whose seat moved to another phone
    (seats.moved_away), told so in the header. Only the blocks whose input
    changed since this key's last render are rendered (block_inputs.py)."""
    if (seat.letter if seat else None) != viewer:
        raise ValueError("seat and viewer disagree")
    moved_away = moved_away and viewer is None
    key = _key(match, viewer, seat, moved_away)
    version = (match.seq, match.last_hash)
    # Several threads may ask for one key at once (a viewer's answer and its
    # sockets' pushes, on different threads): one renders, the others wait
    # for it rather than render the same blocks again.
    mine = False
    with _lock:
        found = _cached(key, version)
        if found is None:
            flight = _rendering.get(key)
            mine = flight is None or flight[0] != version
            if mine:
                flight = _rendering[key] = (version, threading.Event())
    if found is None and not mine:
        flight[1].wait(RENDER_WAIT_SECONDS)
        with _lock:
            found = _cached(key, version)
    if found is not None:
        return match.seq, found
    try:
        seen = seen_by(match, viewer)
        if moved_away:
            seen = replace(seen, moved_away=True)
        seq = seen.view.seq
        with _lock:
            previous = _cache.get(key)
        blocks, inputs, shapes = _render_changed(seen, seat, previous)
        stats["renders"] += 1
        if seq == match.seq:
            with _lock:
                _cache[key] = _Entry(version, blocks, inputs, shapes)
                _cache.move_to_end(key)
                while len(_cache) > _CACHE_SIZE:
                    _cache.popitem(last=False)
    finally:
        if mine:
            with _lock:
                if _rendering.get(key) is flight:
                    del _rendering[key]
            flight[1].set()
    return seq, blocks


@emptied_by
def forget(match_id: int | None = None) -> None:
    with _lock:
        if match_id is None:
            _cache.clear()
        else:
            for key in [k for k in _cache if k[0] == match_id]:
                del _cache[key]


MAX_SHOWN = 16
DIGEST = re.compile(r"^[0-9a-f]{16}$")


def parse_shown(value: str) -> set[str]:
    """The block digests a phone says it shows ("d1.d2..."), as its socket's
    ?h= and its POSTs' X-Tracker-Shown header carry them (static/tracker/app.js).
    Only used to leave blocks out: a false claim costs the phone blocks it
    then lacks, and can never add anything to what it is sent."""
    return {d for d in value.split(".")[:MAX_SHOWN] if DIGEST.match(d)}


def peek_blocks(match: Match, viewer: str | None, seat: Seat | None) -> dict[str, str]:
    """The newest blocks rendered for this viewer, whatever their seq (or
    none): what the phone most likely shows, kept to send it only the rows
    that change. Looked at before an action, since the action's render takes
    their place."""
    with _lock:
        cached = _cache.get(_key(match, viewer, seat))
    return dict(cached.blocks) if cached is not None else {}


def changed_frame(blocks: dict[str, str], seq: int, shown: set[str], before: dict[str, str]) -> str:
    """A frame with what a phone that shows `shown` (block digests) lacks of
    `blocks`: a block it shows goes not at all; one whose shown version is in
    `before` (name -> HTML) and differs in some parts only (trooper rows, the
    Undo form) goes as those parts; any other block goes whole. Sockets and
    POST answers both send it."""
    changed = {name: html for name, html in blocks.items() if digest_of_block(html) not in shown}
    rows = {}
    for name, html in changed.items():
        old = before.get(name)
        if old is not None and digest_of_block(old) in shown:
            found = changed_parts(old, html)
            if found is not None:
                rows[name] = found
    return oob_frame(changed, seq, rows)


def oob_frame(blocks: dict[str, str], seq: int, rows: dict[str, list[str]] | None = None) -> str:
    """A websocket frame: changed blocks, each swapped by id, plus the seq.

    `rows` (block name -> changed parts) sends a block whose only change is
    some parts as just those parts, each swapped by its id; the seq marker
    then carries the block's new digest for the phone to record (app.js)."""
    rows = rows or {}
    digest_note = ",".join(
        f"{name}:{digest_of_block(html)}" for name, html in blocks.items() if name in rows
    )
    note = f' data-blocks="{digest_note}"' if digest_note else ""
    parts = [f'<div id="seq" hx-swap-oob="true" data-seq="{int(seq)}"{note}></div>']
    for name, html in blocks.items():
        if name in rows:
            parts += [swapped(part) for part in rows[name]]
        else:
            parts.append(html.replace("<section ", '<section hx-swap-oob="true" ', 1))
    return "".join(parts)


class Placed(str):
    """A fragment that says itself where it goes (a list's lines added at
    its top, a line deleted): sent as it is, not swapped by its id."""


def swapped(part: str) -> str:
    """A part's HTML swapped in by its id: hx-swap-oob on its first tag."""
    if isinstance(part, Placed):
        return part
    start = part.index("<") + 1
    end = start
    while end < len(part) and part[end].isalnum():
        end += 1
    return f'{part[:end]} hx-swap-oob="true"{part[end:]}'


def digest_of_block(html: str) -> str:
    # A slice, not a split: a split copied the rest of the block (up to
    # 15 KB) each time, and a push reads a dozen digests.
    start = html.index('data-h="') + 8
    return html[start : start + 16]


def changed_parts(old: str, new: str) -> list[str] | None:
    """The parts of block `new` whose HTML differs from the same part's in
    `old`, when nothing else in the block changed (the same skeleton, the
    same parts in the same order); None when the whole block must go.

    A part goes when its HTML differs from the one the phone shows: both
    shapes are rendered already, so that is a comparison of two short
    strings, not a parse. The parts' inputs (block_inputs.py) decide what
    is rendered again, not what is sent: two tables whose blocks read
    alike (the same lists and taps in the same minute) share one kept shape
    by its digest, and the twin's inputs (its own event times and trooper
    ids) differed from this table's where the HTML did not, so a tap sent
    every such part again (issue 18: make bench's answers grew from 0.8 KB
    to 3 KB in 40 s)."""
    old_shape, new_shape = shape_of(old), shape_of(new)
    if old_shape is None or new_shape is None or old_shape.skeleton != new_shape.skeleton:
        return None
    if old_shape.listed and new_shape.listed:
        return _list_delta(old_shape, new_shape)
    if [i for i, _v, _h in old_shape.parts] != [i for i, _v, _h in new_shape.parts]:
        return None
    return [
        html
        for (_i, _v, html), (_o, _w, shown) in zip(new_shape.parts, old_shape.parts, strict=True)
        if html != shown
    ]


def _list_delta(old: Shape, new: Shape) -> list[str] | None:
    """What turns listed block `old` into `new` on the phone, as parts swapped
    in by themselves: the lines gone deleted, the new ones (all above those
    kept: the newest) added at the top of the list, a kept line whose HTML
    changed (changed_parts says why not its input) swapped. None when the
    lines kept moved or a new one goes below them (the whole block goes
    then)."""
    before = {ident: html for ident, _v, html in old.parts}
    now = [ident for ident, _v, _h in new.parts]
    kept = [ident for ident in now if ident in before]
    added = len(now) - len(kept)
    showing = set(now)  # (once: in the comprehension it was made for every line)
    if now[added:] != kept or kept != [i for i, _v, _h in old.parts if i in showing]:
        return None
    gone = [
        Placed(f'<li id="{ident}" hx-swap-oob="delete"></li>')
        for ident in before
        if ident not in now
    ]
    changed = [
        Placed(swapped(html)) for ident, _v, html in new.parts[added:] if html != before[ident]
    ]
    if added:
        rows = "".join(html for _i, _v, html in new.parts[:added])
        changed.append(Placed(f'<ol hx-swap-oob="afterbegin:#{new.listed}">{rows}</ol>'))
    return gone + changed


def blocks_for(
    match: Match, seat: Seat | None, moved_away: bool = False
) -> tuple[int, dict[str, str]]:
    """What a socket pushes: the blocks for the seat it authenticated."""
    return viewer_blocks(match, seat.letter if seat else None, seat, moved_away)
