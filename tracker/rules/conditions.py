"""Public trooper states (Normal, Unconscious, Dead, Prone, Immobilized-A...)
that either player sets, and the undo of the last such step.

A correction is a new event (StepUndone), never an edit. Undo reaches back
only over consecutive state steps: any other public event (a reveal, a phase
change, a token spent) closes the window, because those cannot be taken back.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from .commands import Command, handles
from .errors import InvalidInput, NotAllowed, UnknownElement
from .events import Event
from .evolve import applies
from .i18n import _
from .identity import resolve_ref
from .state import (
    CONDITIONS,
    FINISHED,
    IMMOBILIZED_A,
    OUT_OF_ACTION,
    SETUP,
    TOKENS,
    MatchState,
    Trooper,
    UndoStep,
    replace,
)


@dataclass(frozen=True, kw_only=True)
class TrooperStateChanged(Event):
    trooper_id: str
    trooper_name: str
    seat: str
    by: str
    condition: str
    tokens: list
    previous_condition: str
    previous_tokens: list
    keeps_undo: ClassVar[bool] = True
    describe_as = _("%(trooper_name)s is now %(condition)s.")

    def describe(self) -> tuple[str, dict]:
        """Say what changed (issue 19): ticking Isolated is "is now Isolated",
        not "is now Normal" (the condition it kept). The token lists are
        labelled one by one in the reader's language (tracker_tags.log_text)."""
        added = sorted(set(self.tokens) - set(self.previous_tokens))
        removed = sorted(set(self.previous_tokens) - set(self.tokens))
        params = {**self.to_data(), "tokens_added": added, "tokens_removed": removed}
        if self.condition != self.previous_condition or not (added or removed):
            return self.describe_as, params
        if added and removed:
            message = _("%(trooper_name)s is now %(tokens_added)s, no longer %(tokens_removed)s.")
        elif added:
            message = _("%(trooper_name)s is now %(tokens_added)s.")
        else:
            message = _("%(trooper_name)s is no longer %(tokens_removed)s.")
        return message, params


@dataclass(frozen=True, kw_only=True)
class StepUndone(Event):
    trooper_id: str
    trooper_name: str
    by: str
    undone_seq: int
    condition: str
    tokens: list
    keeps_undo: ClassVar[bool] = True
    describe_as = _(
        "Correction: the last change to %(trooper_name)s was undone; it is %(condition)s again."
    )

    def describe(self) -> tuple[str, dict]:
        """Say what the trooper is again, not which step went: no phone
        shows a player the log's step numbers (the audit keeps undone_seq).
        The tokens it has again are labelled in the reader's language
        (tracker_tags.log_text)."""
        params = {**self.to_data(), "tokens_now": sorted(self.tokens)}
        if not self.tokens:
            return self.describe_as, params
        message = _(
            "Correction: the last change to %(trooper_name)s was undone; "
            "it is %(condition)s, %(tokens_now)s again."
        )
        return message, params


@dataclass(frozen=True, kw_only=True)
class SetTrooperState(Command):
    trooper_id: str
    condition: str
    tokens: list


@dataclass(frozen=True, kw_only=True)
class UndoLastStep(Command):
    pass


def visible_trooper(state: MatchState, viewer: str, trooper_id: object) -> Trooper:
    """The trooper `viewer` may act on, refusing hidden ones exactly like
    unknown ids (an error must not confirm a hidden trooper exists). A
    Camouflage marker is named by its marker reference (identity.py)."""
    trooper = resolve_ref(state, viewer, str(trooper_id or ""))
    if trooper is None or (trooper.hidden and trooper.seat != viewer):
        raise UnknownElement(_("There is no such trooper."))
    return trooper


@handles(SetTrooperState)
def set_trooper_state(state: MatchState, seat: str, command: SetTrooperState) -> list[Event]:
    if state.phase in (SETUP, FINISHED):
        raise NotAllowed(_("Trooper states change only while the match is on."))
    trooper = visible_trooper(state, seat, command.trooper_id)
    if trooper.hidden:
        raise NotAllowed(
            _("A trooper in Hidden Deployment is not on the table (HD-2)."), rule="HD-2"
        )
    if command.condition not in CONDITIONS:
        raise InvalidInput(_("Unknown state."))
    if not isinstance(command.tokens, list) or any(t not in TOKENS for t in command.tokens):
        raise InvalidInput(_("Unknown state."))
    tokens = sorted(set(command.tokens))
    if trooper.no_room and IMMOBILIZED_A not in tokens:
        raise NotAllowed(
            _(
                "This Immobilized-A ends only when the room around the trooper changes (RP-3): "
                "report that instead."
            ),
            rule="RP-3",
        )
    if command.condition == trooper.condition and tokens == sorted(trooper.tokens):
        raise NotAllowed(_("Nothing changed."))
    _refuse_out_of_action_in_holoecho(state, trooper, command.condition)
    return [
        TrooperStateChanged(
            trooper_id=trooper.id,
            trooper_name=trooper.name,
            seat=trooper.seat,
            by=seat,
            condition=command.condition,
            tokens=tokens,
            previous_condition=trooper.condition,
            previous_tokens=sorted(trooper.tokens),
        )
    ]


def _refuse_out_of_action_in_holoecho(state: MatchState, trooper: Trooper, condition: str) -> None:
    """A trooper in Holoecho goes out of action only through a Saving Roll,
    which ends its Holoecho and reveals the real one (HE-C4). Set from here,
    both phones went on showing a Dead trooper with its three Holoechoes on
    the table and its real one still sealed. The report does it right (and a
    reveal cannot be undone, a state step can), so the player is sent there;
    the State form does not offer these conditions for a row in Holoecho
    (app.js, data-holoecho). A Holoecho already ending in this Order (HE-T:
    its Holoechoes leave at the Order's end) is let through here; the form,
    which sees only the row, offers these conditions once they have left."""
    if condition not in OUT_OF_ACTION or trooper.out_of_action or not trooper.holoechoes:
        return
    order = state.turn.order if state.turn is not None else None
    if order is not None:
        ending = {entry[0] for entry in order.extra.get("he_ending", ())}
        if trooper.id in ending or trooper.id in order.extra.get("he_cancelled", ()):
            return
    raise NotAllowed(
        _(
            "%(name)s is in Holoecho: first report the hit that forced its Saving Roll, "
            "on the Holoecho that was hit (HE-C4); then set its state."
        ),
        name=trooper.name,
        rule="HE-C4",
    )


@handles(UndoLastStep)
def undo_last_step(state: MatchState, seat: str, command: UndoLastStep) -> list[Event]:
    if not state.undo:
        raise NotAllowed(
            _("There is nothing to undo: only the last state change can be corrected.")
        )
    step = state.undo[-1]
    if step.seat != seat:
        raise NotAllowed(_("Only the player who made the last change can undo it."))
    trooper = state.troopers[step.trooper_id]
    return [
        StepUndone(
            trooper_id=trooper.id,
            trooper_name=trooper.name,
            by=seat,
            undone_seq=step.seq,
            condition=step.condition,
            tokens=list(step.tokens),
        )
    ]


@applies(TrooperStateChanged)
def _changed(state: MatchState, event: TrooperStateChanged) -> MatchState:
    step = UndoStep(
        seq=state.seq,
        seat=event.by,
        trooper_id=event.trooper_id,
        condition=event.previous_condition,
        tokens=tuple(event.previous_tokens),
    )
    state = state.with_trooper(
        event.trooper_id, condition=event.condition, tokens=frozenset(event.tokens)
    )
    return replace(state, undo=(*state.undo, step))


@applies(StepUndone)
def _undone(state: MatchState, event: StepUndone) -> MatchState:
    state = state.with_trooper(
        event.trooper_id, condition=event.condition, tokens=frozenset(event.tokens)
    )
    return replace(state, undo=state.undo[:-1])
