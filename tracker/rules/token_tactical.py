"""TM — the Tactical Uses of Command Tokens, in one's own Active Turn:
TM-T1 Coordinated Order, TM-T2 Guts Roll, TM-T3 Irregular to Regular, TM-T4
ignore Retreat!, TM-T5/TM-T6 WIP re-rolls. See token_uses.py for how every
use is checked and spent.
"""

from __future__ import annotations

from dataclasses import dataclass

from .command_tokens import COORDINATED, spend_token
from .commands import Command, handles
from .conditions import visible_trooper
from .errors import InvalidInput, NotAllowed
from .events import Event
from .evolve import applies, evolve_all
from .i18n import _
from .orders import OrderStarted
from .queries import orders_left
from .retreat import ignores_retreat
from .state import (
    CUBE,
    DOCTOR,
    ENGINEER,
    IRREGULAR,
    ISOLATED,
    ORDERS,
    REMOTE_PRESENCE,
    MatchState,
    Trooper,
    frozen_map,
    replace,
)
from .token_uses import ends_hiding, move_pool_order, on_table, own_trooper, with_turn_extra

COORDINATED_MAX = 4  # a Coordinated Order activates up to four troopers


# ---------------------------------------------------------------- events


@dataclass(frozen=True, kw_only=True)
class CoordinatedOrderDeclared(Event):
    """TM-T1, right after the OrderStarted of its first participant."""

    seat: str
    group: int
    trooper_ids: list
    names: str
    # Hidden participants lose their own kept-apart Order (HD-6).
    lost_own_order: list
    describe_as = _("Coordinated Order in Combat Group %(group)s: %(names)s (TM-T1).")


@dataclass(frozen=True, kw_only=True)
class GutsRollForced(Event):
    seat: str
    trooper_id: str
    trooper_name: str
    passed: bool

    def describe(self) -> tuple[str, dict]:
        if self.passed:
            message = _("%(trooper_name)s automatically passes the Guts Roll (TM-T2).")
        else:
            message = _("%(trooper_name)s automatically fails the Guts Roll (TM-T2).")
        return message, self.to_data()


@dataclass(frozen=True, kw_only=True)
class OrderMadeRegular(Event):
    seat: str
    trooper_id: str
    trooper_name: str
    group: int
    describe_as = _(
        "The Irregular Order of %(trooper_name)s is a Regular Order of Combat Group "
        "%(group)s this Turn (TM-T3)."
    )


@dataclass(frozen=True, kw_only=True)
class RetreatIgnored(Event):
    seat: str
    trooper_id: str
    trooper_name: str
    describe_as = _("%(trooper_name)s ignores Retreat! until the end of the game (TM-T4).")


@dataclass(frozen=True, kw_only=True)
class WipRerolled(Event):
    """TM-T5 (Doctor, target with a Cube) or TM-T6 (Engineer, target with
    Remote Presence): the re-roll grants the enemy no new ARO."""

    seat: str
    trooper_id: str
    trooper_name: str
    target_id: str
    target_name: str
    describe_as = _(
        "%(trooper_name)s re-rolls a failed WIP Roll on %(target_name)s; no new ARO (%(rule)s)."
    )


# --------------------------------------------------------------- commands


@dataclass(frozen=True, kw_only=True)
class CoordinatedOrder(Command):
    """TM-T1: the first participant carries the Order; all execute it."""

    trooper_ids: list[str]


@dataclass(frozen=True, kw_only=True)
class ForceGutsRoll(Command):
    """TM-T2."""

    trooper_id: str
    passed: bool


@dataclass(frozen=True, kw_only=True)
class MakeOrderRegular(Command):
    """TM-T3."""

    trooper_id: str


@dataclass(frozen=True, kw_only=True)
class IgnoreRetreat(Command):
    """TM-T4 (RT-X1)."""

    trooper_id: str


@dataclass(frozen=True, kw_only=True)
class RerollDoctorWip(Command):
    """TM-T5: trooper_id is the Doctor, target_id the trooper with a Cube."""

    trooper_id: str
    target_id: str


@dataclass(frozen=True, kw_only=True)
class RerollEngineerWip(Command):
    """TM-T6: trooper_id is the Engineer, target_id has Remote Presence."""

    trooper_id: str
    target_id: str


def _names(troopers: list[Trooper]) -> str:
    return ", ".join(t.name for t in troopers)


# --------------------------------------------------------------- handlers


@handles(CoordinatedOrder)
def coordinated_order(state: MatchState, seat: str, command: CoordinatedOrder) -> list[Event]:
    token = spend_token(state, seat, "TM-T1")
    turn = state.turn
    assert turn is not None
    if turn.phase != ORDERS:
        raise NotAllowed(
            _("A Coordinated Order is declared in the Orders Phase (TM-T1)."), rule="TM-T1"
        )
    if turn.order is not None:
        raise NotAllowed(_("Finish the current Order first."))
    ids = command.trooper_ids if isinstance(command.trooper_ids, list) else []
    if len(set(ids)) != len(ids) or not 2 <= len(ids) <= COORDINATED_MAX:
        raise InvalidInput(
            _("A Coordinated Order needs between 2 and %(max)s different troopers (TM-T1)."),
            rule="TM-T1",
            max=COORDINATED_MAX,
        )
    troopers = [own_trooper(state, seat, trooper_id, "TM-T1") for trooper_id in ids]
    group = troopers[0].combat_group
    if any(t.combat_group != group for t in troopers):
        raise NotAllowed(
            _("All the troopers of a Coordinated Order belong to the same Combat Group (TM-T1)."),
            rule="TM-T1",
        )
    if orders_left(state).get(group, 0) <= 0:
        raise NotAllowed(
            _("No Regular Orders left in Combat Group %(group)s (TM-T1)."),
            rule="TM-T1",
            group=group,
        )
    hidden = [t for t in troopers if t.hidden]
    events: list[Event] = [token]
    for trooper in hidden:
        # HD-6: a hidden trooper may take part; declaring the Order ends its
        # Hidden Deployment (HD-C2) and its own Order is lost.
        events += ends_hiding(evolve_all(state, events), trooper, entire_order=False)
    after = evolve_all(state, events)
    if any(after.troopers[t.id].hidden for t in hidden):
        raise NotAllowed(
            _("A trooper in Hidden Deployment is not on the table (HD-2, TM-T1)."), rule="TM-T1"
        )
    first = troopers[0]
    events.append(
        OrderStarted(
            trooper_id=first.id,
            trooper_name=first.name,
            seat=seat,
            source=f"group:{group}",
            rule="TM-T1",
        )
    )
    events.append(
        CoordinatedOrderDeclared(
            seat=seat,
            group=group,
            trooper_ids=[t.id for t in troopers],
            names=_names(troopers),
            lost_own_order=[t.id for t in hidden],
            rule="TM-T1",
        )
    )
    return events


@handles(ForceGutsRoll)
def force_guts_roll(state: MatchState, seat: str, command: ForceGutsRoll) -> list[Event]:
    token = spend_token(state, seat, "TM-T2")
    trooper = on_table(own_trooper(state, seat, command.trooper_id, "TM-T2"), "TM-T2")
    return [
        token,
        GutsRollForced(
            seat=seat,
            trooper_id=trooper.id,
            trooper_name=trooper.name,
            passed=bool(command.passed),
            rule="TM-T2",
        ),
    ]


@handles(MakeOrderRegular)
def make_order_regular(state: MatchState, seat: str, command: MakeOrderRegular) -> list[Event]:
    token = spend_token(state, seat, "TM-T3")
    # HD-3: a hidden trooper's Order is kept apart, never in the Pool.
    trooper = on_table(own_trooper(state, seat, command.trooper_id, "TM-T3"), "TM-T3")
    if not trooper.has(IRREGULAR) or trooper.regular_this_turn:
        raise NotAllowed(
            _("%(name)s does not give an Irregular Order (TM-T3)."),
            rule="TM-T3",
            name=trooper.name,
        )
    if ISOLATED in trooper.tokens:
        # FAQ: an Isolated trooper's Order cannot be made Regular.
        raise NotAllowed(
            _("The Order of an Isolated trooper cannot become Regular (TM-T3)."), rule="TM-T3"
        )
    assert state.turn is not None
    if trooper.id in state.turn.extra.get("irregular_used", ()):
        raise NotAllowed(
            _("%(name)s has already used its Irregular Order this Turn (TM-T3)."),
            rule="TM-T3",
            name=trooper.name,
        )
    return [
        token,
        OrderMadeRegular(
            seat=seat,
            trooper_id=trooper.id,
            trooper_name=trooper.name,
            group=trooper.combat_group,
            rule="TM-T3",
        ),
    ]


@handles(IgnoreRetreat)
def ignore_retreat(state: MatchState, seat: str, command: IgnoreRetreat) -> list[Event]:
    token = spend_token(state, seat, "TM-T4")
    trooper = on_table(own_trooper(state, seat, command.trooper_id, "TM-T4"), "TM-T4")
    if ignores_retreat(trooper):
        raise NotAllowed(
            _("%(name)s already ignores Retreat! (RT-X1)."), rule="TM-T4", name=trooper.name
        )
    return [
        token,
        RetreatIgnored(seat=seat, trooper_id=trooper.id, trooper_name=trooper.name, rule="TM-T4"),
    ]


def _reroll(
    state: MatchState, seat: str, command: RerollDoctorWip | RerollEngineerWip, use: str
) -> list[Event]:
    skill, needs = (DOCTOR, CUBE) if use == "TM-T5" else (ENGINEER, REMOTE_PRESENCE)
    token = spend_token(state, seat, use)
    trooper = on_table(own_trooper(state, seat, command.trooper_id, use), use)
    target = on_table(visible_trooper(state, seat, command.target_id), use)
    if not trooper.has(skill):
        if use == "TM-T5":
            message = _("%(name)s is not a Doctor (TM-T5).")
        else:
            message = _("%(name)s is not an Engineer (TM-T6).")
        raise NotAllowed(message, rule=use, name=trooper.name)
    if not target.has(needs):
        if use == "TM-T5":
            message = _("%(name)s has no Cube (TM-T5).")
        else:
            message = _("%(name)s has no Remote Presence (TM-T6).")
        raise NotAllowed(message, rule=use, name=target.name)
    order = state.turn.order if state.turn else None
    acting = order is not None and (
        order.trooper_id == trooper.id or trooper.id in order.extra.get(COORDINATED, ())
    )
    if not acting:
        raise NotAllowed(
            _("The re-roll is for a WIP Roll made in the current Order of %(name)s (%(use)s)."),
            rule=use,
            name=trooper.name,
            use=use,
        )
    return [
        token,
        WipRerolled(
            seat=seat,
            trooper_id=trooper.id,
            trooper_name=trooper.name,
            target_id=target.id,
            target_name=target.name,
            rule=use,
        ),
    ]


@handles(RerollDoctorWip)
def reroll_doctor(state: MatchState, seat: str, command: RerollDoctorWip) -> list[Event]:
    return _reroll(state, seat, command, "TM-T5")


@handles(RerollEngineerWip)
def reroll_engineer(state: MatchState, seat: str, command: RerollEngineerWip) -> list[Event]:
    return _reroll(state, seat, command, "TM-T6")


# ---------------------------------------------------------------- evolve


@applies(CoordinatedOrderDeclared)
def _coordinated(state: MatchState, event: CoordinatedOrderDeclared) -> MatchState:
    turn = state.turn
    assert turn is not None and turn.order is not None
    order = replace(
        turn.order, extra=frozen_map({**turn.order.extra, COORDINATED: list(event.trooper_ids)})
    )
    state = state.with_turn(order=order)
    if event.lost_own_order:
        own_used = [*turn.extra.get("own_used", []), *event.lost_own_order]
        state = with_turn_extra(state, own_used=own_used)
    return state


@applies(GutsRollForced)
def _guts(state: MatchState, event: GutsRollForced) -> MatchState:
    return state


@applies(OrderMadeRegular)
def _made_regular(state: MatchState, event: OrderMadeRegular) -> MatchState:
    state = state.with_trooper(event.trooper_id, regular_this_turn=True)
    return move_pool_order(state, 0, event.group, 1)


@applies(RetreatIgnored)
def _retreat_ignored(state: MatchState, event: RetreatIgnored) -> MatchState:
    return state.with_trooper(event.trooper_id, ignores_retreat=True)


@applies(WipRerolled)
def _rerolled(state: MatchState, event: WipRerolled) -> MatchState:
    return state
