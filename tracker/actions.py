"""The one write path. Every change to a match goes through `append`:

lock the match row, load the state, decide, append the numbered events with
their hash chain, commit, and only then tell the match's sockets that `seq`
moved on. Views, the organizer pages and management commands all call it.
"""

from __future__ import annotations

import logging
import secrets
from collections.abc import Callable
from dataclasses import dataclass, replace

from django.db import IntegrityError, OperationalError, transaction
from django.utils import timezone

from tracker import announce, rules
from tracker.models import Match, MatchEvent, Seat
from tracker.reading import load_state
from tracker.rules import results
from tracker.rules.classified import ClassifiedConfigured
from tracker.rules.commitments import canonical_json
from tracker.rules.setup import MatchCreated
from tracker.rules.state import FINISHED, PLAYING, MatchState

log = logging.getLogger(__name__)

Decider = Callable[[MatchState], list[rules.Event]]


@dataclass(frozen=True)
class Outcome:
    seq: int
    appended: int
    duplicate: bool = False


class Busy(Exception):
    """The database stayed locked past the retries: ask the player to tap again."""


def _status_for(state: MatchState, current: str) -> str:
    # DISPUTED is sticky: once the players disagreed, only an organizer settles it.
    if results.is_settled(state) and state.phase == FINISHED:
        return Match.Status.FINISHED
    if current == Match.Status.DISPUTED or results.is_disputed(state):
        return Match.Status.DISPUTED
    if state.phase == FINISHED:
        return Match.Status.FINISHED
    if state.phase == PLAYING:
        return Match.Status.IN_PROGRESS
    return Match.Status.SETTING_UP


def append(match_id: int, actor: str, decider: Decider, action_id: str = "") -> Outcome:
    """Decide against the current state and append the result atomically.

    `action_id` makes the call idempotent: a second call with the same id
    (a double tap, an htmx retry) appends nothing and returns the first
    outcome. RuleViolation propagates unchanged, with nothing written.
    """
    for attempt in range(3):
        try:
            return _append_once(match_id, actor, decider, action_id)
        except IntegrityError:
            # A racing writer took our seq (only possible where the row lock is
            # weaker than we assume): reload and decide again.
            if attempt == 2:
                raise Busy from None
        except OperationalError as error:
            if "locked" not in str(error) or attempt == 2:
                raise Busy from error
    raise Busy


def _append_once(match_id: int, actor: str, decider: Decider, action_id: str) -> Outcome:
    with transaction.atomic():
        match = Match.objects.select_for_update().get(pk=match_id)
        if action_id:
            done = list(
                MatchEvent.objects.filter(match=match, action_id=action_id).values_list(
                    "seq", flat=True
                )
            )
            if done:
                return Outcome(seq=max(done), appended=0, duplicate=True)
        state = load_state(match)
        events = [_salted(event) for event in decider(state)]
        now = timezone.now()
        prev_hash, seq = match.last_hash, match.seq
        rows = []
        for event in events:
            seq += 1
            row = MatchEvent(
                match=match,
                seq=seq,
                kind=event.kind,
                data=canonical_json(event.to_data()),
                private_to=event.private_to or "",
                actor=actor,
                action_id=action_id,
                created_at=now,
            )
            row.hash = row.chain_hash(prev_hash)
            prev_hash = row.hash
            rows.append(row)
        MatchEvent.objects.bulk_create(rows)
        new_state = rules.evolve_all(state, events)
        Match.objects.filter(pk=match.pk).update(
            seq=seq,
            last_hash=prev_hash,
            status=_status_for(new_state, match.status),
            result=results.result_of(new_state),
        )
        transaction.on_commit(lambda: notify(match.pk, seq))
        return Outcome(seq=seq, appended=len(rows))


def _salted(event: rules.Event) -> rules.Event:
    """A private event gets 16 random bytes the hash chain covers (see
    Event.salt): a receipt's head hash then tests no guess of its content."""
    if event.private_to and not event.salt:
        return replace(event, salt=secrets.token_hex(16))
    return event


def perform(match: Match, seat: str, command: rules.Command, action_id: str = "") -> Outcome:
    """A player's command: the rules decide what it appends."""
    return append(match.pk, seat, lambda state: rules.decide(state, seat, command), action_id)


def notify(match_id: int, seq: int) -> None:
    """Say "seq n exists" to the match's sockets (tracker/announce.py)."""
    announce.seq_exists(match_id, seq)


def create_match(
    *,
    name: str,
    points_limit: int,
    rounds: int = 3,
    mission: str = "",
    table: str = "",
    classified: dict | None = None,
) -> Match:
    """A new match with its two seats. `classified`: the Classified Objectives
    settings from `rules.classified.clean_config` (CL-1), or None for none."""
    with transaction.atomic():
        match = Match.objects.create(
            name=name, points_limit=points_limit, mission=mission, table=table
        )
        Seat.objects.bulk_create([Seat(match=match, letter="A"), Seat(match=match, letter="B")])
        append(
            match.pk,
            "",
            lambda state: [
                MatchCreated(
                    name=name,
                    points_limit=points_limit,
                    rounds=rounds,
                    mission=mission,
                    table=table,
                ),
                *([ClassifiedConfigured(**classified)] if classified else []),
            ],
        )
    return match
