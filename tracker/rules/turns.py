"""Game Rounds and Player Turns: Tactical, Impetuous, Orders, States phases.

Rule modules hook in at the start of a Player Turn (Retreat! is checked there,
RT-A) and at phase changes; this module only keeps the clock.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from .command_tokens import ORDERS_COUNTED, S2_DECLINED, s2_deciding
from .commands import Command, handles
from .errors import InvalidInput, NotAllowed
from .events import Event
from .evolve import applies, evolve_all
from .i18n import _
from .queries import order_pool
from .state import (
    FINISHED,
    IMPETUOUS_PHASE,
    PLAYING,
    TACTICAL,
    TURN_PHASES,
    MatchState,
    Turn,
    frozen_map,
    other_seat,
    replace,
)

# fn(state_after_turn_started) -> events; e.g. the Retreat! check (RT-A).
TURN_START_HOOKS: list[Callable[[MatchState], list[Event]]] = []
# fn(state, leaving_phase) -> events, run when the active player ends a phase.
PHASE_END_HOOKS: list[Callable[[MatchState, str], list[Event]]] = []
# fn(state) -> bool: whether the Impetuous Phase is skipped (RT-4).
SKIP_IMPETUOUS: list[Callable[[MatchState], bool]] = []
# fn(state, reason) -> events that happen as the match ends, before MatchEnded:
# every end of a match goes through end_match (#20), so a hook here runs
# whether the rounds ran out, Retreat! ended it, or a result was agreed or ruled.
MATCH_ENDING: list[Callable[[MatchState, str], list[Event]]] = []


@dataclass(frozen=True, kw_only=True)
class PlayerTurnStarted(Event):
    round: int
    seat: str
    describe_as = _("Game Round %(round)s: %(seat_name)s's Player Turn begins.")


@dataclass(frozen=True, kw_only=True)
class TurnPhaseChanged(Event):
    phase: str
    describe_as = _("Phase: %(phase)s.")


@dataclass(frozen=True, kw_only=True)
class OrdersCounted(Event):
    """The Order Count of the Tactical Phase: the Executive Use step before
    it is over (TM-E1, TM-E2), and in the first player's first Turn the
    second player's TM-S2 moment comes at its end."""

    seat: str
    describe_as = _(
        "%(seat_name)s makes the Order Count: the Executive Use of Command Tokens is over."
    )


@dataclass(frozen=True, kw_only=True)
class StrategicUseDeclined(Event):
    seat: str
    describe_as = _(
        "%(seat_name)s lets the Strategic Use of Command Tokens pass at the end of the "
        "Order Count (TM-S2)."
    )


@dataclass(frozen=True, kw_only=True)
class MatchEnded(Event):
    reason: str
    describe_as = _("The match is over.")

    def describe(self) -> tuple[str, dict]:
        if self.reason == "retreat":
            return (
                _(
                    "The match is over: an army in Retreat! has no troopers left on the table (RT-7)."
                ),
                self.to_data(),
            )
        return self.describe_as, self.to_data()


def end_match(state: MatchState, reason: str, rule: str | None = None) -> list[Event]:
    """The one end of a match (#20): "rounds" (the last Player Turn is over),
    "retreat" (RT-7) or "result" (a result agreed, a concession, or an
    organizer's ruling). `state` is the table as it is just before the end.
    Each MATCH_ENDING hook sees what the hooks before it did."""
    events: list[Event] = []
    after = state
    for hook in MATCH_ENDING:
        more = hook(after, reason)
        events += more
        after = evolve_all(after, more)
    return [*events, MatchEnded(reason=reason, rule=rule)]


@dataclass(frozen=True, kw_only=True)
class AdvancePhase(Command):
    """The active player ends the current phase. `expected` is the phase the
    phone showed, so a stale double tap cannot skip two phases."""

    expected: str


@dataclass(frozen=True, kw_only=True)
class DeclineStrategicUse(Command):
    """TM-S2: the second player lets the moment after the Order Count pass."""


def _with_hooks(state: MatchState, events: list[Event]) -> list[Event]:
    after = evolve_all(state, events)
    for hook in TURN_START_HOOKS:
        more = hook(after)
        events = events + more
        after = evolve_all(after, more)
    return events


def start_turn(state: MatchState, round_: int, seat: str) -> list[Event]:
    return _with_hooks(state, [PlayerTurnStarted(round=round_, seat=seat)])


def start_first_turn(state: MatchState) -> list[Event]:
    assert state.first_turn is not None
    return start_turn(state, 1, state.first_turn)


def next_phase(state: MatchState) -> str | None:
    assert state.turn is not None
    index = TURN_PHASES.index(state.turn.phase)
    for phase in TURN_PHASES[index + 1 :]:
        if phase == IMPETUOUS_PHASE and any(skip(state) for skip in SKIP_IMPETUOUS):
            continue
        return phase
    return None


@handles(AdvancePhase)
def advance_phase(state: MatchState, seat: str, command: AdvancePhase) -> list[Event]:
    if state.phase != PLAYING or state.turn is None:
        raise NotAllowed(_("The match is not in play."))
    if seat != state.turn.seat:
        raise NotAllowed(_("Only the active player moves the turn on."))
    if command.expected not in TURN_PHASES:
        raise InvalidInput(_("Unknown phase."))
    if command.expected != state.turn.phase:
        raise NotAllowed(_("The phase has already changed; look again."))
    if state.turn.order is not None:
        raise NotAllowed(_("Finish the current Order first."))
    events: list[Event] = []
    if state.turn.phase == TACTICAL:
        if not state.turn.extra.get(ORDERS_COUNTED):
            # Ending the Tactical Phase makes its last step, the Order Count.
            events.append(OrdersCounted(seat=seat))
            if s2_deciding(evolve_all(state, events)) is not None:
                return events  # TM-S2: the opponent's moment, at the end of the count
        elif s2_deciding(state) is not None:
            raise NotAllowed(
                _(
                    "Your opponent is deciding whether to use a Command Token strategically "
                    "at the end of your Order Count (TM-S2)."
                ),
                rule="TM-S2",
            )
    for hook in PHASE_END_HOOKS:
        events.extend(hook(state, state.turn.phase))
    following = next_phase(state)
    if following is not None:
        return [*events, TurnPhaseChanged(phase=following)]
    # End of the Player Turn.
    if seat == state.first_turn:
        return events + start_turn(state, state.turn.round, other_seat(seat))
    if state.turn.round >= state.settings.rounds:
        return [*events, *end_match(evolve_all(state, events), "rounds")]
    return events + start_turn(state, state.turn.round + 1, other_seat(seat))


@applies(PlayerTurnStarted)
def _turn_started(state: MatchState, event: PlayerTurnStarted) -> MatchState:
    troopers = {
        tid: (replace(t, regular_this_turn=False) if t.regular_this_turn else t)
        for tid, t in state.troopers.items()
    }
    state = state.with_troopers(troopers)
    # The Order Pool is counted once, at the start of the Player Turn, from the
    # troopers on the table only (HD-3), so it is public.
    regular, _irregular = order_pool(state.troopers_of(event.seat))
    extra = frozen_map({"pool": {str(group): count for group, count in regular.items()}})
    turn = Turn(round=event.round, seat=event.seat, phase=TACTICAL, extra=extra)
    return replace(state, phase=PLAYING, turn=turn)


@applies(TurnPhaseChanged)
def _phase_changed(state: MatchState, event: TurnPhaseChanged) -> MatchState:
    return state.with_turn(phase=event.phase)


@handles(DeclineStrategicUse)
def decline_strategic_use(
    state: MatchState, seat: str, command: DeclineStrategicUse
) -> list[Event]:
    if s2_deciding(state) != seat:
        raise NotAllowed(
            _(
                "This Strategic Use is made in the Tactical Phase of your opponent's first "
                "Player Turn, after their Order Count (TM-S2)."
            ),
            rule="TM-S2",
        )
    return [StrategicUseDeclined(seat=seat, rule="TM-S2")]


@applies(OrdersCounted)
def _orders_counted(state: MatchState, event: OrdersCounted) -> MatchState:
    return state.with_turn(extra=frozen_map({**state.turn.extra, ORDERS_COUNTED: True}))


@applies(StrategicUseDeclined)
def _s2_declined(state: MatchState, event: StrategicUseDeclined) -> MatchState:
    return state.with_turn(extra=frozen_map({**state.turn.extra, S2_DECLINED: True}))


@applies(MatchEnded)
def _ended(state: MatchState, event: MatchEnded) -> MatchState:
    return replace(state, phase=FINISHED, turn=None)
