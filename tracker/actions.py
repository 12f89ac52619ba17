"""The one write path. Every change to a match goes through `append`:

lock the match row, load the state, decide, append the numbered events with
their hash chain, commit, and only then tell the match's sockets that `seq`
moved on. Views, the organizer pages and management commands all call it.
"""

from __future__ import annotations

import json
import logging
import secrets
import time
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from datetime import UTC, datetime

from django.db import IntegrityError, OperationalError, transaction
from django.utils import timezone

from tracker import announce, reading, rules
from tracker.compiled_queries import CompiledQuery
from tracker.compiled_writes import CompiledInsert, CompiledUpdate
from tracker.models import Match, MatchEvent, Seat
from tracker.reading import load_state
from tracker.rules import results
from tracker.rules.classified import ClassifiedConfigured
from tracker.rules.commitments import canonical_json
from tracker.rules.setup import MatchCreated
from tracker.rules.state import FINISHED, PLAYING, MatchSettings, MatchState

log = logging.getLogger(__name__)

Decider = Callable[[MatchState], list[rules.Event]]


@dataclass(frozen=True)
class Outcome:
    seq: int
    appended: int
    duplicate: bool = False
    # The match row's columns that actions change (MATCH_COLUMNS), as the
    # write path left them under the lock: what a read of the row right
    # after the commit gives, so the answer's render reads it no more.
    row: dict = field(default_factory=dict, compare=False)

    def bring_up_to_date(self, match: Match) -> Match:
        """`match` (read before the action) with the row as this outcome left it."""
        for name, value in self.row.items():
            setattr(match, name, value)
        return match


MATCH_COLUMNS = ("seq", "last_hash", "status", "result")


# SQLite with a shared cache (the tests' database in memory) reports a table
# another connection is reading as "database table is locked" at once; the
# busy timeout that waits on a locked file does not apply to it. So the
# write path waits itself, 10 ms doubling, about 0.6 s in all, before the
# player is asked to tap again. A file database's "database is locked"
# comes after that timeout has waited: it is tried three times, as before.
TABLE_LOCKED = "database table is locked"
TABLE_LOCK_PAUSE = 0.01
ATTEMPTS = 7


class Busy(Exception):
    """The database stayed locked past the retries: ask the player to tap again."""


class TooLate(Exception):
    """The tap reached the write path after its deadline: its phone had given
    up on it by then (issue 17), so applying it would act without the
    player's consent. Nothing was written."""


def _status_for(state: MatchState) -> str:
    # Disputed while the result is: a new proposal after a dispute (the
    # players agreeing after all) takes the match off the organizers' list.
    if results.is_settled(state) and state.phase == FINISHED:
        return Match.Status.FINISHED
    if results.is_disputed(state):
        return Match.Status.DISPUTED
    if state.phase == FINISHED:
        return Match.Status.FINISHED
    if state.phase == PLAYING:
        return Match.Status.IN_PROGRESS
    return Match.Status.SETTING_UP


def append(
    match_id: int,
    actor: str,
    decider: Decider,
    action_id: str = "",
    deadline: float | None = None,
) -> Outcome:
    """Decide against the current state and append the result atomically.

    `action_id` makes the call idempotent: a second call with the same id
    (a double tap, an htmx retry) appends nothing and returns the first
    outcome. RuleViolation propagates unchanged, with nothing written.
    `deadline` (seconds since the epoch, server clock): past it, under the
    match's lock, a new action raises TooLate and writes nothing; a repeat
    of one already appended still returns the first outcome.
    """
    for attempt in range(ATTEMPTS):
        try:
            return _append_once(match_id, actor, decider, action_id, deadline)
        except IntegrityError:
            # A racing writer took our seq (only possible where the row lock is
            # weaker than we assume): reload and decide again.
            if attempt >= 2:
                raise Busy from None
        except OperationalError as error:
            if "locked" not in str(error) or attempt == ATTEMPTS - 1:
                raise Busy from error
            if TABLE_LOCKED in str(error):
                # Reported at once, not waited on: wait a little ourselves.
                time.sleep(TABLE_LOCK_PAUSE * 2**attempt)
            elif attempt >= 2:
                raise Busy from error  # the busy timeout has waited already
    raise Busy


# The queries of every tap's transaction, compiled once (compiled_queries.py).
_LOCKED_MATCH = CompiledQuery(lambda pk: Match.objects.select_for_update().filter(pk=pk), -1)
_SEQS_OF_ACTION = CompiledQuery(
    lambda match_id, action_id: (
        MatchEvent.objects.filter(match_id=match_id, action_id=action_id)
        .order_by()
        .values_list("seq")
    ),
    -1,
    "action",
)
# ... and its writes (compiled_writes.py).
_INSERT_EVENTS = CompiledInsert(
    lambda: MatchEvent(
        match_id=-1,
        seq=1,
        kind="kind",
        data="{}",
        private_to="A",
        actor="A",
        action_id="action",
        created_at=datetime(2000, 1, 1, tzinfo=UTC),
        hash="hash",
    )
)
_UPDATE_MATCH = CompiledUpdate(
    Match, seq=1, last_hash="hash", status=Match.Status.IN_PROGRESS, result={"stand": "in"}
)


def _append_once(
    match_id: int, actor: str, decider: Decider, action_id: str, deadline: float | None
) -> Outcome:
    with transaction.atomic():
        locked = _LOCKED_MATCH.models(match_id)
        if not locked:
            raise Match.DoesNotExist(f"no match {match_id}")
        match = locked[0]
        if action_id:
            # A query of its own, after the lock: folded into the locking
            # SELECT, PostgreSQL would read it in the snapshot taken before
            # waiting for the lock, blind to a repeat committed meanwhile.
            # No ordering: the model's ("match", "seq") joins the match table
            # to sort by its own ordering, for rows of one match.
            done = [seq for (seq,) in _SEQS_OF_ACTION.rows(match.pk, action_id)]
            if done:
                row = {name: getattr(match, name) for name in MATCH_COLUMNS}
                return Outcome(seq=max(done), appended=0, duplicate=True, row=row)
        # Checked once the lock is held, as late as it can be: a tap that
        # waited for the lock past its deadline is refused too.
        if deadline is not None and time.time() > deadline:
            raise TooLate
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
        _INSERT_EVENTS.run(rows)
        new_state = rules.evolve_all(state, events)
        row = {
            "seq": seq,
            "last_hash": prev_hash,
            "status": _status_for(new_state),
            "result": results.result_of(new_state),
        }
        _UPDATE_MATCH.run(match.pk, row)
        transaction.on_commit(lambda: written(match.pk, rows, seq))
        # As the JSON column gives it back (lists, never tuples).
        row["result"] = json.loads(json.dumps(row["result"]))
        return Outcome(seq=seq, appended=len(rows), row=row)


def _salted(event: rules.Event) -> rules.Event:
    """A private event gets 16 random bytes the hash chain covers (see
    Event.salt): a receipt's head hash then tests no guess of its content."""
    if event.private_to and not event.salt:
        return replace(event, salt=secrets.token_hex(16))
    return event


def perform(
    match: Match,
    seat: str,
    command: rules.Command,
    action_id: str = "",
    deadline: float | None = None,
) -> Outcome:
    """A player's command: the rules decide what it appends."""
    return append(
        match.pk, seat, lambda state: rules.decide(state, seat, command), action_id, deadline
    )


def record_hand_off(match: Match, seat: str, by: str, by_name: str = "") -> Outcome | None:
    """Log that the host or an organizer (`by`, rules.setup.BY_HOST /
    BY_ORGANIZER) gave `seat` to a new phone, as it happens (issue 22): the
    old phone loses the seat now, and the log names who did it, never its
    player. Appended with `by` as the actor, so the audit lists it as theirs.
    None for a seat nobody has claimed yet: its link is only replaced."""
    from tracker.rules.setup import MoveSeat

    if not load_state(match).seat(seat).claimed:
        return None
    command = MoveSeat(by=by, by_name=by_name)
    return append(match.pk, by, lambda state: rules.decide(state, seat, command))


def written(match_id: int, rows: list[MatchEvent], seq: int) -> None:
    """After the commit: the read path's cached state takes the rows in hand
    (reading.written), then the sockets hear of `seq`. The commit is done:
    nothing here may fail the request, and a state not handed on is only
    read again by the next render."""
    try:
        reading.written(match_id, rows)
    except Exception:
        log.exception("state of match %s not extended at seq %s", match_id, seq)
    notify(match_id, seq)


def notify(match_id: int, seq: int) -> None:
    """Say "seq n exists" to the match's sockets (tracker/announce.py)."""
    announce.seq_exists(match_id, seq)


def create_match(
    *,
    name: str,
    settings: MatchSettings | None = None,
    form_token: str | None = None,
    **fields,
) -> Match:
    """A new match with its two seats. `settings` (or its fields given one by
    one: points_limit, rounds, mission, table, classified) go into the
    creation events whole (setup.MatchSettings). `form_token`: the form it
    comes from; IntegrityError, and nothing made, if a match has it already."""
    settings = settings or MatchSettings(**fields)
    with transaction.atomic():
        match = Match.objects.create(
            name=name,
            points_limit=settings.points_limit,
            mission=settings.mission,
            table=settings.table,
            created_by_form=form_token,
        )
        Seat.objects.bulk_create([Seat(match=match, letter="A"), Seat(match=match, letter="B")])
        append(
            match.pk,
            "",
            lambda state: [
                MatchCreated(name=name, settings=settings),
                *([ClassifiedConfigured(**settings.classified)] if settings.classified else []),
            ],
        )
    return match
