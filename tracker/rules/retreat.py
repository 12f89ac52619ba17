"""RT — Retreat! (docs/rules.md RT-A, RT-1..RT-7, RT-X1, RT-X2).

Checked at the start of each Player Turn from the list's costs and the
troopers' states (the survivors are computed in one place,
`queries.surviving_points`). RETREAT_ENTERED hooks run when an army enters
Retreat!: marker states and Holoechoes end there (RT-5, HD-C4, HE-C6),
registered by their own modules; a hook should leave alone the troopers that
ignore Retreat! (`ignores_retreat`, RT-X1).

The Retreat! markers (RT-2) are not stored: a trooper carries one while its
army is in Retreat!, it survives (on the table) and it does not ignore
Retreat!. The same predicate drives the RT-3 guard and the phones.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from .command_tokens import COORDINATED
from .commands import Command, handles
from .conditions import visible_trooper
from .errors import NotAllowed
from .events import Event
from .evolve import applies, evolve_all
from .i18n import _
from .orders import SKILL_GUARDS, Skill
from .queries import surviving_points
from .state import (
    COURAGE,
    LIEUTENANT,
    PLAYING,
    RELIGIOUS,
    SEATS,
    VETERAN,
    MatchState,
    Trooper,
)
from .turns import SKIP_IMPETUOUS, TURN_START_HOOKS, end_match

# fn(state_after_retreat_declared, seat) -> events
RETREAT_ENTERED: list[Callable[[MatchState, str], list[Event]]] = []

# RT-X1: these skills ignore Retreat! until the end of the game.
IGNORING_TRAITS = (COURAGE, RELIGIOUS, VETERAN)
# RT-3: what a trooper with a Retreat! marker may still declare, besides any
# movement Short Skill. Idle is a Short Movement Skill in N4. Delaying an ARO
# (HE-8) executes no skill: the ARO declared after it is checked then.
RETREAT_SKILLS = frozenset({"dodge", "cautious_move", "reset", "idle", "delay_aro"})


# ---------------------------------------------------------------- events


@dataclass(frozen=True, kw_only=True)
class RetreatDeclared(Event):
    """RT-A. Carries no points: the list total includes hidden troopers."""

    seat: str
    describe_as = _(
        "%(seat_name)s's army is in Retreat!: it is in Loss of Lieutenant and its "
        "troopers carry a Retreat! marker (RT-A)."
    )


@dataclass(frozen=True, kw_only=True)
class RetreatEnded(Event):
    """RT-X2; Loss of Lieutenant ends too if the player has a Lieutenant (RT-1)."""

    seat: str
    lieutenant_restored: bool
    describe_as = _("%(seat_name)s's army is no longer in Retreat!; markers removed (RT-X2).")


@dataclass(frozen=True, kw_only=True)
class TrooperEvacuated(Event):
    seat: str
    trooper_id: str
    trooper_name: str
    describe_as = _(
        "%(trooper_name)s left the table by its deployment edge and counts as a survivor (RT-6)."
    )


# --------------------------------------------------------------- commands


@dataclass(frozen=True, kw_only=True)
class EvacuateTrooper(Command):
    """RT-6: a trooper left the table by the wide edge of its deployment zone."""

    trooper_id: str


@dataclass(frozen=True, kw_only=True)
class EndBattle(Command):
    """RT-7: either player ends the match once an army in Retreat! has lost
    or evacuated every trooper (battle_over)."""


# ------------------------------------------------------------- the rules


def ignores_retreat(trooper: Trooper) -> bool:
    """RT-X1: Courage, Religious Troop, Veteran, or a Command Token (TM-T4)."""
    return trooper.ignores_retreat or any(trooper.has(t) for t in IGNORING_TRAITS)


def carries_retreat_marker(state: MatchState, trooper: Trooper) -> bool:
    """RT-2: a marker beside each surviving trooper of an army in Retreat!."""
    return (
        state.seat(trooper.seat).retreat
        and not ignores_retreat(trooper)
        and not trooper.out_of_action
        and not trooper.evacuated
    )


def list_points(state: MatchState, seat: str) -> int:
    """The points of `seat`'s whole list (0 before it is locked): RT-A's
    total, and the most its army can have alive (results.py)."""
    return sum(t.cost for t in state.troopers_of(seat))


def in_retreat_range(state: MatchState, seat: str) -> bool:
    """RT-A: survivors' cost is 25% or less of the list (4*surviving <= total:
    integer arithmetic, so exactly 25% is Retreat! and no rounding creeps in)."""
    total = list_points(state, seat)
    return total > 0 and 4 * surviving_points(state, seat) <= total


def army_gone(state: MatchState, seat: str) -> bool:
    """RT-7: every trooper of the list is lost or evacuated."""
    troopers = state.troopers_of(seat)
    return bool(troopers) and all(t.out_of_action or t.evacuated for t in troopers)


def _has_lieutenant(state: MatchState, seat: str) -> bool:
    """RT-1: the sealed Lieutenant is still in the fight."""
    for secret in sorted(state.secrets_of(seat), key=lambda s: s.sealed_seq, reverse=True):
        if secret.kind == LIEUTENANT:
            trooper = state.troopers.get(secret.payload.get("trooper_id", ""))
            return trooper is not None and not trooper.out_of_action and not trooper.evacuated
    return False


def _run_hooks(state: MatchState, events: list[Event], seat: str) -> list[Event]:
    after = evolve_all(state, events)
    for hook in RETREAT_ENTERED:
        more = hook(after, seat)
        events = events + more
        after = evolve_all(after, more)
    return events


def enter_retreat(state: MatchState, seat: str) -> list[Event]:
    """RT-A and its effects: RT-1 Loss of Lieutenant, RT-5 through the
    RETREAT_ENTERED hooks. RT-1 says only that the army is in Loss of
    Lieutenant: who the Lieutenant is stays sealed until a rule or its owner
    reveals it (sealing.OWNER_REVEALABLE)."""
    return _run_hooks(state, [RetreatDeclared(seat=seat, rule="RT-A")], seat)


def check_retreat(state: MatchState) -> list[Event]:
    """TURN_START_HOOKS: RT-A / RT-X2 for the active player, then RT-7."""
    turn = state.turn
    if turn is None or state.phase != PLAYING:
        return []
    seat = turn.seat
    events: list[Event] = []
    retreating = state.seat(seat).retreat
    if in_retreat_range(state, seat) and not retreating:
        events = enter_retreat(state, seat)
    elif retreating and not in_retreat_range(state, seat):
        events = [
            RetreatEnded(seat=seat, lieutenant_restored=_has_lieutenant(state, seat), rule="RT-X2")
        ]
    return events + game_over(evolve_all(state, events))


def battle_over(state: MatchState) -> str | None:
    """RT-7: the seat whose army, in Retreat!, has lost or evacuated its
    whole list while the match is still on: the battle is over (scenarios
    that say otherwise are settled at the table)."""
    if state.phase != PLAYING:
        return None
    return next((s for s in SEATS if state.seat(s).retreat and army_gone(state, s)), None)


def game_over(state: MatchState) -> list[Event]:
    """RT-7 where nothing can be a mistake to correct: at a Player Turn's
    start, and when the army's last trooper leaves the table (RT-6)."""
    if battle_over(state) is not None:
        return end_match(state, "retreat", rule="RT-7")
    return []


@handles(EndBattle)
def end_battle(state: MatchState, seat: str, command: EndBattle) -> list[Event]:
    """RT-7 after a loss: the last trooper of an army in Retreat! set Dead,
    Unconscious or Sepsitorized. The match is over at once by the rule, but
    no Undo takes an ended match back (and it reveals the secrets of the kinds
    registered to end with it, sealing._revealed_at_end: none of the game's
    own); so a player ends it with this tap, and until then
    the player who set that state can still undo it (conditions.UndoLastStep).
    The next Player Turn's start ends it anyway (check_retreat)."""
    if battle_over(state) is None:
        raise NotAllowed(
            _("The battle goes on: no army in Retreat! has lost all its troopers (RT-7)."),
            rule="RT-7",
        )
    return end_match(state, "retreat", rule="RT-7")


TURN_START_HOOKS.append(check_retreat)
# RT-4: no Impetuous Phase while the active army is in Retreat!.
SKIP_IMPETUOUS.append(lambda state: state.turn is not None and state.seat(state.turn.seat).retreat)


def _retreat_guard(state: MatchState, seat: str, trooper: Trooper, skill: Skill, aro: bool) -> None:
    """RT-3 (and RT-6: an evacuated trooper is off the table)."""
    if trooper.evacuated:
        raise NotAllowed(_("%(name)s has left the table (RT-6)."), rule="RT-6", name=trooper.name)
    if skill.movement or skill.name in RETREAT_SKILLS:
        return
    acting = [trooper]
    order = state.turn.order if state.turn else None
    if not aro and order is not None and order.trooper_id == trooper.id:
        # Every participant of a Coordinated Order executes the declaration.
        ids = order.extra.get(COORDINATED) or [trooper.id]
        acting = [state.troopers[i] for i in ids if i in state.troopers]
    for each in acting:
        if carries_retreat_marker(state, each):
            raise NotAllowed(
                _(
                    "%(name)s carries a Retreat! marker: only movement Short Skills, Dodge, "
                    "Cautious Movement and Reset (RT-3)."
                ),
                rule="RT-3",
                name=each.name,
            )


SKILL_GUARDS.append(_retreat_guard)


@handles(EvacuateTrooper)
def evacuate(state: MatchState, seat: str, command: EvacuateTrooper) -> list[Event]:
    if state.phase != PLAYING:
        raise NotAllowed(_("The match is not in play."))
    if not state.seat(seat).retreat:
        raise NotAllowed(
            _("Troopers count as survivors by leaving the table only in Retreat! (RT-6)."),
            rule="RT-6",
        )
    trooper = visible_trooper(state, seat, command.trooper_id)
    if trooper.seat != seat:
        raise NotAllowed(_("You can only evacuate your own troopers (RT-6)."), rule="RT-6")
    if trooper.hidden:
        raise NotAllowed(
            _("A trooper in Hidden Deployment is not on the table (HD-2)."), rule="HD-2"
        )
    if trooper.out_of_action or trooper.evacuated:
        raise NotAllowed(_("%(name)s is not on the table (RT-6)."), rule="RT-6", name=trooper.name)
    events: list[Event] = [
        TrooperEvacuated(seat=seat, trooper_id=trooper.id, trooper_name=trooper.name, rule="RT-6")
    ]
    return events + game_over(evolve_all(state, events))


# ---------------------------------------------------------------- evolve


@applies(RetreatDeclared)
def _declared(state: MatchState, event: RetreatDeclared) -> MatchState:
    # RT-1: Loss of Lieutenant, with no new Lieutenant while in Retreat!.
    return state.with_seat(event.seat, retreat=True, loss_of_lieutenant=True)


@applies(RetreatEnded)
def _ended(state: MatchState, event: RetreatEnded) -> MatchState:
    state = state.with_seat(event.seat, retreat=False)
    if event.lieutenant_restored:
        state = state.with_seat(event.seat, loss_of_lieutenant=False)
    return state


@applies(TrooperEvacuated)
def _evacuated(state: MatchState, event: TrooperEvacuated) -> MatchState:
    return state.with_trooper(event.trooper_id, evacuated=True)
