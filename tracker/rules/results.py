"""The result of a match, and organizers looking at sealed information.

At the end of the match (or when time is called at a tournament) one player
proposes the result: objective points and army points alive for both seats.
The opponent confirms it or disputes it from their own phone. A confirmed
result ends the match; a disputed one marks the match disputed, on the
organizers' list to settle. The players may still agree: either of them
proposes again (at a casual night there may be no organizer at all, and a
dispute that only an organizer could end left the match without a result),
and the new proposal is confirmed or disputed as the first was. Either player
may replace a pending proposal with a new one; entering exactly the numbers
the opponent proposed is a confirmation. Nothing here is secret.

An organizer who opens the sealed information of a match still in play is
recorded with `OrganizerViewedSecrets`, and both phones show when. Only seats
A and B issue commands, so that event is appended by the organizer pages
through `actions.append`, never decided here.

The record lives in each seat's `extra` (the same record on both seats, under
keys of this module only), so `player_view` can show it to both players.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from .commands import Command, handles
from .errors import InvalidInput, NotAllowed
from .events import Event
from .evolve import applies, evolve_all
from .i18n import _
from .retreat import list_points
from .state import FINISHED, PLAYING, SEATS, MatchState, frozen_map, other_seat
from .turns import end_match

MAX_OBJECTIVE_POINTS = 10  # N4 missions score 0 to 10 Objective Points
MAX_REASON = 200

RESULT = "result"
ORGANIZER_VIEWS = "organizer_views"

PROPOSED = "proposed"
CONFIRMED = "confirmed"
DISPUTED = "disputed"
SETTLED = "settled"


# ---------------------------------------------------------------- events


def _scores(objective_points: dict, army_points: dict) -> dict:
    return {
        "op_a": objective_points.get("A"),
        "op_b": objective_points.get("B"),
        "ap_a": army_points.get("A"),
        "ap_b": army_points.get("B"),
    }


@dataclass(frozen=True, kw_only=True)
class ResultProposed(Event):
    seat: str
    objective_points: dict
    army_points: dict
    describe_as = _(
        "%(seat_name)s proposed the result: objective points %(op_a)s–%(op_b)s, "
        "army points alive %(ap_a)s–%(ap_b)s (seat A first)."
    )

    def describe(self) -> tuple[str, dict]:
        return self.describe_as, {
            "seat": self.seat,
            **_scores(self.objective_points, self.army_points),
        }


@dataclass(frozen=True, kw_only=True)
class ResultConfirmed(Event):
    seat: str
    proposal_seq: int
    objective_points: dict
    army_points: dict
    describe_as = _(
        "%(seat_name)s confirmed the result: objective points %(op_a)s–%(op_b)s, "
        "army points alive %(ap_a)s–%(ap_b)s (seat A first)."
    )

    def describe(self) -> tuple[str, dict]:
        return self.describe_as, {
            "seat": self.seat,
            **_scores(self.objective_points, self.army_points),
        }


@dataclass(frozen=True, kw_only=True)
class ResultDisputed(Event):
    seat: str
    proposal_seq: int
    reason: str = ""
    describe_as = _(
        "%(seat_name)s disputed the proposed result: propose it again once you agree, "
        "or an organizer settles it."
    )


@dataclass(frozen=True, kw_only=True)
class OrganizerViewedSecrets(Event):
    """An organizer opened the sealed information while the match was not over.
    Everything sealed before this event's seq was shown to `organizer`."""

    organizer: str
    describe_as = _("The organizer viewed the sealed information.")
    # Not a step of the game: a player's undo window stays open across it.
    keeps_undo: ClassVar[bool] = True

    def describe(self) -> tuple[str, dict]:
        # The organizer's account name stays in the audit; phones need only the time.
        return self.describe_as, {}


@dataclass(frozen=True, kw_only=True)
class ResultSettled(Event):
    """An organizer settled a disputed result. Appended by the organizer
    pages through `actions.append` (decided by `settle` below), shown on both
    phones; the match is over and leaves the organizer's dispute list."""

    organizer: str
    objective_points: dict
    army_points: dict
    reason: str
    describe_as = _(
        "The organizer settled the result: objective points %(op_a)s–%(op_b)s, "
        "army points alive %(ap_a)s–%(ap_b)s (seat A first). Reason: %(reason)s"
    )

    def describe(self) -> tuple[str, dict]:
        # The organizer's account name stays in the audit.
        return self.describe_as, {
            "reason": self.reason,
            **_scores(self.objective_points, self.army_points),
        }


# --------------------------------------------------------------- commands


@dataclass(frozen=True, kw_only=True)
class ProposeResult(Command):
    objective_a: int
    objective_b: int
    army_a: int
    army_b: int


@dataclass(frozen=True, kw_only=True)
class ConfirmResult(Command):
    """`proposal` is the seq of the proposal the phone showed, so a proposal
    replaced a moment ago is never confirmed by a stale tap."""

    proposal: int


@dataclass(frozen=True, kw_only=True)
class DisputeResult(Command):
    proposal: int
    reason: str | None = None


# ----------------------------------------------------------------- reading


def result_of(state: MatchState) -> dict | None:
    """The public result record: status (proposed, confirmed, disputed), who
    proposed, the proposal's seq and the scores; None before any proposal."""
    record = state.seat(SEATS[0]).extra.get(RESULT)
    return dict(record) if record else None


def is_disputed(state: MatchState) -> bool:
    record = result_of(state)
    return bool(record) and record["status"] == DISPUTED


def is_settled(state: MatchState) -> bool:
    record = result_of(state)
    return bool(record) and record["status"] == SETTLED


def organizer_views(state: MatchState) -> tuple[int, ...]:
    """The seqs at which an organizer opened the sealed information in play."""
    return tuple(state.seat(SEATS[0]).extra.get(ORGANIZER_VIEWS, ()))


def _with_record(state: MatchState, key: str, value) -> MatchState:
    for seat in SEATS:
        extra = dict(state.seat(seat).extra)
        extra[key] = value
        state = state.with_seat(seat, extra=frozen_map(extra))
    return state


# ---------------------------------------------------------------- deciding


def _points(value: object, high: int, what: str) -> int:
    try:
        number = int(value)  # type: ignore[arg-type]
    except (TypeError, ValueError):
        raise InvalidInput(_("%(what)s must be a whole number."), what=what) from None
    if not 0 <= number <= high:
        raise InvalidInput(
            _("%(what)s must be between %(low)s and %(high)s."), what=what, low=0, high=high
        )
    return number


def _open_for_results(state: MatchState) -> dict | None:
    if state.phase not in (PLAYING, FINISHED):
        raise NotAllowed(_("The result is reported once the match is being played."))
    record = result_of(state)
    if record and record["status"] == CONFIRMED:
        raise NotAllowed(_("The result is already confirmed."))
    if record and record["status"] == SETTLED:
        raise NotAllowed(_("The organizer settled the result."))
    return record


def _pending_for(state: MatchState, seat: str, proposal: object) -> dict:
    record = _open_for_results(state)
    if not record:
        raise NotAllowed(_("There is no proposed result yet."))
    if record["status"] == DISPUTED:
        raise NotAllowed(
            _(
                "The result is disputed: propose it again once you agree, or an organizer settles it."
            )
        )
    if record["proposed_by"] == seat:
        raise NotAllowed(_("Your opponent confirms or disputes the result you proposed."))
    if str(proposal) != str(record["proposal_seq"]):
        raise NotAllowed(_("The proposed result has changed; look at it again."))
    return record


def _confirmed(state: MatchState, seat: str, record: dict) -> list[Event]:
    events: list[Event] = [
        ResultConfirmed(
            seat=seat,
            proposal_seq=record["proposal_seq"],
            objective_points=dict(record["objective_points"]),
            army_points=dict(record["army_points"]),
        )
    ]
    if state.phase != FINISHED:
        # Time called, or a concession: an agreed result ends the match.
        events += end_match(evolve_all(state, events), "result")
    return events


@handles(ProposeResult)
def propose_result(state: MatchState, seat: str, command: ProposeResult) -> list[Event]:
    record = _open_for_results(state)
    limit = state.settings.points_limit
    objective = {
        "A": _points(command.objective_a, MAX_OBJECTIVE_POINTS, _("Objective points")),
        "B": _points(command.objective_b, MAX_OBJECTIVE_POINTS, _("Objective points")),
    }
    army = {
        "A": _points(command.army_a, limit, _("Army points alive")),
        "B": _points(command.army_b, limit, _("Army points alive")),
    }
    # The proposer's own army at most her whole list: she knows its total
    # (hidden troopers included), her opponent does not, so his phone cannot
    # catch "250" typed for "25" (his total stays private: capped at the
    # points limit only). Her phone's box stops there too (result.html).
    whole_list = list_points(state, seat)
    if whole_list and army[seat] > whole_list:
        raise InvalidInput(
            _("%(what)s must be between %(low)s and %(high)s."),
            what=_("Your army points alive (your whole list)"),
            low=0,
            high=whole_list,
        )
    same_numbers = (
        record and record["objective_points"] == objective and record["army_points"] == army
    )
    if same_numbers and record["proposed_by"] == other_seat(seat):
        # Both players entered the same numbers: that is agreement (also
        # the player who disputed them, thinking it over).
        return _confirmed(state, seat, record)
    if same_numbers and record["status"] == PROPOSED:
        # The proposer's own numbers again (a second tab, or a page behind):
        # nothing changes. A new proposal would change its seq, and the
        # opponent's Confirm of the very same numbers would be refused as
        # "The proposed result has changed".
        return []
    return [ResultProposed(seat=seat, objective_points=objective, army_points=army)]


@handles(ConfirmResult)
def confirm_result(state: MatchState, seat: str, command: ConfirmResult) -> list[Event]:
    return _confirmed(state, seat, _pending_for(state, seat, command.proposal))


@handles(DisputeResult)
def dispute_result(state: MatchState, seat: str, command: DisputeResult) -> list[Event]:
    record = _pending_for(state, seat, command.proposal)
    reason = " ".join(str(command.reason or "").split())
    if len(reason) > MAX_REASON:
        raise InvalidInput(
            _("%(what)s is too long (at most %(max)s characters)."),
            what=_("The reason"),
            max=MAX_REASON,
        )
    return [ResultDisputed(seat=seat, proposal_seq=record["proposal_seq"], reason=reason)]


def settle(
    state: MatchState,
    organizer: str,
    objective: tuple[object, object],
    army: tuple[object, object],
    reason: object,
    time_called: bool = False,
) -> list[Event]:
    """An organizer's ruling on a disputed result (not a seat's command:
    the organizer pages append it through `actions.append`). Ends the match
    if time was called before it was over. Once the event round's time is
    called (`time_called`), also on a table with no agreed result: one still
    setting up or deploying cannot propose one, nor a no-show, and the next
    round is drawn only when every table has a result."""
    record = result_of(state)
    status = record["status"] if record else None
    if status == CONFIRMED:
        raise NotAllowed(_("The result is already confirmed."))
    if status == SETTLED:
        raise NotAllowed(_("The organizer settled the result."))
    if status != DISPUTED and not time_called:
        raise NotAllowed(_("Only a disputed result is settled by the organizer."))
    text = " ".join(str(reason or "").split())
    if not text:
        raise InvalidInput(_("Write the reason for the ruling: both players will read it."))
    if len(text) > MAX_REASON:
        raise InvalidInput(
            _("%(what)s is too long (at most %(max)s characters)."),
            what=_("The reason"),
            max=MAX_REASON,
        )
    limit = state.settings.points_limit
    army_points = {
        seat: _points(value, limit, _("Army points alive"))
        for seat, value in zip(SEATS, army, strict=True)
    }
    # The organizer reads both lists: an army alive past its whole list is
    # a slip ("140" for "14") that would count in the standings' VP.
    for seat in SEATS:
        whole_list = list_points(state, seat)
        if whole_list and army_points[seat] > whole_list:
            raise InvalidInput(
                _(
                    "Army points alive of seat %(seat)s must be between 0 and %(high)s, "
                    "its whole list."
                ),
                seat=seat,
                high=whole_list,
            )
    events: list[Event] = [
        ResultSettled(
            organizer=organizer,
            objective_points={
                seat: _points(value, MAX_OBJECTIVE_POINTS, _("Objective points"))
                for seat, value in zip(SEATS, objective, strict=True)
            },
            army_points=army_points,
            reason=text,
        )
    ]
    if state.phase != FINISHED:
        events += end_match(evolve_all(state, events), "result")
    return events


# ---------------------------------------------------------------- evolve


@applies(ResultProposed)
def _proposed(state: MatchState, event: ResultProposed) -> MatchState:
    return _with_record(
        state,
        RESULT,
        {
            "status": PROPOSED,
            "proposed_by": event.seat,
            "proposal_seq": state.seq,
            "objective_points": dict(event.objective_points),
            "army_points": dict(event.army_points),
        },
    )


@applies(ResultConfirmed)
def _result_confirmed(state: MatchState, event: ResultConfirmed) -> MatchState:
    record = dict(result_of(state) or {})
    record.update(
        status=CONFIRMED,
        confirmed_by=event.seat,
        confirmed_seq=state.seq,
        objective_points=dict(event.objective_points),
        army_points=dict(event.army_points),
    )
    record.setdefault("proposed_by", other_seat(event.seat))
    record.setdefault("proposal_seq", event.proposal_seq)
    return _with_record(state, RESULT, record)


@applies(ResultDisputed)
def _result_disputed(state: MatchState, event: ResultDisputed) -> MatchState:
    record = dict(result_of(state) or {})
    record.update(
        status=DISPUTED, disputed_by=event.seat, disputed_seq=state.seq, reason=event.reason
    )
    return _with_record(state, RESULT, record)


@applies(OrganizerViewedSecrets)
def _organizer_viewed(state: MatchState, event: OrganizerViewedSecrets) -> MatchState:
    return _with_record(state, ORGANIZER_VIEWS, [*organizer_views(state), state.seq])


@applies(ResultSettled)
def _result_settled(state: MatchState, event: ResultSettled) -> MatchState:
    record = dict(result_of(state) or {})
    record.update(
        status=SETTLED,
        settled_seq=state.seq,
        objective_points=dict(event.objective_points),
        army_points=dict(event.army_points),
        settled_reason=event.reason,
    )
    return _with_record(state, RESULT, record)
