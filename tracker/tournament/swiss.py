"""Swiss pairing (issue 21): round 1 at random from a seed, later rounds
within score groups, no rematch that can be avoided, and a bye for an odd
player (at most one bye per player while someone else can take it).

The hard part, a best matching over all pairs at once, is networkx's
`max_weight_matching` (Edmonds' blossom algorithm), not ours: pairing down
greedily group by group paints itself into corners where the last players
have all met. We only choose the weights:

- with `maxcardinality=True` every player is paired when possible;
- an edge that is a rematch costs more than every other cost together, so
  the matching has as few rematches as any perfect matching can have;
- within that, the bye's place (below), then pairs far apart in the
  standings cost the square of their distance in Tournament Points
  (pairing within score groups, floating the fewest players the shortest
  way);
- with an odd number of players a virtual BYE player joins the graph; its
  edges go to players who never had a bye, cheaper the lower they stand,
  each place up costing more than every pair's distance together: the bye
  goes to the lowest player who has not had one, as usual in Swiss, even
  when that floats a player out of an odd score group (only a rematch
  costs more).
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Mapping
from dataclasses import dataclass

import networkx as nx

BYE = "bye"


@dataclass(frozen=True)
class Entrant:
    """A player still in the event: roster id, Tournament Points so far,
    and a tiebreak order (lower ranks first) for the bye."""

    player: int
    points: int
    rank: int = 0


@dataclass(frozen=True)
class Round:
    pairs: tuple[tuple[int, int], ...]  # in table order: table 1 first
    bye: int | None


def first_round(players: Iterable[int], seed: int) -> Round:
    """Round 1: a random draw from `seed`. The same seed gives the same
    draw (re-runnable, shown to the players if asked), like the Classified
    draw (CL-2)."""
    order = sorted(players)
    random.Random(seed).shuffle(order)
    bye = order.pop() if len(order) % 2 else None
    return Round(tuple((order[i], order[i + 1]) for i in range(0, len(order), 2)), bye)


def pair_round(
    entrants: Iterable[Entrant],
    met: Iterable[frozenset[int] | tuple[int, int]],
    had_bye: Iterable[int],
) -> Round:
    """A later round: every entrant paired (or the one bye), by the weights
    described in the module docstring."""
    people = sorted(entrants, key=lambda e: (-e.points, e.rank, e.player))
    if not people:
        return Round((), None)
    met_pairs = {frozenset(pair) for pair in met}
    byes = set(had_bye)
    spread = max(e.points for e in people) - min(e.points for e in people) + 1
    # More than all the pairs' distances together: the bye's place comes
    # before them, so a winner never takes a free win to keep the losers
    # together (one of an odd top group floats down instead).
    distances = (len(people) // 2 + 1) * spread**2
    bye_step = distances + 1
    # Bigger than the sum of every other cost in any matching.
    rematch_cost = len(people) * bye_step + distances + 1
    repeat_bye_cost = rematch_cost * (len(people) + 1)
    base = repeat_bye_cost * 2
    graph = nx.Graph()
    for i, one in enumerate(people):
        for two in people[i + 1 :]:
            cost = (one.points - two.points) ** 2
            if frozenset((one.player, two.player)) in met_pairs:
                cost += rematch_cost
            graph.add_edge(one.player, two.player, weight=base - cost)
    if len(people) % 2:
        can_take = [e for e in people if e.player not in byes] or people
        for place, entrant in enumerate(people):
            if entrant not in can_take:
                continue
            # Lower in the standings: cheaper; a second bye only if nobody else can.
            cost = (len(people) - 1 - place) * bye_step
            if entrant.player in byes:
                cost += repeat_bye_cost
            graph.add_edge(BYE, entrant.player, weight=base - cost)
    matching = nx.max_weight_matching(graph, maxcardinality=True)
    place = {e.player: n for n, e in enumerate(people)}
    bye, pairs = None, []
    for one, two in matching:
        if BYE in (one, two):
            bye = two if one == BYE else one
            continue
        pairs.append(tuple(sorted((one, two), key=place.__getitem__)))
    pairs.sort(key=lambda pair: place[pair[0]])
    return Round(tuple(pairs), bye)


def rematches(round_: Round, met: Iterable[frozenset[int] | tuple[int, int]]) -> int:
    met_pairs = {frozenset(pair) for pair in met}
    return sum(frozenset(pair) in met_pairs for pair in round_.pairs)


def swap(round_: Round, one: int, two: int) -> Round:
    """The organizer's swap before publishing: `one` and `two` trade places
    (either may be the bye)."""

    def traded(player: int | None) -> int | None:
        return two if player == one else one if player == two else player

    pairs = tuple((traded(a), traded(b)) for a, b in round_.pairs)
    return Round(pairs, traded(round_.bye))


def history(rounds: Iterable[Mapping]) -> tuple[set[frozenset[int]], set[int]]:
    """Who met whom and who had a bye, from stored rounds
    ({"pairs": [[a, b], ...], "bye": id or None})."""
    met, byes = set(), set()
    for stored in rounds:
        for a, b in stored.get("pairs", ()):
            met.add(frozenset((a, b)))
        if stored.get("bye") is not None:
            byes.add(stored["bye"])
    return met, byes
