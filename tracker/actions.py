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

from asgiref.sync import async_to_sync
from channels.layers import get_channel_layer
from django.db import IntegrityError, OperationalError, transaction
from django.utils import timezone

from tracker import rules
from tracker.http import on_server_loop
from tracker.models import Match, MatchEvent, Seat
from tracker.reading import load_state
from tracker.rules import results
from tracker.rules.classified import ClassifiedConfigured
from tracker.rules.commitments import canonical_json
from tracker.rules.setup import MatchSettings
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
    """Say "seq n exists" to the match's sockets; never the state itself.
    Layers are at-most-once: a lost push is healed by the next resync."""
    layer = get_channel_layer()
    if layer is None:
        return
    group, message = f"match-{match_id}", {"type": "match.changed", "seq": seq}
    # Served by the ASGI server: its loop sends it (tracker/http.py), and the
    # POST does not wait for the layer.
    if on_server_loop(layer.group_send(group, message)):
        return
    try:
        async_to_sync(layer.group_send)(group, message)
    except Exception:  # a push is best effort; the log already has the event
        log.warning("push for match %s seq %s failed", match_id, seq, exc_info=True)


def create_match(*, name: str, settings: MatchSettings | None = None, **fields) -> Match:
    """A new match with its two seats. `settings` (or its fields given one by
    one: points_limit, rounds, mission, table, classified) go into the
    creation events whole (setup.MatchSettings)."""
    settings = settings or MatchSettings(**fields)
    with transaction.atomic():
        match = Match.objects.create(
            name=name,
            points_limit=settings.points_limit,
            mission=settings.mission,
            table=settings.table,
        )
        Seat.objects.bulk_create([Seat(match=match, letter="A"), Seat(match=match, letter="B")])
        append(
            match.pk,
            "",
            lambda state: [
                settings.created(name),
                *([ClassifiedConfigured(**settings.classified)] if settings.classified else []),
            ],
        )
    return match
