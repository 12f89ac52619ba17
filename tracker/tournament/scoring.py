"""Tournament scoring: a table of Tournament Points per event, and the
standings it gives (issue 21).

The default is OURS, written in the style of the official tournament system
(ITS): Tournament Points (TP) for a win, a draw and a loss, plus two bonuses,
then Objective Points (OP) and Victory Points (VP, army points alive) as the
tiebreakers, in that order. No tournament rules digest exists in
/work/shared, so no number here claims to be the official one: every value
is editable per event (seasons change them) on the event's scoring form.

- The winner is the player with more Objective Points; equal OP is a draw.
- Offensive bonus: a player who scores at least `offensive_at` OP gets
  `offensive_bonus` TP, win or lose.
- Defensive bonus: a loser who lost by at most `defensive_within` OP gets
  `defensive_bonus` TP.
- A bye scores `bye_tp` TP, `bye_op` OP and `bye_vp` VP.
"""

from __future__ import annotations

import unicodedata
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field, fields

DEFAULT_SCORING: dict[str, int] = {
    "win": 4,
    "draw": 2,
    "loss": 0,
    "offensive_bonus": 1,
    "offensive_at": 5,
    "defensive_bonus": 1,
    "defensive_within": 2,
    "bye_tp": 4,
    "bye_op": 5,
    "bye_vp": 0,
}


def scoring_table(stored: Mapping | None) -> dict[str, int]:
    """The event's table: its stored values over the default, whole numbers."""
    table = dict(DEFAULT_SCORING)
    for key, value in (stored or {}).items():
        if key in table and isinstance(value, int) and not isinstance(value, bool):
            table[key] = value
    return table


@dataclass(frozen=True)
class Result:
    """A confirmed or settled match of the event, between two roster ids."""

    round: int
    player_a: int
    player_b: int
    op_a: int
    op_b: int
    vp_a: int
    vp_b: int


@dataclass(frozen=True)
class Bye:
    round: int
    player: int


def tournament_points(table: Mapping[str, int], own_op: int, their_op: int) -> int:
    """TP one player earns from one match, by the table."""
    if own_op > their_op:
        points = table["win"]
    elif own_op == their_op:
        points = table["draw"]
    else:
        points = table["loss"]
        if their_op - own_op <= table["defensive_within"]:
            points += table["defensive_bonus"]
    if own_op >= table["offensive_at"]:
        points += table["offensive_bonus"]
    return points


@dataclass
class Standing:
    player: int
    name: str
    dropped: bool = False
    tp: int = 0
    op: int = 0
    vp: int = 0
    wins: int = 0
    draws: int = 0
    losses: int = 0
    byes: int = 0
    opponents: list[int] = field(default_factory=list)
    rank: int = 0

    @property
    def played(self) -> int:
        return self.wins + self.draws + self.losses

    def key(self) -> tuple:
        return (-self.tp, -self.op, -self.vp, alphabetical(self.name), self.player)


def alphabetical(name: str) -> str:
    """The name as a reader sorts it: case and accents folded, so equal
    players list "Álvaro" among the A's, not after "Z" (its bytes)."""
    decomposed = unicodedata.normalize("NFKD", name.casefold())
    return "".join(c for c in decomposed if not unicodedata.combining(c))


STANDING_FIELDS = [f.name for f in fields(Standing)]


def standings(
    players: Mapping[int, tuple[str, bool]],
    results: Iterable[Result],
    byes: Iterable[Bye],
    table: Mapping[str, int],
) -> list[Standing]:
    """Every roster player (id -> (name, dropped)) ranked by TP, then OP,
    then VP. Players tied on all three share a rank. Results naming a player
    not on the roster are ignored (a pasted pairing with an unknown name)."""
    rows = {pid: Standing(pid, name, dropped) for pid, (name, dropped) in players.items()}
    for result in results:
        a, b = rows.get(result.player_a), rows.get(result.player_b)
        if a is None or b is None:
            continue
        for me, other, mine, theirs, vp in (
            (a, b, result.op_a, result.op_b, result.vp_a),
            (b, a, result.op_b, result.op_a, result.vp_b),
        ):
            me.tp += tournament_points(table, mine, theirs)
            me.op += mine
            me.vp += vp
            me.opponents.append(other.player)
            if mine > theirs:
                me.wins += 1
            elif mine == theirs:
                me.draws += 1
            else:
                me.losses += 1
    for bye in byes:
        row = rows.get(bye.player)
        if row is not None:
            row.byes += 1
            row.tp += table["bye_tp"]
            row.op += table["bye_op"]
            row.vp += table["bye_vp"]
    ranked = sorted(rows.values(), key=Standing.key)
    for index, row in enumerate(ranked):
        previous = ranked[index - 1] if index else None
        same = previous and (previous.tp, previous.op, previous.vp) == (row.tp, row.op, row.vp)
        row.rank = previous.rank if same else index + 1
    return ranked
