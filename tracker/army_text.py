"""Read the text the official Infinity army builder copies for a list.

Pure Python, no Django: text in, rows and problems out. The shape we read:

    Military Orders                       <- faction
    Tournament list, Round 1              <- list name
    ──────────────────────────────────    <- separators are skipped
    GROUP 1 10 1                          <- a Combat Group heading (GRUPO too)
    KNIGHT OF MONTESA (Lieutenant) Spitfire / Pistol, CCW. (1 | 37)
    FUSILIER Combi Rifle / Pistol, Knife. (0 | 10)

One line per trooper: the name (in capitals, as the builder writes it),
options in parentheses, the loadout, and "(SWC | points)" at the end. A line
we cannot read becomes a problem with its line number and reason; a caller
imports nothing while there is one. Other builders' totals lines ("300
points", "SWC 6") and the builder's link are recognised and skipped.

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
    HIDDEN_DEPLOYMENT,
    HOLOPROJECTOR,
    INFILTRATION,
    LIEUTENANT_CANDIDATE,
)

MAX_TEXT = 20_000

_TROOPER = re.compile(
    r"^(?P<body>.*?)\s*\(\s*(?P<swc>[+-]?\d+(?:[.,]\d+)?)\s*\|\s*(?P<points>-?\d+)\s*\)\s*\.?$"
)
_GROUP = re.compile(r"^(?:GROUP|GRUPO|GROUPE|GRUPPE)\s+(?P<group>\d+)\b", re.IGNORECASE)
_SEPARATOR = re.compile(r"^[\s\-─━=_*~·.]+$")
_TOTALS = re.compile(r"\b(points?|pts|puntos|swc|cap)\b", re.IGNORECASE)
_LINK = re.compile(r"^https?://\S+$")
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
    problems: tuple[Problem, ...]

    @property
    def points(self) -> int:
        return sum(row.cost for row in self.rows)

    @property
    def ok(self) -> bool:
        return bool(self.rows) and not self.problems


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


def parse(text: str) -> ParsedList:
    """Every trooper row, the faction and list name, and every problem."""
    if len(text) > MAX_TEXT:
        reason = _("The pasted text is too long (at most %(max)s characters).")
        return ParsedList("", "", (), (Problem(0, "", reason, {"max": MAX_TEXT}),))
    header: list[str] = []
    rows: list[Row] = []
    problems: list[Problem] = []
    group: int | None = None
    sizes: dict[int, int] = {}
    for number, raw in enumerate(text.splitlines(), start=1):
        line = " ".join(raw.replace("\u00a0", " ").split())
        if not line or _SEPARATOR.match(line) or _LINK.match(line):
            continue
        heading = _GROUP.match(line)
        if heading:
            group = int(heading.group("group"))
            if not 1 <= group <= MAX_GROUPS:
                problems.append(
                    Problem(
                        number,
                        line,
                        _("Combat group must be between %(low)s and %(high)s."),
                        {"low": 1, "high": MAX_GROUPS},
                    )
                )
            continue
        trooper = _TROOPER.match(line)
        if trooper is None:
            if group is None and not rows and len(header) < 2:
                header.append(line)
            elif group is None and _TOTALS.search(line):
                continue  # "300 points | 6 SWC" and the like, before the groups
            else:
                problems.append(
                    Problem(
                        number,
                        line,
                        _('Not a trooper line: it should end with "(SWC | points)".'),
                    )
                )
            continue
        row_problem = _row_problem(trooper, sizes, group or 1, len(rows))
        if row_problem:
            problems.append(Problem(number, line, *row_problem))
            continue
        name, options = _split_body(trooper.group("body"))
        current = group or 1
        sizes[current] = sizes.get(current, 0) + 1
        rows.append(
            Row(
                line=number,
                name=_display_name(name),
                cost=int(trooper.group("points")),
                swc=trooper.group("swc").replace(",", "."),
                combat_group=current,
                options=options,
                traits=_traits(options),
            )
        )
    if not rows and not problems:
        problems.append(Problem(0, "", _("No trooper lines were found in the pasted text.")))
    faction = header[0] if header else ""
    name = header[1] if len(header) > 1 else ""
    return ParsedList(faction[:MAX_NAME], name[:MAX_NAME], tuple(rows), tuple(problems))


def _row_problem(match: re.Match, sizes: dict, group: int, count: int) -> tuple | None:
    name, _options = _split_body(match.group("body"))
    name = _display_name(name)
    points = int(match.group("points"))
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
