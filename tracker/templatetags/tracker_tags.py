import hashlib
import json
import threading
from collections import OrderedDict
from contextlib import contextmanager

from django import template
from django.conf import settings
from django.template.loader import render_to_string
from django.utils import translation
from django.utils.formats import time_format
from django.utils.html import format_html
from django.utils.safestring import mark_safe
from django.utils.timezone import template_localtime
from django.utils.translation import get_language, gettext, gettext_lazy, ngettext

from tracker.labels import label as label_of
from tracker.labels import outcome_label, phase_label
from tracker.rules.classified import DEFAULT_DECK
from tracker.rules.holoecho import second_short_skill_can_come
from tracker.rules.i18n import Plural, Text
from tracker.rules.identity import MARKER_NAME, MASK_PENDING
from tracker.rules.process_caches import emptied_by
from tracker.rules.state import CONDITIONS, HOLOECHO_ELEMENTS, OUT_OF_ACTION, TOKENS

register = template.Library()

# The context variable under which rendering.py collects a block's parts.
PARTS = "_block_parts"


@register.filter
def label(code):
    return label_of(code)


@register.filter(name="phase_label")
def phase_label_filter(code):
    return phase_label(code)


@register.filter
def second_short_skill_to_come(order) -> bool:
    """HE-8's window for a delayed ARO, as the rules decide it."""
    return second_short_skill_can_come(order.skills)


@register.filter
def seat_name(view, seat):
    """A player's display name in a view, or the seat letter."""
    for candidate in view.seats:
        if candidate.seat == seat:
            return candidate.name or gettext("Seat %(seat)s") % {"seat": seat}
    return seat


def marker_names(params: dict) -> dict:
    """Params with each "<x>_marker" number shown as "<x>" = "Camouflage
    marker N" in the reader's language (rules.identity.rename sets them),
    and each param the rules marked for translation (a field's label, such
    as "The Fireteam's name") translated."""
    params = dict(params)
    for key, value in list(params.items()):
        if isinstance(value, Text):
            params[key] = gettext(value)
        if key.endswith("_marker") and isinstance(value, int) and value > 0:
            params[key.removesuffix("_marker")] = gettext(MARKER_NAME) % {"number": value}
    return params


# HE-9: with HoloMask the two markers are replaced by models of the same
# troop type, so the bearer's three elements are three models on the table.
_AS_MODELS = {
    "model": gettext_lazy("Model 1"),
    "marker1": gettext_lazy("Model 2"),
    "marker2": gettext_lazy("Model 3"),
}


@register.filter
def element_of(code, trooper):
    """A Holoecho element's name for this trooper: "Holoecho marker 1", or
    "Model 2" when HoloMask makes its markers models (HE-9). The opponent
    reads a masked trooper (view `masked`), the owner its HoloMask trait."""
    if _as_models(trooper) and code in _AS_MODELS:
        return str(_AS_MODELS[code])
    return label_of(code)


# The markers by number, then the model, as the line always read them.
_MARKERS_FIRST = (*sorted(set(HOLOECHO_ELEMENTS) - {"model"}), "model")


@register.filter
def holoecho_picks(trooper) -> str:
    """HE-3: what an ARO picks among, named as the trooper's row names them
    (element_of): the elements still on the table, so a decoy that left is
    not offered, and a HoloMask trooper's markers read as models (HE-9)."""
    order = sorted(trooper.holoechoes, key=_MARKERS_FIRST.index)
    names = [str(element_of(code, trooper)) for code in order]
    if len(names) < 2:
        return "".join(names)
    return gettext("%(some)s or %(last)s") % {"some": ", ".join(names[:-1]), "last": names[-1]}


def _as_models(trooper) -> bool:
    return getattr(trooper, "masked", False) or "holomask" in getattr(trooper, "traits", ())


@register.filter
def card_name(card):
    """A Classified card's name in the reader's language when it is one of
    the default deck's (rules.classified.DEFAULT_DECK); an organizer's own
    card names are shown as written."""
    return gettext(card) if card in DEFAULT_DECK else card


@register.filter
def card_names(cards):
    """card_name of each card of a list (a sealed draw's cards)."""
    return [card_name(card) for card in cards]


@register.simple_tag
def match_title(match, name=None):
    """A match's title in the reader's language: its name (`name`: the log's,
    where the page shows the view's) and, for an event's table, its round
    and table. Only the name is stored: an English phone read the
    organizer's "Ronda 1 · Mesa 2" when the title was composed once, in the
    organizer's language, into the log."""
    name = match.name if name is None else name
    if not (match.event_round or match.table_number):
        return name
    # A table paired before the title was composed per reader stored it
    # composed, in the organizer's language: it is shown as it was.
    for code, _language in settings.LANGUAGES:
        with translation.override(code):
            if name.endswith(_round_and_table(match)):
                return name
    return name + _round_and_table(match)


def _round_and_table(match) -> str:
    parts = []
    if match.event_round:
        parts.append(gettext("Round %(round)s") % {"round": match.event_round})
    if match.table_number:
        parts.append(gettext("Table %(table)s") % {"table": match.table_number})
    return "".join(f" · {part}" for part in parts)


@register.filter
def trooper_name(trooper):
    """A trooper's name as this viewer knows it: "Camouflage marker 1" for an
    enemy marker (HD-C3), the masked troop type under HoloMask (HE-9)."""
    if getattr(trooper, "masked", False):
        if trooper.marker_number:
            return gettext(MARKER_NAME) % {"number": trooper.marker_number}
        if trooper.name == MASK_PENDING:
            return gettext(MASK_PENDING)
    return trooper.name


@register.filter
def named_in(trooper_id, view):
    """The name `view` gives the trooper a sealed payload names by id (ids in
    payloads, names in views), or "" if this viewer does not know it by it."""
    trooper = view.trooper(trooper_id) if view is not None and trooper_id else None
    return trooper_name(trooper) if trooper is not None else ""


@register.simple_tag
def log_text(line, view):
    """A log line in the reader's language, seats shown by player name."""
    params = marker_names(line.params)
    # Seat letters stay as they are; "<key>_name" is the player's name.
    for key in ("seat", "first_turn", "deploys_first", "by"):
        if params.get(key) in ("A", "B"):
            params[f"{key}_name"] = seat_name(view, params[key])
    raw = dict(params)
    for key in ("condition", "secret_kind", "skill", "element", "real"):
        if key in params:
            params[key] = label_of(params[key])
    if "phase" in params:
        params["phase"] = phase_label(params["phase"])
    if "outcome" in params:
        params["outcome"] = outcome_label(params["outcome"])
    # HE-9: a HoloMask bearer's elements are named as models, as on its forms.
    find = getattr(view, "trooper", None)
    holder = find(str(raw["trooper_id"])) if find and raw.get("trooper_id") else None
    if holder is not None and _as_models(holder):
        for key in ("element", "real"):
            if key in raw:
                params[key] = element_of(raw[key], holder)
    # The Holoecho an ARO is against (HE-3), named as the target's forms name
    # it (element_of reads a trooper the view lacks as no HoloMask).
    if raw.get("target_element"):
        target = find(str(raw.get("target_id") or "")) if find else None
        params["target_element"] = element_of(raw["target_element"], target)
    if "card" in params:
        params["card"] = card_name(params["card"])
    if "rule" in params:
        params["rule"] = label_of(params["rule"])
    # State tokens a step added or removed (conditions.TrooperStateChanged),
    # or a trooper has again after an undo (conditions.StepUndone).
    for key in ("tokens_added", "tokens_removed", "tokens_now"):
        if isinstance(params.get(key), list):
            params[key] = ", ".join(label_of(token) for token in params[key])
    message = line.message
    if isinstance(message, Plural):
        try:
            number = int(params[message.key])
        except (KeyError, TypeError, ValueError):
            number = 2
        text = ngettext(message.singular, str(message), number)
    else:
        text = gettext(message)
    try:
        return text % params
    except (KeyError, TypeError, ValueError):
        return text


def rule_chip(line, text: str) -> str:
    """The rule ID as a chip after a log line, unless the line already names
    it ("… (HD-C2)." then "HD-C2" read twice: issue 19)."""
    if not line.rule or line.rule == "owner" or line.rule in text:
        return ""
    return format_html(' <span class="rule">{}</span>', line.rule)


@register.simple_tag
def log_line(line, view):
    """A log line's text and its rule chip (rule_chip), for banners, rulings
    and the recent lines; memoized as log_row is (line_reads: all log_text
    reads of the view)."""
    key = ("line", line_key(line), line_reads(line, view), get_language())
    html = _log_rows.get(key)
    if html is None:
        text = log_text(line, view)
        html = _log_rows.put(key, format_html("{}{}", text, rule_chip(line, text)))
    return html


def line_reads(line, view) -> tuple:
    """What log_text reads of the view for `line`: the players' names and,
    when the line names a trooper, whether that trooper's Holoecho elements
    are named as models (HE-9: a HoloMask, which can end and so change the
    text of a line already shown)."""
    return _line_reads(line, *_view_reads(view))


def _line_reads(line, names: tuple, models: frozenset) -> tuple:
    params = line.params or {}
    trooper_id = params.get("trooper_id")
    # The target's models only where the line names one of its Holoechoes
    # (HE-3's ARO line): every other line of every render skips the lookup.
    target = params.get("target_element") and str(params.get("target_id")) in models
    return (names, bool(trooper_id) and str(trooper_id) in models, bool(target))


# The last view asked about, its players' names and its troopers named as
# models: every line of a render asks of the same view (identity, not
# equality: a new view is a new render; the one held cannot be freed, so its
# id is never another's).
_reads_of: tuple = (None, (), frozenset())


def _view_reads(view) -> tuple[tuple, frozenset]:
    global _reads_of
    seen, names, models = _reads_of
    if seen is not view:
        names = _names(view)
        models = frozenset(
            t.id for s in getattr(view, "seats", ()) for t in s.troopers if _as_models(t)
        )
        _reads_of = (view, names, models)
    return names, models


def line_key(line) -> tuple:
    """A log line as a memo key: every field, its params as sorted JSON
    (issue 18: repr() of the whole line was most of the log block's time)."""
    params = json.dumps(line.params, sort_keys=True, default=repr)
    return (line.seq, line.kind, repr(line.message), params, line.rule)


def _names(view) -> tuple:
    return tuple((s.seat, s.name) for s in view.seats)


@register.filter
def draft_digest(rows) -> str:
    """A fingerprint of an army list draft as a page shows it: the Lock form
    carries it, and a lock from a page whose list changed since (another tab
    of the seat) is refused rather than locking a list it did not show."""
    canonical = json.dumps(rows, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
    return hashlib.sha256(canonical.encode()).hexdigest()[:16]


@register.filter
def at(mapping, key):
    """mapping[key] in a template, or None."""
    try:
        return mapping.get(key)
    except AttributeError:
        return None


@register.filter
def offered_in(troopers, ids):
    """The troopers whose id is in `ids`, in their order: a select's options
    grouped by seat (an <optgroup> per player, issue 18, not the player's
    name after every trooper)."""
    return [t for t in troopers if t.id in ids]


@register.filter
def by_combat_group(troopers):
    """[(group, troopers of that group in their order)], by group."""
    groups: dict[int, list] = {}
    for t in troopers:
        groups.setdefault(t.combat_group, []).append(t)
    return sorted(groups.items())


@register.filter
def seat_of(view, letter):
    return view.seat(letter)


# Every Memo, for forget().
_memos: list["Memo"] = []


@emptied_by
def forget() -> None:
    """Every row memo emptied, as in a new process (reading.forget and
    rendering.forget do the same for theirs)."""
    for memo in _memos:
        with memo._lock:
            memo._rows.clear()


class Memo:
    """A bounded, thread-safe map from a render's exact inputs to its HTML.

    Issue 9: rendering was two thirds of an action, and most of a page is
    rows (trooper rows, log lines) of which an action changes one or two.
    Each key holds every value its row reads, so a memoized row is byte for
    byte the row a fresh render would give. functools.lru_cache does not
    serve: the inputs are a view's objects, not hashable arguments."""

    def __init__(self, size: int):
        self.size = size
        self._rows: OrderedDict[tuple, str] = OrderedDict()
        self._lock = threading.Lock()
        _memos.append(self)

    def get(self, key: tuple) -> str | None:
        if getattr(_unmemoized, "on", False):
            return None
        with self._lock:
            html = self._rows.get(key)
            if html is not None:
                self._rows.move_to_end(key)
            return html

    def put(self, key: tuple, html: str) -> str:
        if getattr(_unmemoized, "on", False):
            return html
        with self._lock:
            self._rows[key] = html
            while len(self._rows) > self.size:
                self._rows.popitem(last=False)
        return html


# Set on a thread while it renders from scratch (rendering.CHECK): a memo
# whose key leaves out a value its row reads would give the check the same
# stale row as the render it checks, so the check reads and fills no memo.
_unmemoized = threading.local()


@contextmanager
def unmemoized():
    """Rows rendered on this thread from their templates, no memo read or filled."""
    was = getattr(_unmemoized, "on", False)
    _unmemoized.on = True
    try:
        yield
    finally:
        _unmemoized.on = was


# Trooper rows: the row template gets an isolated context of exactly the
# values in the key; the trooper view itself (frozen, every field hashable)
# covers every field of what this viewer was shown of it, the data-cond,
# data-tokens and data-no-room the page's State form is prefilled from
# included.
_trooper_rows = Memo(20_000)


def may_set_state(view) -> bool:
    """Whether this viewer is offered State forms at all: a player, in play."""
    return bool(view.viewer) and view.phase == "playing"


def trooper_row_key(t, view, language: str) -> tuple:
    """The input of one trooper's row: every value its template reads. The
    trooper view is a frozen dataclass, compared field by field (an
    unchanged trooper's is the same object, visibility._views: compared at
    once); `settable` is its State button and the data the page's State
    form is prefilled from (state_form.html)."""
    return (t, t.seat == view.viewer, may_set_state(view) and not t.hidden, language)


def trooper_row_html(t, view, key: tuple | None = None) -> tuple[tuple, str]:
    """(input, HTML) of one trooper's row, memoized by its input
    (trooper_row_key; rendering.py splices rows by it)."""
    if key is None:
        key = trooper_row_key(t, view, get_language())
    html = _trooper_rows.get(key)
    if html is None:
        values = {"t": t, "mine": key[1], "settable": key[2]}
        # Without the template's final line break: rows are <li>s, nothing
        # shows between them, and a page has 50 (issue 18: the first load).
        row = render_to_string("tracker/blocks/trooper_row.html", values).rstrip("\n")
        html = mark_safe(row)  # noqa: S308 (our own template)
        _trooper_rows.put(key, html)
    return key, html


@register.simple_tag(takes_context=True)
def trooper_row(context, t):
    key, html = trooper_row_html(t, context["view"])
    # A block rendered by rendering.py collects its rows as parts: each with
    # its id and its input (this key), so a push compares inputs, not HTML.
    parts = context.get(PARTS)
    if parts is not None:
        return parts.add(f"trooper-{t.id}", key, html)
    return html


# The page's State form, by match and language (state_form).
_state_forms = Memo(2_000)


@register.simple_tag
def state_form(code: str) -> str:
    """The page's one State form (state_form.html) for a player's page:
    the same for the whole match, in the reader's language."""
    key = ("state", code, get_language())
    html = _state_forms.get(key)
    if html is None:
        values = {
            "code": code,
            # (code, label, out of action: not offered for a trooper in Holoecho, HE-C4)
            "conditions": tuple((c, label_of(c), c in OUT_OF_ACTION) for c in CONDITIONS),
            "tokens": tuple((t, label_of(t)) for t in TOKENS),
        }
        html = mark_safe(render_to_string("tracker/blocks/state_form.html", values))  # noqa: S308 (our own template)
        _state_forms.put(key, html)
    return html


# Log lines: a line's text depends on the line (its seq, message and the
# names it carries), the time it shows (log_lines), line_reads (the players' names,
# HE-9's models) and the language; nothing else.
_log_rows = Memo(20_000)


def line_input(block: str, line, when, view) -> tuple:
    """A line's input in the log or recent block: the line, its event's
    time and line_reads (its names), every value its row reads."""
    return line_inputs(block, [(line, when)], view)[0]


def line_inputs(block: str, lines, view) -> list[tuple]:
    """line_input of each (line, when) of `lines`, the view read once (a
    render asks for the 40 lines of the log and the recent ones)."""
    names, models = _view_reads(view)
    return [(block, line, when, _line_reads(line, names, models)) for line, when in lines]


def log_lines(lines, times) -> list[tuple]:
    """The log block's lines, newest first, each with the time it shows:
    a line's own only where a minute starts, reading down from the newest
    (the newest line of each minute; the lines under it, of the same
    minute, leave it out, as a chat does). A Turn's lines come a few a
    minute, and a reloaded page holds 40 of them (issue 18: the first load).
    A line's time depends on the line above it: a new line of the same
    minute takes the time from the line it pushes down, whose part is then
    sent again without it (rendering.py)."""
    shown = []
    above = None
    for line in reversed(lines):
        when = times.get(line.seq)
        # Minutes since the epoch: equal exactly when the local minutes are
        # (every time zone is a whole number of minutes off UTC).
        minute = None if when is None else int(when.timestamp()) // 60
        shown.append((line, when if minute != above else None))
        above = minute
    return shown


def log_row_html(line, when, view) -> tuple[tuple, str]:
    """(input, HTML) of one <li> of the log block (log.html): the input is
    line_input's, `when` the time it shows (log_lines: None for a line that
    leaves it to the line above); rendering.py splices rows by it. Memoized
    by the same values."""
    inputs = line_input("log", line, when, view)
    key = ("log", line_key(line), when, inputs[3], get_language())
    html = _log_rows.get(key)
    if html is None:
        # The line's words as the recent block's row has them (log_line's
        # memo): a new line is worded once per viewer, not once per block.
        words = log_line(line, view)
        # Issue 18: a <time>, and no data-seq (the id has it): a line is
        # about 40 bytes of markup, and a reloaded page holds 40 of them.
        if when:
            html = format_html(
                '<li id="log-{}"><time>{}</time> {}</li>',
                line.seq,
                time_format(template_localtime(when), "H:i"),
                words,
            )
        else:
            html = format_html('<li id="log-{}">{}</li>', line.seq, words)
        _log_rows.put(key, html)
    return inputs, html


def recent_row_html(line, when, view) -> tuple[tuple, str]:
    """(input, HTML) of one line of the recent block (recent.html), as
    log_row_html is of the log's."""
    inputs = line_input("recent", line, when, view)
    key = ("recent", line_key(line), when, inputs[3], get_language())
    html = _log_rows.get(key)
    if html is None:
        shown = time_format(template_localtime(when), "H:i") if when else ""
        html = format_html(
            '<li id="recent-{}"><time>{}</time>{}</li>',
            line.seq,
            shown,
            log_line(line, view),
        )
        _log_rows.put(key, html)
    return inputs, html


@register.simple_tag(takes_context=True)
def log_rows(context):
    """The <li>s of the log block (log.html), newest first (log_lines);
    each a part of the block when rendering.py collects them."""
    view, parts = context["view"], context.get(PARTS)
    rows = []
    for line, when in log_lines(context["log"], context["times"]):
        inputs, html = log_row_html(line, when, view)
        rows.append(parts.add(f"log-{line.seq}", inputs, html) if parts is not None else html)
    return mark_safe("".join(rows))  # noqa: S308 (our own rows, each escaped)


@register.simple_tag(takes_context=True)
def recent_row(context, line):
    """One <li> of the recent block (recent.html), a part as log_row's."""
    inputs, html = recent_row_html(line, context["times"].get(line.seq), context["view"])
    parts = context.get(PARTS)
    return parts.add(f"recent-{line.seq}", inputs, html) if parts is not None else html


def undo_html(view, code: str) -> str:
    """The "Undo my last change" part of the controls (rendering.SPLICED):
    always there in play, empty unless this viewer may undo, so that it is
    swapped by its id on its own when it moves to the other player."""
    key = ("undo", view.can_undo, code, get_language())
    html = _log_rows.get(key)
    if html is None:
        values = {"can_undo": view.can_undo, "code": code}
        html = mark_safe(render_to_string("tracker/blocks/undo.html", values))  # noqa: S308 (our own template)
        _log_rows.put(key, html)
    return html


@register.simple_tag(takes_context=True)
def undo_part(context):
    from tracker.block_inputs import undo

    view = context["view"]
    html = undo_html(view, context["match"].code)
    parts = context.get(PARTS)
    return parts.add("undo", undo(view), html) if parts is not None else html
