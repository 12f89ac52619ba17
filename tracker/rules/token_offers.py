"""What a phone offers for each open Command Token use (TM-S2, TM-E, TM-T).

Each offer is asked of the same handlers that decide the command, so a phone
shows a use, a trooper or a target only when the server would accept it now:
the offer and the refusal cannot drift apart. Only the viewer's own troopers
and troopers it can see are ever tried or named.

A use offered per trooper is asked once per set of twins (twins.py:
troopers no handler can tell apart) in one view, twins in the fields that
use's handler reads (TOKEN_READS; issue 18).
"""

from __future__ import annotations

from collections.abc import Callable, Hashable
from dataclasses import dataclass, fields
from typing import TypeVar

from .command_tokens import COORDINATED, open_uses
from .commands import Command, accepts
from .identity import aliases
from .kept_offers import kept_answer, key_fields
from .queries import orders_left, trooper_visible
from .setup import MAX_GROUPS
from .state import MatchState, Trooper
from .token_tactical import (
    CoordinatedOrder,
    ForceGutsRoll,
    IgnoreRetreat,
    MakeOrderRegular,
    RerollDoctorWip,
    RerollEngineerWip,
)
from .token_uses import (
    CancelOpponentOrders,
    CancelPossessed,
    ChangeCombatGroup,
    LimitOpponentTokens,
    StrategicSuppressiveFire,
)
from .turns import DeclineStrategicUse
from .twins import once_per_twin, twin_key

Ids = tuple[str, ...]
A = TypeVar("A")

# What a use's handler reads of any trooper, the one it is asked about or
# another, when no other part of the state names that trooper (twins.py):
# troopers alike in these are asked once per view. Every use reads whose a
# trooper is and whether it is on the table and may act (its state, Hidden
# Deployment, marker, evacuation, traits); none reads points, which tell
# apart most troopers of a real list (make bench with BENCH_DISTINCT=1).
# tests/rules/test_fast_offers.py records every field each use reads of
# every trooper, at every state of its matches, and fails on one not here.
_ON_TABLE = ("seat", "condition", "evacuated", "hidden", "marker", "marker_number", "traits")
TOKEN_READS: dict[str, tuple[str, ...]] = {
    "TM-S2": (*_ON_TABLE, "holoechoes", "silhouette"),
    "TM-E1": (*_ON_TABLE, "combat_group"),
    "TM-E2": (*_ON_TABLE, "tokens"),
    "TM-T1": (*_ON_TABLE, "combat_group"),
    "TM-T2": _ON_TABLE,
    "TM-T3": (*_ON_TABLE, "combat_group", "regular_this_turn", "tokens"),
    "TM-T4": (*_ON_TABLE, "ignores_retreat"),
}


@dataclass(frozen=True)
class Reroll:
    """TM-T5/T6: a trooper of the current Order and the (id, name) of each
    trooper, seen by the viewer, its failed WIP Roll may be re-rolled on."""

    actor_id: str
    actor_name: str
    targets: tuple[tuple[str, str], ...]


@dataclass(frozen=True)
class TokenOffers:
    """The viewer's trooper ids per use (TM-S2 options as flags)."""

    s2_orders: bool = False
    s2_limit: bool = False
    s2_fire: Ids = ()
    # TM-S2: the viewer may let the moment pass (turns.DeclineStrategicUse).
    s2_decline: bool = False
    e1: Ids = ()
    # TM-E1 per trooper: (trooper ids, the Combat Groups each of them may go
    # to), troopers grouped by those groups: a form each, every pair taken.
    e1_moves: tuple[tuple[Ids, tuple[int, ...]], ...] = ()
    e2: Ids = ()
    t1: Ids = ()
    t2: Ids = ()
    t3: Ids = ()
    t4: Ids = ()
    t5: tuple[Reroll, ...] = ()
    t6: tuple[Reroll, ...] = ()

    def __bool__(self) -> bool:
        return any(getattr(self, f.name) for f in fields(self))


class _Asker:
    """Tries commands for one seat on one state."""

    def __init__(self, state: MatchState, seat: str) -> None:
        self.state = state
        self.seat = seat
        self.uses = open_uses(state, seat)
        self.mine = state.troopers_of(seat)

    def accepted(self, command: Command) -> bool:
        return accepts(self.state, self.seat, command)

    def twin(self, use: str) -> Callable[[Trooper], Hashable | None]:
        """The twin key (twins.twin_key) of troopers as `use` reads them."""
        return twin_key(self.state, TOKEN_READS[use])

    def kept(self, use: str, ask: Callable[[], A]) -> A:
        """`ask()`, answered once for states alike in what `use` reads
        (kept_offers.py): only for a use whose TOKEN_READS hold every field
        `ask` reads of a trooper, in its handler and here."""
        return kept_answer(self.state, self.seat, use, key_fields(TOKEN_READS[use]), ask)

    def per_twin(self, use: str, ask: Callable[[Trooper], A]) -> Callable[[Trooper], A]:
        """`ask` about a trooper for `use`, asked once per set of its twins."""
        return once_per_twin(self.twin(use), ask)

    def each(self, use: str, build: Callable[[Trooper], Command | None]) -> Ids:
        """The troopers for which `build(trooper)`, a command about that
        trooper alone, is accepted: kept while nothing `use` reads changed
        (a use that reads tokens, TM-E2 and TM-T3, is asked again when a
        State tap changes them)."""
        if use not in self.uses:
            return ()

        def asked() -> Ids:
            taken = self.per_twin(
                use, lambda t: (command := build(t)) is not None and self.accepted(command)
            )
            return tuple(t.id for t in self.mine if taken(t))

        return self.kept(use, asked)


def token_offers(state: MatchState, seat: str | None) -> TokenOffers:
    if seat is None or not open_uses(state, seat):
        return TokenOffers()
    ask = _Asker(state, seat)
    s2 = "TM-S2" in ask.uses
    moves = _moves(ask)
    return TokenOffers(
        s2_decline=s2 and ask.accepted(DeclineStrategicUse()),
        s2_orders=s2 and ask.accepted(CancelOpponentOrders(groups=_two_orders(state))),
        s2_limit=s2 and ask.accepted(LimitOpponentTokens()),
        s2_fire=ask.each("TM-S2", lambda t: StrategicSuppressiveFire(trooper_id=t.id)),
        e1=tuple(i for ids, _groups in moves for i in ids),
        e1_moves=moves,
        e2=ask.each("TM-E2", lambda t: CancelPossessed(trooper_id=t.id)),
        t1=_coordinable(ask),
        t2=ask.each("TM-T2", lambda t: ForceGutsRoll(trooper_id=t.id, passed=True)),
        t3=ask.each("TM-T3", lambda t: MakeOrderRegular(trooper_id=t.id)),
        t4=ask.each("TM-T4", lambda t: IgnoreRetreat(trooper_id=t.id)),
        t5=_rerolls(ask, "TM-T5", RerollDoctorWip),
        t6=_rerolls(ask, "TM-T6", RerollEngineerWip),
    )


def _two_orders(state: MatchState) -> list[str]:
    """Some legal choice of 2 Orders to cancel, to ask whether TM-S2 may."""
    choice: list[str] = []
    for group, count in orders_left(state).items():
        choice += [str(group)] * count
    return choice[:2]


def _moves(ask: _Asker) -> tuple[tuple[Ids, tuple[int, ...]], ...]:
    """TM-E1: troopers that some other Combat Group would take, grouped by
    the groups that would (never a full one, never their own)."""
    if "TM-E1" not in ask.uses:
        return ()
    # Kept while nothing its key compares changed (kept_offers.key_fields:
    # a State tap's tokens are not among them).
    return ask.kept("TM-E1", lambda: _asked_moves(ask))


def _asked_moves(ask: _Asker) -> tuple[tuple[Ids, tuple[int, ...]], ...]:
    by_groups: dict[tuple[int, ...], list[str]] = {}

    def groups_for(trooper: Trooper) -> tuple[int, ...]:
        return tuple(
            g
            for g in range(1, MAX_GROUPS + 1)
            if g != trooper.combat_group
            and ask.accepted(ChangeCombatGroup(trooper_id=trooper.id, group=g))
        )

    asked = ask.per_twin("TM-E1", groups_for)
    for trooper in ask.mine:
        groups = asked(trooper)
        if groups:
            by_groups.setdefault(groups, []).append(trooper.id)
    return tuple((tuple(ids), groups) for groups, ids in by_groups.items())


def _coordinable(ask: _Asker) -> Ids:
    """TM-T1: troopers that could join a Coordinated Order with a groupmate."""
    if "TM-T1" not in ask.uses:
        return ()
    # Most of the Command Token offers' cost (a Coordinated Order asked of
    # each trooper with a mate): kept as TM-E1's is.
    return ask.kept("TM-T1", lambda: _asked_coordinable(ask))


def _asked_coordinable(ask: _Asker) -> Ids:
    # Per twin too: swapping two twins maps the mates of one onto the mates
    # of the other, and no handler tells the swapped commands apart. So for
    # the mates: two twin mates, swapped, leave `trooper` as it is, so one
    # of each set of twin mates is asked (issue 18).
    key = ask.twin("TM-T1")

    def with_a_mate(trooper: Trooper) -> bool:
        mates = [t for t in ask.mine if t.combat_group == trooper.combat_group and t != trooper]
        return any(
            ask.accepted(CoordinatedOrder(trooper_ids=[trooper.id, m.id]))
            for m in _one_per_twin(mates, key)
        )

    asked = ask.per_twin("TM-T1", with_a_mate)
    return tuple(t.id for t in ask.mine if asked(t))


def _one_per_twin(troopers: list[Trooper], key) -> list[Trooper]:
    """`troopers` less any twin (twins.twin_key) of one before it."""
    seen: set = set()
    kept = []
    for trooper in troopers:
        twin = key(trooper)
        if twin is None or twin not in seen:
            kept.append(trooper)
            if twin is not None:
                seen.add(twin)
    return kept


def _rerolls(ask: _Asker, use: str, command: type[Command]) -> tuple[Reroll, ...]:
    """TM-T5/T6: the troopers of the current Order, each with its targets."""
    order = ask.state.turn.order if ask.state.turn else None
    if use not in ask.uses or order is None:
        return ()
    acting = [order.trooper_id, *order.extra.get(COORDINATED, ())]
    # Each target as the player knows it: an enemy marker by its reference
    # and number, a HoloMask by its masked type (identity.py).
    known = aliases(ask.state, ask.seat)
    seen = [
        (known[t.id].ref, known[t.id].name) if t.id in known else (t.id, t.name)
        for t in ask.state.troopers.values()
        if trooper_visible(t, ask.seat)
    ]
    offers = []
    for actor in dict.fromkeys(acting):
        targets = tuple(
            (ref, name)
            for ref, name in seen
            if ask.accepted(command(trooper_id=actor, target_id=ref))
        )
        if targets:
            offers.append(Reroll(actor, ask.state.troopers[actor].name, targets))
    return tuple(offers)
