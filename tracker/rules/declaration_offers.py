"""Which trooper may declare which skill, and which outcome may be reported
on which trooper, now: what the Order, ARO and report forms offer (issue 19:
a form the page offers is one the server accepts).

Each pair is asked of the handlers that decide DeclareSkill and DeclareAro,
as token_offers.py does for the Command Tokens, so an offer and a refusal
cannot drift apart: a trooper whose delayed ARO is lost (HE-8) is not
offered, a trooper with a Retreat! marker is offered only movement Short
Skills, Dodge, Cautious Movement and Reset (RT-3), a Combat Group with no
Order left offers none of its troopers.

A form has one trooper select and one skill select, so troopers are grouped
by the skills they may declare: each group is a form of its own, and every
trooper × skill pair a form offers is one the server takes.

Twins (twins.py: troopers no handler can tell apart) are asked once per
view, the first one's answers given to the others: both seats' views are
built on every action, and asking each pair was most of their cost (issue
18). Never across views: a view asks for one seat, on one state.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass

from .commands import Command, accepts
from .identity import alias_for
from .orders import ARO_SKILLS, OUTCOME_KINDS, SKILLS, DeclareAro, DeclareSkill, ReportOutcome
from .queries import trooper_visible
from .state import DEPLOYMENT, IMPETUOUS_PHASE, ORDERS, PLAYING, MatchState, Trooper
from .twins import once_per_twin, twin_key

# What the Order form lists first (an ARO-only or a sealed skill has no
# place there: sealed ones have a command of their own, ActivateHoloecho).
ORDER_SKILLS: tuple[str, ...] = tuple(
    name for name, skill in SKILLS.items() if not skill.aro_only and not skill.sealed
)
# A second Short Skill: no Entire Order.
SECOND_SKILLS: tuple[str, ...] = tuple(
    name for name, skill in SKILLS.items() if not skill.entire and not skill.aro_only
)


@dataclass(frozen=True)
class Offer:
    """Troopers that may declare exactly these skills now (in list order)."""

    trooper_ids: tuple[str, ...]
    skills: tuple[str, ...]


def _accepted(state: MatchState, seat: str, command: Command) -> bool:
    return accepts(state, seat, command)


def _once_per_twin(state: MatchState, ask: Callable[[Trooper], tuple[str, ...]], fields=None):
    return once_per_twin(twin_key(state, fields), ask)


# What a report of an outcome reads of any trooper, the one it is about or
# another, when no other part of the state names that trooper (twins.py):
# whose it is, whether it is in Hidden Deployment, a marker (and its number,
# by which the phone names it) or in Holoecho, and its traits (HD-4's
# Infiltration), besides its id and name. Not its points, Combat Group,
# Silhouette, state or tokens: troopers alike in these six fields are asked
# once, where the Order offers (which read more: DECLARE_READS) ask each
# kind of trooper of a list. A real list has few troopers alike in every field and many alike in
# these (make bench with BENCH_DISTINCT=1).
# tests/rules/test_fast_offers.py records every field a report reads of
# every trooper, at every state of its matches, and fails on one not named
# here.
REPORT_READS = ("seat", "hidden", "marker", "marker_number", "holoechoes", "traits")


# What the declaration of an Order or an ARO reads of any trooper, when no
# other part of the state names it (twins.py): whose it is, its Combat Group
# and whether it gives a Regular Order now, whether it is on the table and
# may act, its traits and Holoechoes, Retreat!. Not its points, Silhouette,
# tokens or Fireteam: in the Orders Phase, where a match spends most of its
# taps, the active player's offers asked every skill of every profile of a
# real list (15 troopers of distinct points: 270 handler calls and about
# 5 ms a view). Impetuous and reserved are not read there today (the
# Impetuous Phase and deployment are asked elsewhere) but are kept: a rule
# reading them would tell twins apart, and they cost no twins in a list.
# tests/rules/test_fast_offers.py records every field the declarations read
# of every trooper, at every state of its matches, and fails on one not here.
DECLARE_READS = (
    "seat",
    "combat_group",
    "condition",
    "evacuated",
    "hidden",
    "holoechoes",
    "ignores_retreat",
    "impetuous",
    "marker",
    "marker_number",
    "regular_this_turn",
    "reserved",
    "traits",
)


def _offered(
    state: MatchState,
    troopers: Iterable[Trooper],
    skills: Callable[[Trooper], tuple[str, ...]],
) -> tuple[Offer, ...]:
    """`troopers` grouped by the skills each may declare, asked once per
    twin in what a declaration reads (DECLARE_READS)."""
    asked = _once_per_twin(state, skills, DECLARE_READS)
    return _grouped([(trooper, asked(trooper)) for trooper in troopers])


def _grouped(pairs: list[tuple[Trooper, tuple[str, ...]]]) -> tuple[Offer, ...]:
    """One Offer per distinct set of skills, the largest set first."""
    groups: dict[tuple[str, ...], list[str]] = {}
    for trooper, skills in pairs:
        if skills:
            groups.setdefault(skills, []).append(trooper.id)
    ordered = sorted(groups.items(), key=lambda item: -len(item[0]))
    return tuple(Offer(tuple(ids), skills) for skills, ids in ordered)


def aro_offers(state: MatchState, seat: str | None) -> tuple[Offer, ...]:
    """The reactive player's AROs against the Order in progress."""
    turn = state.turn
    if seat is None or state.phase != PLAYING or turn is None or turn.order is None:
        return ()
    if turn.seat == seat:
        return ()
    actor = state.troopers.get(turn.order.trooper_id)
    if actor is None:
        return ()
    # The target as this phone names it (a marker by its reference, identity.py).
    alias = alias_for(state, actor, seat)
    target = alias.ref if alias is not None else actor.id
    element = actor.holoechoes[0] if actor.holoechoes else ""

    def skills(trooper: Trooper) -> tuple[str, ...]:
        return tuple(
            name
            for name in ARO_SKILLS
            if _accepted(
                state,
                seat,
                DeclareAro(
                    trooper_id=trooper.id,
                    skill=name,
                    target_id=target,
                    target_element=element,
                ),
            )
        )

    ready = (t for t in state.troopers_of(seat) if not t.out_of_action and t.condition == "normal")
    return _offered(state, ready, skills)


def order_offers(state: MatchState, seat: str | None) -> tuple[Offer, ...]:
    """The active player's first declaration of a new Order (Orders Phase)."""
    turn = state.turn
    if seat is None or state.phase != PLAYING or turn is None or turn.seat != seat:
        return ()
    if turn.phase != ORDERS or turn.order is not None:
        return ()

    def skills(trooper: Trooper) -> tuple[str, ...]:
        return tuple(
            name
            for name in ORDER_SKILLS
            if _accepted(state, seat, DeclareSkill(trooper_id=trooper.id, skill=name))
        )

    ready = (
        t
        for t in state.troopers_of(seat)
        if not (t.out_of_action or t.reserved) and t.condition == "normal"
    )
    return _offered(state, ready, skills)


def second_skills(state: MatchState, seat: str | None) -> tuple[str, ...]:
    """The second Short Skill the trooper of the Order in progress may declare."""
    turn = state.turn
    if seat is None or state.phase != PLAYING or turn is None or turn.seat != seat:
        return ()
    if turn.order is None or turn.phase not in (ORDERS, IMPETUOUS_PHASE):
        return ()
    trooper_id = turn.order.trooper_id
    return tuple(
        name
        for name in SECOND_SKILLS
        if _accepted(state, seat, DeclareSkill(trooper_id=trooper_id, skill=name))
    )


@dataclass(frozen=True)
class ReportOffer:
    """Troopers (as the viewer names them) on which exactly these outcomes
    may be reported now, and the Holoecho elements each of them has."""

    trooper_ids: tuple[str, ...]
    outcomes: tuple[str, ...]
    elements: tuple[str, ...]


def report_offers(state: MatchState, seat: str | None) -> tuple[ReportOffer, ...]:
    """What the report form offers: per trooper on the table that the viewer
    sees, the outcomes the server takes for it (an Infiltration roll only for
    a trooper in Hidden Deployment with Infiltration, HD-4; Discovered only
    for a marker, a Holoecho or Hidden Deployment, HD-C1/HE-5; Coherency
    checks only for a Holoecho, HE-2), with the elements it has on the table
    (HE-3). A trooper in Hidden Deployment is not on the table (HD-2)."""
    if seat is None or state.phase not in (PLAYING, DEPLOYMENT):
        return ()

    def outcomes_on(trooper: Trooper) -> tuple[str, ...]:
        ref = _ref(state, trooper, seat)
        return tuple(
            outcome
            for outcome in OUTCOME_KINDS
            if all(
                _accepted(state, seat, ReportOutcome(outcome=outcome, trooper_id=ref, element=e))
                for e in (trooper.holoechoes or ("",))
            )
        )

    asked = _once_per_twin(state, outcomes_on, REPORT_READS)
    groups: dict[tuple[tuple[str, ...], tuple[str, ...]], list[str]] = {}
    for trooper in state.troopers.values():
        if not trooper_visible(trooper, seat) or trooper.condition == "dead":
            continue
        ref = _ref(state, trooper, seat)
        elements = tuple(trooper.holoechoes)
        outcomes = asked(trooper)
        if outcomes:
            groups.setdefault((outcomes, elements), []).append(ref)
    ordered = sorted(groups.items(), key=lambda item: -len(item[0][0]))
    return tuple(
        ReportOffer(tuple(ids), outcomes, elements) for (outcomes, elements), ids in ordered
    )


def _ref(state: MatchState, trooper: Trooper, seat: str) -> str:
    """The trooper as this phone names it (a marker by its reference)."""
    alias = alias_for(state, trooper, seat)
    return alias.ref if alias is not None else trooper.id
