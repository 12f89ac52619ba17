"""Before deployment: the match, the two seats, the army lists, initiative."""

from __future__ import annotations

from dataclasses import dataclass, field, fields

from .commands import Command, handles
from .errors import InvalidInput, NotAllowed
from .events import Event
from .evolve import applies
from .i18n import _
from .state import (
    DEPLOYMENT,
    HIDDEN_DEPLOYMENT,
    HOLOECHO_ELEMENTS,
    HOLOPROJECTOR,
    SEATS,
    SETUP,
    TRAITS,
    MatchSettings,
    MatchState,
    Trooper,
    other_seat,
    replace,
)
from .text import one_line

MAX_TROOPERS = 30
MAX_GROUP_SIZE = 10  # also the TM-E1 limit
MAX_GROUPS = 5
MAX_NAME = 60
MAX_COST = 200


# ---------------------------------------------------------------- events


@dataclass(frozen=True, kw_only=True)
class MatchCreated(Event):
    """The match and its settings (state.MatchSettings). Stored flat, each
    setting a key beside the name, as before settings were one value: old
    logs read back unchanged, and a new setting needs no change here. The
    Classified settings have their own event (ClassifiedConfigured)."""

    name: str
    settings: MatchSettings = field(default_factory=MatchSettings)
    describe_as = _("Match created: %(name)s, %(points_limit)s points.")

    def to_data(self) -> dict:
        data = super().to_data()
        settings = data.pop("settings")
        return {**data, **{f.name: getattr(settings, f.name) for f in LOGGED_SETTINGS}}

    @classmethod
    def from_data(cls, data: dict) -> MatchCreated:
        own = {f.name for f in fields(cls)} - {"settings"}
        return cls(
            **{k: v for k, v in data.items() if k in own},
            settings=MatchSettings.from_data({f.name: data.get(f.name) for f in LOGGED_SETTINGS}),
        )


# Every setting but the Classified ones, which ClassifiedConfigured logs.
LOGGED_SETTINGS = tuple(f for f in fields(MatchSettings) if f.name != "classified")


@dataclass(frozen=True, kw_only=True)
class SeatClaimed(Event):
    seat: str
    name: str
    describe_as = _("%(name)s took seat %(seat)s.")


# Who moved a seat (issue 22): its player with the PIN, or a third party.
BY_PLAYER, BY_HOST, BY_ORGANIZER = "", "host", "organizer"


@dataclass(frozen=True, kw_only=True)
class SeatMoved(Event):
    """A seat went to another phone. `by`: BY_PLAYER (the PIN; events from
    before issue 22 have no `by` and read so), or BY_HOST / BY_ORGANIZER
    (a hand-off, `by_name` the organizer's username): the log blames no
    player for a move a third party made."""

    seat: str
    name: str
    by: str = BY_PLAYER
    by_name: str = ""
    describe_as = _("%(name)s moved their seat to another phone.")

    def to_data(self) -> dict:
        data = super().to_data()
        if not self.by:
            # A player's move reads exactly as before `by` existed.
            del data["by"], data["by_name"]
        return data

    def describe(self) -> tuple[str, dict]:
        if self.by == BY_ORGANIZER:
            message = _("The organizer %(by_name)s gave seat %(seat)s (%(name)s) to a new phone.")
        elif self.by == BY_HOST:
            message = _("The host gave seat %(seat)s (%(name)s) to a new phone.")
        else:
            message = self.describe_as
        return message, {**self.to_data(), "by_name": self.by_name}


@dataclass(frozen=True, kw_only=True)
class ArmyListLocked(Event):
    """The public part of a locked list. Hidden Deployment troopers travel in
    HiddenTroopersEnlisted, always emitted beside this one (even when empty),
    so the number of events never betrays that a hidden trooper exists."""

    seat: str
    troopers: list
    describe_as = _("%(seat_name)s locked their army list.")


@dataclass(frozen=True, kw_only=True)
class HiddenTroopersEnlisted(Event):
    seat: str
    troopers: list


@dataclass(frozen=True, kw_only=True)
class InitiativeSet(Event):
    first_turn: str
    deploys_first: str
    describe_as = _(
        "Initiative: %(first_turn_name)s plays first, %(deploys_first_name)s deploys first."
    )


# --------------------------------------------------------------- commands


@dataclass(frozen=True, kw_only=True)
class ClaimSeat(Command):
    name: str


@dataclass(frozen=True, kw_only=True)
class MoveSeat(Command):
    """The seat's holder proved the PIN on a new phone (checked by the web
    layer), or (`by` set) the host or an organizer handed it to a new phone."""

    by: str = BY_PLAYER
    by_name: str = ""


@dataclass(frozen=True, kw_only=True)
class LockArmyList(Command):
    """Lock the list drafted on the phone. Drafts are private working notes
    kept outside the match log; only the locked list becomes match history."""

    troopers: list


@dataclass(frozen=True, kw_only=True)
class SetInitiative(Command):
    first_turn: str
    deploys_first: str


def clean_name(value: object, what: str) -> str:
    text = one_line(value)
    if not text:
        raise InvalidInput(_("%(what)s cannot be empty."), what=what)
    if len(text) > MAX_NAME:
        raise InvalidInput(
            _("%(what)s is too long (at most %(max)s characters)."), what=what, max=MAX_NAME
        )
    return text


def _int_in(value: object, low: int, high: int, what: str) -> int:
    try:
        number = int(value)  # type: ignore[arg-type]
    except (TypeError, ValueError):
        raise InvalidInput(_("%(what)s must be a whole number."), what=what) from None
    if not low <= number <= high:
        raise InvalidInput(
            _("%(what)s must be between %(low)s and %(high)s."), what=what, low=low, high=high
        )
    return number


def clean_trooper_row(row: object) -> dict:
    if not isinstance(row, dict):
        raise InvalidInput(_("Each trooper needs a name, a cost and a combat group."))
    traits = row.get("traits") or []
    if not isinstance(traits, list) or any(t not in TRAITS for t in traits):
        raise InvalidInput(_("Unknown trait in the army list."))
    trooper_id = str(row.get("id") or "")
    if not (4 <= len(trooper_id) <= 32 and trooper_id.isalnum()):
        raise InvalidInput(_("Each trooper needs an id."))
    return {
        "id": trooper_id,
        "name": clean_name(row.get("name"), _("Trooper name")),
        "cost": _int_in(row.get("cost"), 0, MAX_COST, _("Cost")),
        "combat_group": _int_in(row.get("combat_group"), 1, MAX_GROUPS, _("Combat group")),
        "silhouette": _int_in(row.get("silhouette", 2), 1, 8, _("Silhouette")),
        "traits": sorted(set(traits)),
    }


@handles(ClaimSeat)
def claim_seat(state: MatchState, seat: str, command: ClaimSeat) -> list[Event]:
    if state.seat(seat).claimed:
        raise NotAllowed(_("This seat is already taken."))
    return [SeatClaimed(seat=seat, name=clean_name(command.name, _("Your name")))]


@handles(MoveSeat)
def move_seat(state: MatchState, seat: str, command: MoveSeat) -> list[Event]:
    if not state.seat(seat).claimed:
        raise NotAllowed(_("This seat has not been taken yet."))
    if command.by not in (BY_PLAYER, BY_HOST, BY_ORGANIZER):
        raise InvalidInput(_("Unknown action."))
    by_name = str(command.by_name or "")[:MAX_NAME] if command.by == BY_ORGANIZER else ""
    return [SeatMoved(seat=seat, name=state.seat(seat).name, by=command.by, by_name=by_name)]


def clean_army_list(state: MatchState, seat: str, troopers: object) -> list[dict]:
    """The validated rows of an army list, in list order."""
    if not isinstance(troopers, list) or len(troopers) > MAX_TROOPERS:
        raise InvalidInput(_("An army list holds at most %(max)s troopers."), max=MAX_TROOPERS)
    rows = [clean_trooper_row(row) for row in troopers]
    ids = [row["id"] for row in rows]
    taken = {t.id for t in state.troopers.values() if t.seat != seat}
    if len(set(ids)) != len(ids) or taken & set(ids):
        raise InvalidInput(_("Two troopers share an id; reload the page."))
    for group in {row["combat_group"] for row in rows}:
        if sum(1 for row in rows if row["combat_group"] == group) > MAX_GROUP_SIZE:
            raise InvalidInput(
                _("Combat group %(group)s has more than %(max)s troopers."),
                group=group,
                max=MAX_GROUP_SIZE,
            )
    for position, row in enumerate(rows):
        row["position"] = position
    return rows


@handles(LockArmyList)
def lock_army_list(state: MatchState, seat: str, command: LockArmyList) -> list[Event]:
    if state.phase != SETUP or state.seat(seat).list_locked:
        raise NotAllowed(_("Your army list is already locked."))
    rows = clean_army_list(state, seat, command.troopers)
    if not rows:
        raise NotAllowed(_("Add at least one trooper before locking the list."))
    total = sum(row["cost"] for row in rows)
    if total > state.settings.points_limit:
        raise NotAllowed(
            _("Your list costs %(total)s points, over the %(limit)s points limit."),
            total=total,
            limit=state.settings.points_limit,
        )
    hidden = [row for row in rows if HIDDEN_DEPLOYMENT in row["traits"]]
    public = [row for row in rows if HIDDEN_DEPLOYMENT not in row["traits"]]
    return [
        ArmyListLocked(seat=seat, troopers=public),
        HiddenTroopersEnlisted(seat=seat, troopers=hidden, private_to=seat),
    ]


@handles(SetInitiative)
def set_initiative(state: MatchState, seat: str, command: SetInitiative) -> list[Event]:
    if state.phase != SETUP:
        raise NotAllowed(_("Initiative has already been set."))
    if not all(state.seat(s).list_locked for s in SEATS):
        raise NotAllowed(_("Both army lists must be locked first."))
    if command.first_turn not in SEATS or command.deploys_first not in SEATS:
        raise InvalidInput(_("Choose a seat."))
    return [InitiativeSet(first_turn=command.first_turn, deploys_first=command.deploys_first)]


# ---------------------------------------------------------------- evolve


@applies(MatchCreated)
def _created(state: MatchState, event: MatchCreated) -> MatchState:
    # The Classified settings, if any, come with their own event (classified.py).
    return replace(state, name=event.name, settings=event.settings)


@applies(SeatClaimed)
def _claimed(state: MatchState, event: SeatClaimed) -> MatchState:
    return state.with_seat(event.seat, claimed=True, name=event.name)


@applies(SeatMoved)
def _moved(state: MatchState, event: SeatMoved) -> MatchState:
    return state


def _enlist(state: MatchState, seat: str, rows: list) -> MatchState:
    troopers = dict(state.troopers)
    for row in rows:
        traits = frozenset(row["traits"])
        troopers[row["id"]] = Trooper(
            id=row["id"],
            seat=seat,
            name=row["name"],
            cost=row["cost"],
            combat_group=row["combat_group"],
            silhouette=row["silhouette"],
            position=row["position"],
            traits=traits,
            # HD-1: automatic for a trooper with the skill; it is not on the table.
            hidden=HIDDEN_DEPLOYMENT in traits,
            # HE-A1: a Holoprojector bearer deploys with its three Holoechoes.
            holoechoes=HOLOECHO_ELEMENTS if HOLOPROJECTOR in traits else (),
        )
    return state.with_troopers(troopers)


@applies(ArmyListLocked)
def _list_locked(state: MatchState, event: ArmyListLocked) -> MatchState:
    return _enlist(state, event.seat, event.troopers).with_seat(event.seat, list_locked=True)


@applies(HiddenTroopersEnlisted)
def _hidden_enlisted(state: MatchState, event: HiddenTroopersEnlisted) -> MatchState:
    return _enlist(state, event.seat, event.troopers)


@applies(InitiativeSet)
def _initiative(state: MatchState, event: InitiativeSet) -> MatchState:
    return replace(
        state, phase=DEPLOYMENT, first_turn=event.first_turn, deploys_first=event.deploys_first
    )


def second_turn(state: MatchState) -> str | None:
    return other_seat(state.first_turn) if state.first_turn else None
