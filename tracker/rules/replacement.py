"""RP — Replacing game elements (docs/rules.md RP-1..RP-3).

When a reveal swaps one element for another (a Holoecho marker for the real
model, a written Hidden Deployment position for a model or marker), the
tracker tells both phones how to place the new element:

- RP-1 same base diameter: the new centre goes where the old centre was;
- RP-2 different diameters: the player chooses centre on centre or edge on
  edge (never to cancel Engaged);
- RP-3 the replacement is mandatory and the Silhouette does not fit: the
  trooper goes Immobilized-A until the room changes (equipment is removed).

The tracker cannot see the bases, so it compares the usual diameters: markers
stand on 25 mm, models on the base of their Silhouette (BASE_MM). Players whose
bases differ from these follow RP-2, which the ruling always explains.
"""

from __future__ import annotations

from dataclasses import dataclass

from .commands import Command, handles
from .conditions import visible_trooper
from .errors import InvalidInput, NotAllowed
from .events import Event
from .evolve import applies
from .i18n import _
from .state import (
    DEAD,
    FINISHED,
    IMMOBILIZED_A,
    PLACEMENT,
    SEPSITORIZED,
    SETUP,
    MatchState,
    Trooper,
)

MARKER_MM = 25
# The usual base diameter of a model of each Silhouette value.
BASE_MM = {1: 25, 2: 25, 3: 40, 4: 40, 5: 55, 6: 55, 7: 55, 8: 70}
HOW = ("centre", "edge")


def placement_moot(trooper: Trooper) -> bool:
    """RP-1..RP-3: a model taken off the table (Dead, Sepsitorized) has no
    placement left to say, nor room to lack; an Unconscious one lies where
    it was placed."""
    return trooper.condition in (DEAD, SEPSITORIZED)


def base_mm(trooper: Trooper, element: str) -> int:
    """The base diameter of one of the trooper's elements: "model" or a marker."""
    if element == "model":
        return BASE_MM.get(trooper.silhouette, MARKER_MM)
    return MARKER_MM


# ---------------------------------------------------------------- events


@dataclass(frozen=True, kw_only=True)
class ElementReplaced(Event):
    """A mandatory replacement: the trooper's model takes the place of `element`.
    `rule` is RP-1 (same base) or RP-2 (the player chooses)."""

    trooper_id: str
    trooper_name: str
    seat: str
    element: str
    cause: str  # the rule that made the swap (HE-C4, HE-C7...)
    same_facing: bool = True

    def describe(self) -> tuple[str, dict]:
        if self.rule == "RP-1":
            message = _(
                "%(trooper_name)s: its model replaces %(element)s, facing the same way, "
                "the centre of the base where the old centre was (RP-1). No room for it? "
                "Report it: it goes Immobilized-A (RP-3)."
            )
        else:
            message = _(
                "%(trooper_name)s: its model replaces %(element)s, facing the same way. "
                "The bases differ: its player chooses centre on centre or edge on edge; "
                "edge on edge may reach cover or Engage, never cancel Engaged (RP-2). "
                "No room for it? Report it: it goes Immobilized-A (RP-3)."
            )
        return message, self.to_data()


@dataclass(frozen=True, kw_only=True)
class ReplacementChosen(Event):
    trooper_id: str
    trooper_name: str
    how: str

    def describe(self) -> tuple[str, dict]:
        if self.how == "edge":
            message = _(
                "%(trooper_name)s is placed edge on edge with the element it replaces; "
                "this cannot cancel Engaged (RP-2)."
            )
        else:
            message = _("%(trooper_name)s is placed centre on centre (RP-2).")
        return message, self.to_data()


@dataclass(frozen=True, kw_only=True)
class NoRoomReported(Event):
    trooper_id: str
    trooper_name: str
    by: str
    equipment: bool = False

    def describe(self) -> tuple[str, dict]:
        if self.equipment:
            message = _(
                "No room to replace a piece of equipment of %(trooper_name)s: "
                "it is removed from the table (RP-3)."
            )
        else:
            message = _(
                "No room for %(trooper_name)s: it is Immobilized-A until the room around "
                "it changes, not by the usual means (RP-3)."
            )
        return message, self.to_data()


@dataclass(frozen=True, kw_only=True)
class RoomChanged(Event):
    trooper_id: str
    trooper_name: str
    by: str
    describe_as = _(
        "The room around %(trooper_name)s changed: its Immobilized-A from RP-3 ends (RP-3)."
    )


def replacement_events(state: MatchState, trooper: Trooper, element: str, cause: str) -> list:
    """How to put the model of `trooper` where `element` was (RP-1 or RP-2)."""
    same = base_mm(trooper, element) == base_mm(trooper, "model")
    return [
        ElementReplaced(
            trooper_id=trooper.id,
            trooper_name=trooper.name,
            seat=trooper.seat,
            element=element,
            cause=cause,
            rule="RP-1" if same else "RP-2",
        )
    ]


# --------------------------------------------------------------- commands


@dataclass(frozen=True, kw_only=True)
class ChooseReplacement(Command):
    """RP-2: the owner says how the model was placed, "centre" or "edge"."""

    trooper_id: str
    how: str


@dataclass(frozen=True, kw_only=True)
class ReportNoRoom(Command):
    """RP-3: the mandatory replacement does not fit the Silhouette template.
    `equipment` when what does not fit is a piece of equipment."""

    trooper_id: str
    equipment: bool = False


@dataclass(frozen=True, kw_only=True)
class ReportRoomChanged(Command):
    """RP-3: the room around an Immobilized-A trooper changed."""

    trooper_id: str


def _in_play(state: MatchState) -> None:
    if state.phase in (SETUP, FINISHED):
        raise NotAllowed(_("Trooper states change only while the match is on."))


def _own_placement(state: MatchState, seat: str, trooper_id: object, rule: str) -> Trooper:
    """RP-2/RP-3: only its player places a replaced trooper."""
    trooper = visible_trooper(state, seat, trooper_id)
    if trooper.seat != seat:
        raise NotAllowed(
            _("Only its player places a replaced trooper (%(rule_id)s)."), rule=rule, rule_id=rule
        )
    if placement_moot(trooper):
        raise NotAllowed(
            _("%(name)s is off the table: there is nothing to place (%(rule_id)s)."),
            name=trooper.name,
            rule=rule,
            rule_id=rule,
        )
    return trooper


@handles(ChooseReplacement)
def choose_replacement(state: MatchState, seat: str, command: ChooseReplacement) -> list[Event]:
    """The owner records how the model was placed: under RP-2 centre on centre
    or edge on edge; under RP-1 the only way, centre on centre, confirms it."""
    _in_play(state)
    trooper = _own_placement(state, seat, command.trooper_id, "RP-2")
    if command.how not in HOW:
        raise InvalidInput(_("Choose centre on centre or edge on edge."))
    pending = state.choice(PLACEMENT, trooper.id)
    if pending is None:
        if trooper.replacement_choice:
            raise NotAllowed(_("The placement has already been chosen (RP-2)."), rule="RP-2")
        raise NotAllowed(
            _("%(name)s has no placement to choose: nothing replaced it (RP-1, RP-2)."),
            name=trooper.name,
            rule="RP-2",
        )
    if pending.rule != "RP-2" and command.how != "centre":
        raise NotAllowed(
            _("Same bases go centre on centre: there is nothing to choose (RP-1)."), rule="RP-1"
        )
    return [
        ReplacementChosen(
            trooper_id=trooper.id, trooper_name=trooper.name, how=command.how, rule=pending.rule
        )
    ]


@handles(ReportNoRoom)
def report_no_room(state: MatchState, seat: str, command: ReportNoRoom) -> list[Event]:
    _in_play(state)
    trooper = _own_placement(state, seat, command.trooper_id, "RP-3")
    if command.equipment:
        if not trooper.replaced:
            raise NotAllowed(
                _("Only an element the rules had to replace can lack room (RP-3)."), rule="RP-3"
            )
    elif state.choice(PLACEMENT, trooper.id) is None:
        if trooper.no_room:
            raise NotAllowed(_("%(name)s is already Immobilized-A (RP-3)."), name=trooper.name)
        raise NotAllowed(
            _(
                "Only an element the rules had to replace, and not yet placed, can lack "
                "room (RP-3)."
            ),
            rule="RP-3",
        )
    return [
        NoRoomReported(
            trooper_id=trooper.id,
            trooper_name=trooper.name,
            by=seat,
            equipment=bool(command.equipment),
            rule="RP-3",
        )
    ]


@handles(ReportRoomChanged)
def report_room_changed(state: MatchState, seat: str, command: ReportRoomChanged) -> list[Event]:
    _in_play(state)
    trooper = visible_trooper(state, seat, command.trooper_id)
    if not trooper.no_room:
        raise NotAllowed(
            _("%(name)s is not Immobilized-A for want of room (RP-3)."),
            name=trooper.name,
            rule="RP-3",
        )
    return [RoomChanged(trooper_id=trooper.id, trooper_name=trooper.name, by=seat, rule="RP-3")]


# ---------------------------------------------------------------- evolve


@applies(ElementReplaced)
def _replaced(state: MatchState, event: ElementReplaced) -> MatchState:
    state = state.with_trooper(event.trooper_id, replaced=event.rule or "", replacement_choice="")
    # RP-1/RP-2 and RP-3: its player says how it went down, or that it did not fit.
    return state.with_choice(PLACEMENT, event.trooper_id, event.rule or "RP-1")


@applies(ReplacementChosen)
def _chosen(state: MatchState, event: ReplacementChosen) -> MatchState:
    state = state.with_trooper(event.trooper_id, replacement_choice=event.how)
    return state.without_choice(PLACEMENT, event.trooper_id)


@applies(NoRoomReported)
def _no_room(state: MatchState, event: NoRoomReported) -> MatchState:
    if event.equipment:
        return state
    trooper = state.troopers[event.trooper_id]
    state = state.without_choice(PLACEMENT, event.trooper_id)
    return state.with_trooper(
        event.trooper_id, no_room=True, tokens=trooper.tokens | {IMMOBILIZED_A}
    )


@applies(RoomChanged)
def _room_changed(state: MatchState, event: RoomChanged) -> MatchState:
    trooper = state.troopers[event.trooper_id]
    return state.with_trooper(
        event.trooper_id, no_room=False, tokens=trooper.tokens - {IMMOBILIZED_A}
    )
