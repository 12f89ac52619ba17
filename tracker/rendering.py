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
import re
import threading
from collections import OrderedDict

from django.template.loader import render_to_string
from django.utils import translation
from django.utils.safestring import mark_safe

from tracker.audit import receipt_code
from tracker.handed_lists import handed_for
from tracker.labels import label
from tracker.models import Match, MatchEvent, Seat
from tracker.reading import Seen, seen_by
from tracker.rules.commitments import canonical_json
from tracker.rules.orders import ARO_SKILLS, OUTCOME_KINDS, SKILLS
from tracker.rules.sealing import OWNER_REVEALABLE, trooper_choices
from tracker.rules.state import (
    CAMOUFLAGE,
    CONDITIONS,
    FINISHED,
    HOLOECHO_ELEMENTS,
    HOLOPROJECTOR,
    TOKENS,
    TRAITS,
)

# "recent" (issue 19): the last three log lines, a block of its own so that
# a new line never re-sends the controls a player may be typing in.
BLOCKS = ("header", "controls", "recent", "seat_A", "seat_B", "log")


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
        "holoprojectors": [t for t in mine if HOLOPROJECTOR in t.traits and not t.holoechoes],
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
        "outcomes": tuple((name, label(name)) for name in OUTCOME_KINDS),
    }


RECEIPT_RESULTS = ("confirmed", "settled")


def receipt_for(seen: Seen) -> dict | None:
    """The match's head (seq and hash) for both phones to keep, at the end
    and once a result is confirmed or settled: a record of the log kept
    outside the database (README, Security). Every viewer may hold it: the
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


def _render_block(name: str, context: dict) -> str:
    template = f"tracker/blocks/{name.split('_')[0]}.html"
    letter = name[-1] if name.startswith("seat_") else None
    html = render_to_string(template, {**context, "block": name, "letter": letter})
    # The digest lets a phone skip swapping in a block identical to the one
    # it shows (static/tracker/app.js), so a push never wipes half-typed
    # input for nothing, whichever of the HTTP response and the push
    # arrives first; a reconnecting phone names the digests it shows so the
    # first frame leaves them out (consumers.py).
    return mark_safe(html.replace("<section ", f'<section data-h="{digest_of(html)}" ', 1))  # noqa: S308 (our own rendered template)


def digest_of(html: str) -> str:
    return hashlib.sha256(html.encode()).hexdigest()[:16]


def render_blocks(
    seen: Seen, seat: Seat | None = None, request=None, error: str = "", extra: dict | None = None
) -> dict[str, str]:
    """Render every block, uncached (the cached path is `viewer_blocks`).
    `extra` is what only this one answer shows (a pasted list's problems)."""
    context = {**context_for(seen, seat, request, error), **(extra or {})}
    return {name: _render_block(name, context) for name in BLOCKS}


# (match id, viewer, language, draft digest) -> ((seq, last hash), blocks).
# Only the newest seq of each key is kept: an older one is never asked for
# again. The chain hash makes the entry that of this very log (a test database
# that reuses a primary key does not get another match's render).
_CACHE_SIZE = 2048
_cache: OrderedDict[tuple, tuple[tuple[int, str], dict[str, str]]] = OrderedDict()
_lock = threading.Lock()
stats = {"hits": 0, "renders": 0}
# key -> (version, set when its render is done): the renders under way.
_rendering: dict[tuple, tuple[tuple[int, str], threading.Event]] = {}
# A render takes milliseconds; past this a waiting thread renders itself.
RENDER_WAIT_SECONDS = 10


def _key(match: Match, viewer: str | None, seat: Seat | None) -> tuple:
    # The draft lives on the seat, outside the log: its edits change the seat
    # block without moving seq, so its digest is part of the key.
    draft = canonical_json(seat.draft) if seat is not None else ""
    # A list handed to the event's organizer (outside the log too) takes the
    # hand-in button off the draft; the key follows it, in every process.
    handed = seat is not None and match.event_id is not None and handed_for(seat) is not None
    return (match.pk, viewer or "", translation.get_language() or "", digest_of(draft), handed)


def _cached(key: tuple, version: tuple[int, str]) -> dict[str, str] | None:
    """The cached blocks of `key` at `version`; the caller holds _lock."""
    cached = _cache.get(key)
    if cached is None or cached[0] != version:
        return None
    _cache.move_to_end(key)
    stats["hits"] += 1
    return cached[1]


def viewer_blocks(
    match: Match, viewer: str | None, seat: Seat | None = None, error: str = ""
) -> tuple[int, dict[str, str]]:
    """(seq, blocks) for the viewer the caller authenticated, at `match.seq`,
    in the active language. Shared by every request and socket of that
    viewer; `seat` must be the Seat row of `viewer` (None for a spectator).
    An error is drawn into the controls block of this answer only."""
    if (seat.letter if seat else None) != viewer:
        raise ValueError("seat and viewer disagree")
    key = _key(match, viewer, seat)
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
        seq, blocks = match.seq, found
    else:
        try:
            seen = seen_by(match, viewer)
            seq = seen.view.seq
            blocks = render_blocks(seen, seat)
            stats["renders"] += 1
            if seq == match.seq:
                with _lock:
                    _cache[key] = (version, blocks)
                    _cache.move_to_end(key)
                    while len(_cache) > _CACHE_SIZE:
                        _cache.popitem(last=False)
        finally:
            if mine:
                with _lock:
                    if _rendering.get(key) is flight:
                        del _rendering[key]
                flight[1].set()
    if error:
        seen = seen_by(match, viewer)
        blocks = {
            **blocks,
            "controls": _render_block("controls", context_for(seen, seat, error=error)),
        }
    return seq, blocks


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
    return dict(cached[1]) if cached is not None else {}


def changed_frame(blocks: dict[str, str], seq: int, shown: set[str], before: dict[str, str]) -> str:
    """A frame with what a phone that shows `shown` (block digests) lacks of
    `blocks`: a block it shows goes not at all; one whose shown version is in
    `before` (name -> HTML) and differs in trooper rows only goes as those
    rows; any other block goes whole. Sockets and POST answers both send it."""
    changed = {name: html for name, html in blocks.items() if digest_of_block(html) not in shown}
    rows = {}
    for name, html in changed.items():
        old = before.get(name)
        if old is not None and digest_of_block(old) in shown:
            found = changed_rows(old, html)
            if found is not None:
                rows[name] = found
    return oob_frame(changed, seq, rows)


def oob_frame(blocks: dict[str, str], seq: int, rows: dict[str, list[str]] | None = None) -> str:
    """A websocket frame: changed blocks, each swapped by id, plus the seq.

    `rows` (block name -> changed trooper rows) sends a block whose only
    change is some trooper rows as just those rows; the seq marker then
    carries the block's new digest for the phone to record (app.js)."""
    rows = rows or {}
    digest_note = ",".join(
        f"{name}:{digest_of_block(html)}" for name, html in blocks.items() if name in rows
    )
    note = f' data-blocks="{digest_note}"' if digest_note else ""
    parts = [f'<div id="seq" hx-swap-oob="true" data-seq="{int(seq)}"{note}></div>']
    for name, html in blocks.items():
        if name in rows:
            parts += [row.replace("<li ", '<li hx-swap-oob="true" ', 1) for row in rows[name]]
        else:
            parts.append(html.replace("<section ", '<section hx-swap-oob="true" ', 1))
    return "".join(parts)


_ROW = re.compile(r'<li class="trooper[^"]*" id="trooper-([^"]+)">.*?</li>', re.S)


def digest_of_block(html: str) -> str:
    return html.split('data-h="', 1)[1][:16]


def changed_rows(old: str, new: str) -> list[str] | None:
    """The trooper rows of `new` that differ from `old`, when nothing else in
    the block changed (same rows, same order, same surroundings); None when
    the whole block must go."""
    old_skeleton, old_rows = _rows_of(old)
    new_skeleton, new_rows = _rows_of(new)
    if old_skeleton != new_skeleton:
        return None
    before = dict(old_rows)
    return [row for ident, row in new_rows if before.get(ident) != row]


# Each rendered block is parsed once, not once per diff: a block is the new
# side of one diff and the old side of the next, and a tap's answer and the
# actor's own socket diff the same two (the strings of the render cache,
# whose hashes Python keeps). Issue 18's profile: 10 % of an action.
@functools.lru_cache(maxsize=512)
def _rows_of(html: str) -> tuple[str, tuple[tuple[str, str], ...]]:
    """A block's trooper rows (id, HTML) in order, and the block around them
    without its opening tag (which carries the digest), each row a placeholder."""
    body = html.split(">", 1)[1]
    parts, rows, end = [], [], 0
    for found in _ROW.finditer(body):
        parts += [body[end : found.start()], f"<li:{found.group(1)}>"]
        rows.append((found.group(1), found.group(0)))
        end = found.end()
    parts.append(body[end:])
    return "".join(parts), tuple(rows)


def blocks_for(match: Match, seat: Seat | None) -> tuple[int, dict[str, str]]:
    """What a socket pushes: the blocks for the seat it authenticated."""
    return viewer_blocks(match, seat.letter if seat else None, seat)
