"""Fireteams, the minimum HE-10 needs.

A Fireteam is a named, public set of two to five troopers of one player and
one Combat Group. Its owner forms and dissolves it in their own Player Turn;
the opponent sees it. The tracker keeps no Fireteam bonuses or Coherency:
the table does. What it enforces is HE-10: a trooper in Holoecho cannot join
one, and activating Holoecho takes it out (holoecho._activated; a team left
with one member is dissolved below).

A trooper whose identity is private cannot join either: one in Hidden
Deployment (HD intro) or under a Camouflage marker (HD-C3) would be named by
the public Fireteam.
"""

from __future__ import annotations

from dataclasses import dataclass

from .commands import Command, handles
from .conditions import visible_trooper
from .errors import InvalidInput, NotAllowed, UnknownElement
from .events import Event
from .evolve import APPLIERS, applies
from .holoecho import HoloechoActivated, refuse_fireteam
from .i18n import _
from .state import PLAYING, MatchState

MIN_MEMBERS, MAX_MEMBERS = 2, 5
MAX_NAME = 30


@dataclass(frozen=True, kw_only=True)
class FireteamFormed(Event):
    seat: str
    name: str
    trooper_ids: list
    names: str
    describe_as = _("%(seat_name)s formed the Fireteam %(name)s: %(names)s.")


@dataclass(frozen=True, kw_only=True)
class FireteamDissolved(Event):
    seat: str
    name: str
    describe_as = _("%(seat_name)s dissolved the Fireteam %(name)s.")


@dataclass(frozen=True, kw_only=True)
class FormFireteam(Command):
    name: str
    trooper_ids: list


@dataclass(frozen=True, kw_only=True)
class DissolveFireteam(Command):
    name: str


def fireteams_of(state: MatchState, seat: str) -> dict[str, list[str]]:
    """name -> member ids, in army-list order."""
    teams: dict[str, list[str]] = {}
    for trooper in state.troopers_of(seat):
        if trooper.fireteam:
            teams.setdefault(trooper.fireteam, []).append(trooper.id)
    return teams


def _in_own_turn(state: MatchState, seat: str) -> None:
    turn = state.turn
    if state.phase != PLAYING or turn is None or turn.seat != seat:
        raise NotAllowed(_("Fireteams are formed and dissolved in your own Player Turn."))
    if turn.order is not None:
        raise NotAllowed(_("Finish the current Order first."))


@handles(FormFireteam)
def form_fireteam(state: MatchState, seat: str, command: FormFireteam) -> list[Event]:
    _in_own_turn(state, seat)
    name = " ".join(str(command.name or "").split())
    if not name:
        raise InvalidInput(_("Give the Fireteam a name."))
    if len(name) > MAX_NAME:
        raise InvalidInput(
            _("%(what)s is too long (at most %(max)s characters)."),
            what=_("The Fireteam's name"),
            max=MAX_NAME,
        )
    if name in fireteams_of(state, seat):
        raise InvalidInput(_("You already have a Fireteam called %(name)s."), name=name)
    ids = list(dict.fromkeys(str(i) for i in (command.trooper_ids or [])))
    if not MIN_MEMBERS <= len(ids) <= MAX_MEMBERS:
        raise InvalidInput(
            _("A Fireteam has %(low)s to %(high)s troopers."), low=MIN_MEMBERS, high=MAX_MEMBERS
        )
    members = [visible_trooper(state, seat, i) for i in ids]
    for trooper in members:
        if trooper.seat != seat:
            raise NotAllowed(_("Only your own troopers can form your Fireteam."))
        if trooper.hidden or trooper.marker:
            raise NotAllowed(
                _(
                    "%(name)s is in Hidden Deployment or a marker state: a public Fireteam "
                    "would name it."
                ),
                name=trooper.name,
            )
        if trooper.out_of_action:
            raise NotAllowed(_("%(name)s is out of action."), name=trooper.name)
        refuse_fireteam(trooper)  # HE-10
        if trooper.fireteam:
            raise NotAllowed(
                _("%(name)s is already in the Fireteam %(team)s."),
                name=trooper.name,
                team=trooper.fireteam,
            )
    if len({t.combat_group for t in members}) != 1:
        raise NotAllowed(_("A Fireteam's troopers all belong to one Combat Group."))
    return [
        FireteamFormed(
            seat=seat,
            name=name,
            trooper_ids=[t.id for t in members],
            names=", ".join(t.name for t in members),
        )
    ]


@handles(DissolveFireteam)
def dissolve_fireteam(state: MatchState, seat: str, command: DissolveFireteam) -> list[Event]:
    _in_own_turn(state, seat)
    name = str(command.name or "")
    if name not in fireteams_of(state, seat):
        raise UnknownElement(_("There is no such Fireteam."))
    return [FireteamDissolved(seat=seat, name=name)]


@applies(FireteamFormed)
def _formed(state: MatchState, event: FireteamFormed) -> MatchState:
    for trooper_id in event.trooper_ids:
        state = state.with_trooper(trooper_id, fireteam=event.name)
    return state


@applies(FireteamDissolved)
def _dissolved(state: MatchState, event: FireteamDissolved) -> MatchState:
    for trooper in state.troopers_of(event.seat):
        if trooper.fireteam == event.name:
            state = state.with_trooper(trooper.id, fireteam="")
    return state


_holoecho_activated = APPLIERS[HoloechoActivated]


@applies(HoloechoActivated)
def _left_by_holoecho(state: MatchState, event: HoloechoActivated) -> MatchState:
    """HE-10: the bearer leaves its Fireteam (holoecho.py); a team of one is no team."""
    team = state.troopers[event.trooper_id].fireteam
    state = _holoecho_activated(state, event)
    if team:
        left = [t for t in state.troopers_of(event.seat) if t.fireteam == team]
        if len(left) < MIN_MEMBERS:
            for trooper in left:
                state = state.with_trooper(trooper.id, fireteam="")
    return state
