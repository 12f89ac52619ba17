"""Read the text the official Infinity army builder copies for a list.

Pure Python, no Django: text in, rows and problems out. The shape we read:

    Military Orders                       <- faction
    Tournament list, Round 1              <- list name
    ──────────────────────────────────    <- separators are skipped
    GROUP 1 10 1                          <- a Combat Group heading (GRUPO too)
    KNIGHT OF MONTESA (Lieutenant) Spitfire / Pistol, CCW. (1 | 37)
    FUSILIER Combi Rifle / Pistol, Knife. (0 | 10)

One line per trooper: the name (in capitals, as the builder writes it),
options in parentheses, the loadout, and "(SWC | points)" at the end. Every
trooper line that reads is kept; every other line is skipped and listed with
its line number and why (a totals line in either order, "6 SWC | 272 Points"
or "148 puntos | CAP 1"; the app's "Open with Army…" banner or link; a line
that is not a trooper's), so the player sees what did not come in. Bullets,
emoji and other decoration around a line are ignored. A paste is refused
whole only when no trooper line reads at all.

No library reads this format (it is the builder's own clipboard text), so
this is a small hand-written reader.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from tracker.rules.i18n import _
from tracker.rules.setup import MAX_COST, MAX_GROUP_SIZE, MAX_GROUPS, MAX_NAME, MAX_TROOPERS
from tracker.rules.state import (
    CAMOUFLAGE,
    COURAGE,
    CUBE,
    DOCTOR,
    ENGINEER,
    FRENZY,
    HIDDEN_DEPLOYMENT,
    HOLOMASK,
    HOLOPROJECTOR,
    IMPETUOUS,
    INFILTRATION,
    IRREGULAR,
    LIEUTENANT_CANDIDATE,
    RELIGIOUS,
    REMOTE_PRESENCE,
    VETERAN,
)

MAX_TEXT = 20_000

_TROOPER = re.compile(
    r"^(?P<body>.*?)\s*\(\s*(?P<swc>[+-]?\d+(?:[.,]\d+)?)\s*\|\s*(?P<points>-?\d+)\s*\)\s*\.?$"
)
_GROUP = re.compile(r"^(?:GROUP|GRUPO|GROUPE|GRUPPE)\s+(?P<group>\d+)\b", re.IGNORECASE)
_SEPARATOR = re.compile(r"^[\s\-─━=_*~·.]+$")
_TOTALS = re.compile(r"\b(points?|pts|puntos|swc|cap|total)\b", re.IGNORECASE)
_LINK = re.compile(r"https?://\S+")
# The app's "Open with Army" / "Abrir con Army" line under a shared list.
_BANNER = re.compile(r"^(?:open|abrir|ver|view)\b.*\b(?:army|infinity)\b", re.IGNORECASE)
_OPTIONS = re.compile(r"\(([^()]*)\)")

# Options the builder writes that name something the tracker tracks.
_TRAIT_WORDS = {
    "lieutenant": LIEUTENANT_CANDIDATE,
    "teniente": LIEUTENANT_CANDIDATE,
    "hidden deployment": HIDDEN_DEPLOYMENT,
    "despliegue oculto": HIDDEN_DEPLOYMENT,
    "holoprojector": HOLOPROJECTOR,
    "holoproyector": HOLOPROJECTOR,
    "camouflage": CAMOUFLAGE,
    "camuflaje": CAMOUFLAGE,
    "infiltration": INFILTRATION,
    "infiltración": INFILTRATION,
    # HE-9: without it a pasted HoloMask trooper sealed no mask at deployment.
    "holomask": HOLOMASK,
    "holomáscara": HOLOMASK,
    "holomascara": HOLOMASK,
    # The traits the rules read (RT-X1 ignores Retreat!, TM-T5/TM-T6 the
    # re-rolls, the Impetuous Phase, the Order Pool): a paste that dropped
    # them put a Courage trooper in Retreat! mid-game. The builder writes
    # them as a profile's options, in the list's language; the Spanish words
    # are the tick-boxes' own (labels.py).
    "courage": COURAGE,
    "coraje": COURAGE,
    "religious": RELIGIOUS,
    "tropa religiosa": RELIGIOUS,
    "veteran": VETERAN,
    "veterano": VETERAN,
    "frenzy": FRENZY,
    "frenesí": FRENZY,
    "frenesi": FRENZY,
    "impetuous": IMPETUOUS,
    "extremely impetuous": IMPETUOUS,
    "impetuoso": IMPETUOUS,
    "extremadamente impetuoso": IMPETUOUS,
    "irregular": IRREGULAR,
    "doctor": DOCTOR,
    "médico": DOCTOR,
    "medico": DOCTOR,
    "engineer": ENGINEER,
    "ingeniero": ENGINEER,
    "cube": CUBE,
    "petaca": CUBE,
    "remote presence": REMOTE_PRESENCE,
    "presencia remota": REMOTE_PRESENCE,
}


@dataclass(frozen=True)
class Row:
    line: int
    name: str
    cost: int
    swc: str
    combat_group: int
    options: tuple[str, ...]
    traits: tuple[str, ...]


@dataclass(frozen=True)
class Problem:
    line: int
    text: str
    # A message marked for translation, with its %(name)s parameters.
    reason: str
    params: dict = field(default_factory=dict)


@dataclass(frozen=True)
class ParsedList:
    faction: str
    name: str
    rows: tuple[Row, ...]
    # The lines left out, each with why; when no row reads, why nothing did.
    skipped: tuple[Problem, ...]

    @property
    def points(self) -> int:
        return sum(row.cost for row in self.rows)

    @property
    def ok(self) -> bool:
        """Something to import: at least one trooper line read."""
        return bool(self.rows)


def _display_name(raw: str) -> str:
    """FUSILIER ANGUS -> Fusilier Angus; names typed in mixed case stay."""
    name = " ".join(raw.replace("\u00a0", " ").split()).strip(" .,:-")
    if name != name.upper():
        return name
    return re.sub(r"[^\s\-]+", lambda word: word[0][:1] + word[0][1:].lower(), name)


def _split_body(body: str) -> tuple[str, tuple[str, ...]]:
    """The trooper's name and its options (the parenthesised parts)."""
    options = tuple(
        option.strip()
        for group in _OPTIONS.findall(body)
        for option in group.split(",")
        if option.strip()
    )
    if "(" in body:
        return body[: body.index("(")], options
    # No options: the builder writes the name in capitals, then the loadout.
    words, name = body.split(), []
    for word in words:
        letters = [c for c in word if c.isalpha()]
        if letters and word.upper() == word:
            name.append(word)
        else:
            break
    return (" ".join(name) if name else body), options


def _traits(options: tuple[str, ...]) -> tuple[str, ...]:
    found = set()
    for option in options:
        folded = option.casefold()
        for words, trait in _TRAIT_WORDS.items():
            if folded == words or folded.startswith(words + " ") or folded.startswith(words + ":"):
                found.add(trait)
    return tuple(sorted(found))


def _tidy(raw: str) -> str:
    """The line without what decorates it: spaces squeezed, bullets and emoji
    before the first letter or digit, and anything after the last ")" or
    word character ("(0 | 10) 🔥", "… (1 | 37) ✔")."""
    line = " ".join(raw.replace("\u00a0", " ").split())
    start = 0
    while start < len(line) and not (line[start].isalnum() or line[start] == "("):
        start += 1
    end = len(line)
    while end > start and not (line[end - 1].isalnum() or line[end - 1] in ").%"):
        end -= 1
    return line[start:end].strip()


def _not_a_trooper(line: str) -> str:
    """Why a line that is not a trooper's was skipped (a translatable text)."""
    if _LINK.search(line) or _BANNER.match(line):
        return _("The army builder's link or banner.")
    if _TOTALS.search(line) and not re.search(r"[a-z]{3,}", _TOTALS.sub("", line), re.I):
        return _("A totals line.")
    return _('Not a trooper line: it should end with "(SWC | points)".')


def parse(text: str) -> ParsedList:
    """Every trooper row, the faction and list name, and every line skipped."""
    if len(text) > MAX_TEXT:
        reason = _("The pasted text is too long (at most %(max)s characters).")
        return ParsedList("", "", (), (Problem(0, "", reason, {"max": MAX_TEXT}),))
    header: list[str] = []
    rows: list[Row] = []
    problems: list[Problem] = []
    group: int | None = None
    sizes: dict[int, int] = {}
    for number, raw in enumerate(text.splitlines(), start=1):
        shown = " ".join(raw.replace("\u00a0", " ").split())
        line = _tidy(raw)
        if not line or _SEPARATOR.match(shown):
            continue
        heading = _GROUP.match(line)
        if heading:
            group = _number(heading.group("group"))
            if not 1 <= group <= MAX_GROUPS:
                problems.append(
                    Problem(
                        number,
                        shown,
                        _("Combat group must be between %(low)s and %(high)s."),
                        {"low": 1, "high": MAX_GROUPS},
                    )
                )
            continue
        trooper = _TROOPER.match(line)
        if trooper is None:
            reason = _not_a_trooper(line)
            plain = "(SWC | points)" in reason
            if plain and group is None and not rows and len(header) < 2:
                header.append(line)  # the faction, then the list's name
                problems.append(
                    Problem(number, shown, _("A heading: the faction or the list's name."))
                )
            else:
                problems.append(Problem(number, shown, reason))
            continue
        row_problem = _row_problem(trooper, sizes, group or 1, len(rows))
        if row_problem:
            problems.append(Problem(number, shown, *row_problem))
            continue
        name, options = _split_body(trooper.group("body"))
        current = group or 1
        sizes[current] = sizes.get(current, 0) + 1
        rows.append(
            Row(
                line=number,
                name=_display_name(name),
                cost=_number(trooper.group("points")),
                swc=trooper.group("swc").replace(",", "."),
                combat_group=current,
                options=options,
                traits=_traits(options),
            )
        )
    if not rows:
        problems.append(Problem(0, "", _("No trooper lines were found in the pasted text.")))
    faction = header[0] if header else ""
    name = header[1] if len(header) > 1 else ""
    return ParsedList(faction[:MAX_NAME], name[:MAX_NAME], tuple(rows), tuple(problems))


def _number(digits: str) -> int:
    """The number a line's digits spell; one too long to read (Python reads
    at most 4,300 digits) is past every limit, so its line is refused with
    the range it must be in, as any other number out of range."""
    sign = -1 if digits.startswith("-") else 1
    return int(digits) if len(digits) <= 12 else sign * 10**12


def _row_problem(match: re.Match, sizes: dict, group: int, count: int) -> tuple | None:
    name, _options = _split_body(match.group("body"))
    name = _display_name(name)
    points = _number(match.group("points"))
    if not name:
        return (_("The trooper's name is missing."),)
    if len(name) > MAX_NAME:
        return (
            _("The trooper's name is too long (at most %(max)s characters)."),
            {"max": MAX_NAME},
        )
    if not 0 <= points <= MAX_COST:
        return (
            _("Cost must be between %(low)s and %(high)s."),
            {"low": 0, "high": MAX_COST},
        )
    if not 1 <= group <= MAX_GROUPS:
        return (_("This trooper is in a Combat Group the tracker cannot take."),)
    if sizes.get(group, 0) >= MAX_GROUP_SIZE:
        return (
            _("Combat group %(group)s has more than %(max)s troopers."),
            {"group": group, "max": MAX_GROUP_SIZE},
        )
    if count >= MAX_TROOPERS:
        return (_("An army list holds at most %(max)s troopers."), {"max": MAX_TROOPERS})
    return None
