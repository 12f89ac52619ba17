"""TM — Command Token uses made in a Tactical Phase: the Strategic Use of
TM-S2 (in the opponent's first Tactical Phase) and the Executive Uses TM-E1
and TM-E2 (in one's own); plus the helpers every use shares. The Tactical
Uses TM-T1..T6 are in token_tactical.py, the TM-S1 reserve in sealing.py.

Each handler spends through `spend_token` first (the one place that checks
TM-0, the use's window and the TM-S2 limit), then checks its targets. The
table — dice, lines of fire, Suppressive Fire requirements — stays with the
players: the tracker records the use and applies what it changes.

Hidden Deployment: a hidden trooper is named only in events private to its
owner, except where a rule reveals it (HD-5 tells the opponent that one
exists; a hidden trooper acting as if it declared is revealed first).
"""

from __future__ import annotations

from dataclasses import dataclass

from .command_tokens import CANCELLED, STRATEGIC_USED, TOKEN_LIMIT, spend_token
from .commands import Command, handles
from .conditions import visible_trooper
from .errors import InvalidInput, NotAllowed
from .events import Event
from .evolve import applies, evolve_all
from .i18n import _, ngettext
from .orders import SKILL_GUARDS, Skill, order_source
from .queries import order_pool, orders_left
from .sealing import reveal
from .setup import MAX_GROUP_SIZE, MAX_GROUPS
from .state import (
    DEAD,
    HD_POSITION,
    HOLOECHO,
    POSSESSED,
    SEPSITORIZED,
    MatchState,
    Trooper,
    frozen_map,
    replace,
)

CANCEL_COUNT = 2  # TM-S2: Regular Orders cancelled


# ---------------------------------------------------------------- events


@dataclass(frozen=True, kw_only=True)
class OrdersCancelled(Event):
    """TM-S2: Regular Orders of the active player's Pool cancelled this Turn."""

    seat: str  # the player who cancelled them
    cancelled: dict  # {"group": count}
    count: int
    describe_as = ngettext(
        "%(seat_name)s cancelled %(count)s Regular Order of the opponent's Order Pool "
        "for this Turn (TM-S2).",
        "%(seat_name)s cancelled %(count)s Regular Orders of the opponent's Order Pool "
        "for this Turn (TM-S2).",
        "count",
    )


@dataclass(frozen=True, kw_only=True)
class TokenLimitImposed(Event):
    seat: str
    limit: int
    describe_as = _(
        "%(seat_name)s stops the opponent from spending more than %(limit)s Command Token "
        "this Turn (TM-S2)."
    )


@dataclass(frozen=True, kw_only=True)
class SuppressiveFireEntered(Event):
    """TM-S2: no Order is declared, so no enemy deployable reacts (FAQ)."""

    seat: str
    trooper_id: str
    trooper_name: str
    describe_as = _("%(trooper_name)s enters Suppressive Fire (TM-S2).")


@dataclass(frozen=True, kw_only=True)
class CombatGroupChanged(Event):
    """TM-E1. Private to the owner when the trooper is hidden (HD-5)."""

    seat: str
    trooper_id: str
    trooper_name: str
    from_group: int
    to_group: int
    describe_as = _(
        "%(trooper_name)s moves from Combat Group %(from_group)s to Combat Group "
        "%(to_group)s (TM-E1)."
    )


@dataclass(frozen=True, kw_only=True)
class HiddenTrooperRegrouped(Event):
    """HD-5: all the opponent learns of a hidden trooper moved by TM-E1."""

    seat: str
    describe_as = _(
        "%(seat_name)s moved a trooper in Hidden Deployment to another Combat Group (HD-5)."
    )


@dataclass(frozen=True, kw_only=True)
class PossessedCancelled(Event):
    seat: str
    trooper_id: str
    trooper_name: str
    describe_as = _("%(trooper_name)s is no longer Possessed (TM-E2).")


# --------------------------------------------------------------- commands


@dataclass(frozen=True, kw_only=True)
class CancelOpponentOrders(Command):
    """TM-S2: one entry per cancelled Regular Order, naming its Combat Group
    (the same group twice cancels two of its Orders)."""

    groups: list[str]


@dataclass(frozen=True, kw_only=True)
class LimitOpponentTokens(Command):
    """TM-S2: the opponent may spend at most 1 Command Token this Turn."""


@dataclass(frozen=True, kw_only=True)
class StrategicSuppressiveFire(Command):
    """TM-S2: one of your troopers enters Suppressive Fire."""

    trooper_id: str


@dataclass(frozen=True, kw_only=True)
class ChangeCombatGroup(Command):
    """TM-E1."""

    trooper_id: str
    group: int


@dataclass(frozen=True, kw_only=True)
class CancelPossessed(Command):
    """TM-E2."""

    trooper_id: str


# ---------------------------------------------------------------- helpers


def own_trooper(state: MatchState, seat: str, trooper_id: object, use: str) -> Trooper:
    """One of `seat`'s troopers that is still in the fight."""
    trooper = visible_trooper(state, seat, trooper_id)
    if trooper.seat != seat:
        raise NotAllowed(_("Choose one of your own troopers (%(use)s)."), rule=use, use=use)
    if trooper.out_of_action:
        raise NotAllowed(
            _("%(name)s is out of action (%(use)s)."), rule=use, name=trooper.name, use=use
        )
    if trooper.evacuated:
        raise NotAllowed(
            _("%(name)s has left the table (%(use)s)."), rule=use, name=trooper.name, use=use
        )
    return trooper


def on_table(trooper: Trooper, use: str) -> Trooper:
    if trooper.hidden:
        raise NotAllowed(
            _("A trooper in Hidden Deployment is not on the table (HD-2, %(use)s)."),
            rule=use,
            use=use,
        )
    return trooper


def ends_hiding(state: MatchState, trooper: Trooper, entire_order: bool) -> list[Event]:
    """A trooper that declares leaves Hidden Deployment (HD-C2); one that
    declares an Entire Order other than Cautious Movement leaves Holoecho too
    (HE-C2). The reveals go through the one reveal path, so the modules of
    those rules place it on the table."""
    endings = [(HD_POSITION, "HD-C2")] + ([(HOLOECHO, "HE-C2")] if entire_order else [])
    events: list[Event] = []
    for kind, rule in endings:
        secret = state.secret_for(trooper.id, kind)
        if secret is not None:
            more = reveal(state, secret, rule)
            events.extend(more)
            state = evolve_all(state, more)
    return events


# ------------------------------------------------------ TM-S2 (Strategic)


@handles(CancelOpponentOrders)
def cancel_opponent_orders(
    state: MatchState, seat: str, command: CancelOpponentOrders
) -> list[Event]:
    token = spend_token(state, seat, "TM-S2")
    left = {str(group): count for group, count in orders_left(state).items()}
    wanted = min(CANCEL_COUNT, sum(left.values()))
    if wanted == 0:
        raise NotAllowed(_("Your opponent has no Regular Orders to cancel (TM-S2)."), rule="TM-S2")
    groups = command.groups if isinstance(command.groups, list) else []
    if len(groups) != wanted:
        raise InvalidInput(
            _("Choose %(count)s Regular Orders to cancel (TM-S2)."), rule="TM-S2", count=wanted
        )
    cancelled: dict[str, int] = {}
    for group in groups:
        key = str(group).strip()
        cancelled[key] = cancelled.get(key, 0) + 1
        if cancelled[key] > left.get(key, 0):
            raise InvalidInput(
                _("Combat Group %(group)s does not have that many Regular Orders (TM-S2)."),
                rule="TM-S2",
                group=key,
            )
    return [
        token,
        OrdersCancelled(seat=seat, cancelled=cancelled, count=wanted, rule="TM-S2"),
    ]


@handles(LimitOpponentTokens)
def limit_opponent_tokens(
    state: MatchState, seat: str, command: LimitOpponentTokens
) -> list[Event]:
    token = spend_token(state, seat, "TM-S2")
    return [token, TokenLimitImposed(seat=seat, limit=1, rule="TM-S2")]


@handles(StrategicSuppressiveFire)
def strategic_suppressive_fire(
    state: MatchState, seat: str, command: StrategicSuppressiveFire
) -> list[Event]:
    token = spend_token(state, seat, "TM-S2")
    trooper = own_trooper(state, seat, command.trooper_id, "TM-S2")
    # FAQ: whatever declaring the Entire Order of Suppressive Fire would
    # cancel is cancelled, but no Order is declared: nothing reacts to it.
    events: list[Event] = [token]
    events += ends_hiding(evolve_all(state, events), trooper, entire_order=True)
    if evolve_all(state, events).troopers[trooper.id].hidden:
        # Never name a trooper whose Hidden Deployment did not end.
        raise NotAllowed(
            _("A trooper in Hidden Deployment is not on the table (HD-2, TM-S2)."), rule="TM-S2"
        )
    events.append(
        SuppressiveFireEntered(
            seat=seat, trooper_id=trooper.id, trooper_name=trooper.name, rule="TM-S2"
        )
    )
    return events


# ------------------------------------------------------- TM-E (Executive)


@handles(ChangeCombatGroup)
def change_combat_group(state: MatchState, seat: str, command: ChangeCombatGroup) -> list[Event]:
    token = spend_token(state, seat, "TM-E1")
    trooper = visible_trooper(state, seat, command.trooper_id)
    if trooper.seat != seat:
        raise NotAllowed(_("Choose one of your own troopers (%(use)s)."), rule="TM-E1", use="TM-E1")
    if trooper.condition in (DEAD, SEPSITORIZED):
        # FAQ: Dead or Sepsitorized troopers belong to no Combat Group.
        raise NotAllowed(
            _("%(name)s belongs to no Combat Group any more (TM-E1)."),
            rule="TM-E1",
            name=trooper.name,
        )
    try:
        group = int(command.group)
    except (TypeError, ValueError):
        raise InvalidInput(_("Choose a Combat Group.")) from None
    if not 1 <= group <= MAX_GROUPS:
        raise InvalidInput(_("Choose a Combat Group."))
    if group == trooper.combat_group:
        raise NotAllowed(
            _("%(name)s is already in Combat Group %(group)s (TM-E1)."),
            rule="TM-E1",
            name=trooper.name,
            group=group,
        )
    # Unconscious troopers stay members of their group (FAQ) and count.
    members = [
        t
        for t in state.troopers_of(seat)
        if t.combat_group == group and t.condition not in (DEAD, SEPSITORIZED)
    ]
    if len(members) >= MAX_GROUP_SIZE:
        raise NotAllowed(
            _("Combat Group %(group)s already has %(max)s troopers (TM-E1)."),
            rule="TM-E1",
            group=group,
            max=MAX_GROUP_SIZE,
        )
    moved = CombatGroupChanged(
        seat=seat,
        trooper_id=trooper.id,
        trooper_name=trooper.name,
        from_group=trooper.combat_group,
        to_group=group,
        rule="TM-E1",
    )
    if trooper.hidden:
        # HD-5: the opponent is told such a trooper exists, nothing else.
        return [
            token,
            HiddenTrooperRegrouped(seat=seat, rule="HD-5"),
            replace(moved, private_to=seat),
        ]
    return [token, moved]


@handles(CancelPossessed)
def cancel_possessed(state: MatchState, seat: str, command: CancelPossessed) -> list[Event]:
    token = spend_token(state, seat, "TM-E2")
    trooper = on_table(own_trooper(state, seat, command.trooper_id, "TM-E2"), "TM-E2")
    if POSSESSED not in trooper.tokens:
        raise NotAllowed(_("%(name)s is not Possessed (TM-E2)."), rule="TM-E2", name=trooper.name)
    return [
        token,
        PossessedCancelled(
            seat=seat, trooper_id=trooper.id, trooper_name=trooper.name, rule="TM-E2"
        ),
    ]


# ------------------------------------------------------------------ guard


def _cancelled_orders_guard(
    state: MatchState, seat: str, trooper: Trooper, skill: Skill, aro: bool
) -> None:
    """TM-S2: a new Order cannot come from a group whose Regular Orders are
    all spent or cancelled. (orders.py counts spent Orders; this adds the
    cancelled ones, as `orders_left` shows them.)"""
    turn = state.turn
    if aro or turn is None or turn.order is not None or not turn.extra.get(CANCELLED):
        return
    source = order_source(state, trooper)
    if not source.startswith("group:"):
        return
    group = int(source.removeprefix("group:"))
    if str(group) in turn.extra[CANCELLED] and orders_left(state).get(group, 0) <= 0:
        raise NotAllowed(
            _("No Regular Orders left in Combat Group %(group)s: some were cancelled (TM-S2)."),
            rule="TM-S2",
            group=group,
        )


SKILL_GUARDS.append(_cancelled_orders_guard)


# ---------------------------------------------------------------- evolve


def with_turn_extra(state: MatchState, **changes: object) -> MatchState:
    assert state.turn is not None
    return state.with_turn(extra=frozen_map({**state.turn.extra, **changes}))


def move_pool_order(state: MatchState, from_group: int, to_group: int, count: int) -> MatchState:
    pool = dict(state.turn.extra.get("pool", {})) if state.turn else {}
    if from_group:
        pool[str(from_group)] = max(0, pool.get(str(from_group), 0) - count)
    if to_group:
        pool[str(to_group)] = pool.get(str(to_group), 0) + count
    return with_turn_extra(state, pool=dict(sorted(pool.items(), key=lambda i: int(i[0]))))


@applies(OrdersCancelled)
def _orders_cancelled(state: MatchState, event: OrdersCancelled) -> MatchState:
    return with_turn_extra(state, **{CANCELLED: dict(event.cancelled), STRATEGIC_USED: "orders"})


@applies(TokenLimitImposed)
def _limit_imposed(state: MatchState, event: TokenLimitImposed) -> MatchState:
    return with_turn_extra(state, **{TOKEN_LIMIT: event.limit, STRATEGIC_USED: "limit"})


@applies(SuppressiveFireEntered)
def _suppressive_fire(state: MatchState, event: SuppressiveFireEntered) -> MatchState:
    # A marker (Camouflage and the like) is replaced by its model (FAQ).
    state = state.with_trooper(event.trooper_id, marker=False)
    if state.turn is None:
        return state
    return with_turn_extra(state, **{STRATEGIC_USED: "suppressive_fire"})


@applies(CombatGroupChanged)
def _group_changed(state: MatchState, event: CombatGroupChanged) -> MatchState:
    trooper = state.troopers[event.trooper_id]
    # The Pool was counted at the start of the Turn; Executive Use comes
    # before the Order Count, so the trooper's Regular Order moves with it.
    regular, _irregular = order_pool([trooper])
    state = state.with_trooper(event.trooper_id, combat_group=event.to_group)
    if regular and state.turn is not None and state.turn.seat == trooper.seat:
        state = move_pool_order(state, event.from_group, event.to_group, 1)
    return state


@applies(HiddenTrooperRegrouped)
def _hidden_regrouped(state: MatchState, event: HiddenTrooperRegrouped) -> MatchState:
    return state


@applies(PossessedCancelled)
def _possessed_cancelled(state: MatchState, event: PossessedCancelled) -> MatchState:
    tokens = state.troopers[event.trooper_id].tokens - {POSSESSED}
    return state.with_trooper(event.trooper_id, tokens=tokens)
