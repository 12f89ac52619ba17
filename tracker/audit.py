"""The audit of a match: verify its log, lay it out, replay it.

Pure functions over event rows: anything with seq, kind, data, private_to,
actor, action_id, created_at and hash, such as MatchEvent rows or the rows
of a JSON export (`rows_from_export`). The verify_matches command, the audit
page and the exports all use these, so there is one definition of "this match
verifies" (DESIGN.md, guarantee 4).

What is checked:
- the hash chain: each row's hash is recomputed from the previous row's
  stored hash, so an edited row is named by its own seq, and a row whose hash
  was recomputed too breaks the link after it;
- numbering: seqs run 1, 2, 3... with no gap, and the log ends where the
  match row says it ends (a deleted tail is caught there);
- each row's data is the canonical JSON of a known event kind;
- commitments: every sealed secret's commitment is sha256(nonce || payload),
  and every reveal carries the payload and nonce of what was sealed.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field, make_dataclass
from datetime import UTC, datetime

from django.utils.functional import Promise
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from tracker import rules
from tracker.models import CHAIN_COLUMNS, GENESIS_HASH, row_hash
from tracker.rules import classified
from tracker.rules.commitments import canonical_json, fingerprint, verify
from tracker.rules.results import OrganizerViewedSecrets
from tracker.rules.state import FINISHED, SEATS, MatchState
from tracker.rules.visibility import LogLine, PlayerView, SeatView, player_view

SEALED = "SecretsSealed"
REVEALED = "SecretRevealed"
# Payloads that carry a server seed and the cards it drew (CL-2, CL-4).
SEEDED = (classified.CLASSIFIED_DRAW, classified.CLASSIFIED)


# A row of the log as stored and exported: the columns the hash chain covers
# (models.CHAIN_COLUMNS, named in that one place) and its hash.
ROW_COLUMNS = (*CHAIN_COLUMNS, "hash")
# One event of the log read back from an export (rows_from_export).
EventRow = make_dataclass("EventRow", ROW_COLUMNS, frozen=True)


def timestamp(moment: datetime) -> str:
    """The exact text the hash chain covers for a row's time (models.chain_hash)."""
    return moment.astimezone(UTC).isoformat(timespec="microseconds")


def export_row(row) -> dict:
    exported = {column: getattr(row, column) for column in ROW_COLUMNS}
    exported["created_at"] = timestamp(row.created_at)
    return exported


def _read(column: str, value):
    """An exported column as the row held it (export_row's inverse)."""
    if column == "seq":
        return int(value)
    if column == "created_at":
        return datetime.fromisoformat(value)
    return str(value)


def rows_from_export(events: Iterable[dict]) -> list[EventRow]:
    return [EventRow(**{c: _read(c, e[c]) for c in ROW_COLUMNS}) for e in events]


# ------------------------------------------------------------ verification


@dataclass(frozen=True)
class Problem:
    seq: int | None
    code: str  # seq, hash, data, commitment, reveal, head, header
    message: str | Promise
    params: dict = field(default_factory=dict)

    @property
    def text(self) -> str:
        try:
            return gettext(str(self.message)) % self.params
        except (KeyError, TypeError, ValueError):
            return gettext(str(self.message))


CHAIN_CODES = {"seq", "hash", "data", "head", "header"}


@dataclass(frozen=True)
class Check:
    events: int
    last_hash: str
    problems: tuple[Problem, ...]

    @property
    def ok(self) -> bool:
        return not self.problems

    @property
    def chain_ok(self) -> bool:
        return not any(p.code in CHAIN_CODES for p in self.problems)

    @property
    def commitments_ok(self) -> bool:
        return not any(p.code in ("commitment", "reveal", "draw") for p in self.problems)

    @property
    def first_broken_seq(self) -> int | None:
        seqs = [p.seq for p in self.problems if p.seq is not None]
        return min(seqs) if seqs else None

    def as_dict(self) -> dict:
        return {
            "ok": self.ok,
            "events": self.events,
            "chain_ok": self.chain_ok,
            "commitments_ok": self.commitments_ok,
            "first_broken_seq": self.first_broken_seq,
            "problems": [{"seq": p.seq, "code": p.code, "text": p.text} for p in self.problems],
        }


def _parse(row, problems: list[Problem]) -> dict | None:
    try:
        data = json.loads(row.data)
    except (TypeError, ValueError):
        problems.append(
            Problem(row.seq, "data", _("Event %(seq)s is not valid JSON."), {"seq": row.seq})
        )
        return None
    if not isinstance(data, dict) or canonical_json(data) != row.data:
        problems.append(
            Problem(row.seq, "data", _("Event %(seq)s is not in canonical form."), {"seq": row.seq})
        )
        return None
    if row.kind not in rules.EVENT_TYPES:
        problems.append(
            Problem(
                row.seq,
                "data",
                _("Event %(seq)s has an unknown kind (%(kind)s)."),
                {"seq": row.seq, "kind": row.kind},
            )
        )
        return None
    return data


def _check_commitments(row, data: dict, sealed: dict, problems: list[Problem]) -> None:
    if row.kind == SEALED:
        for secret in data.get("secrets") or []:
            try:
                good = verify(secret["commitment"], secret["nonce"], secret["payload"])
                sealed[secret["id"]] = {
                    "seat": data.get("seat"),
                    "kind": secret.get("kind"),
                    "commitment": secret["commitment"],
                    "payload": secret["payload"],
                    "nonce": secret["nonce"],
                    "revealed_at": None,
                }
            except (KeyError, TypeError):
                good = False
            if not good:
                problems.append(
                    Problem(
                        row.seq,
                        "commitment",
                        _("Event %(seq)s: a sealed secret does not match its commitment."),
                        {"seq": row.seq},
                    )
                )
            elif secret.get("kind") in SEEDED and not classified.seeded_ok(secret["payload"]):
                # CL-2/CL-4: the cards sealed are not what the sealed seed draws.
                problems.append(
                    Problem(
                        row.seq,
                        "draw",
                        _("Event %(seq)s: the Classified cards are not what the seed draws."),
                        {"seq": row.seq},
                    )
                )
    elif row.kind == REVEALED:
        _check_reveal(row, data, sealed, problems)


def _check_reveal(row, data: dict, sealed: dict, problems: list[Problem]) -> None:
    """A reveal against its own seal (#20): its payload and nonce open its
    commitment, and the secret it names was sealed earlier in this log, by
    the same seat, of the same kind, with that very commitment, payload and
    nonce, and not revealed already. A reveal rewritten in the database with
    the chain recomputed fails one of these."""
    try:
        good = verify(data["commitment"], data["nonce"], data["payload"])
        seal = sealed.get(data["secret_id"])
        same = seal is not None and seal["commitment"] == data["commitment"]
    except (KeyError, TypeError):
        good = same = False
    if not good:
        message = _("Event %(seq)s: the revealed secret does not match its commitment.")
    elif not same:
        message = _("Event %(seq)s reveals a secret that was never sealed with that commitment.")
    elif (seal["seat"], seal["kind"], seal["payload"], seal["nonce"]) != (
        data.get("seat"),
        data.get("secret_kind"),
        data["payload"],
        data["nonce"],
    ):
        message = _(
            "Event %(seq)s reveals a secret unlike its seal: its seat, kind or contents differ."
        )
    elif seal["revealed_at"] is not None:
        problems.append(
            Problem(
                row.seq,
                "reveal",
                _("Event %(seq)s reveals again a secret revealed at event %(first)s."),
                {"seq": row.seq, "first": seal["revealed_at"]},
            )
        )
        return
    else:
        seal["revealed_at"] = row.seq
        return
    problems.append(Problem(row.seq, "reveal", message, {"seq": row.seq}))


def verify_rows(rows: Iterable, head_seq: int | None = None, head_hash: str | None = None) -> Check:
    """Check a match's rows (in seq order) and, if given, the match row's
    record of where its log ends."""
    problems: list[Problem] = []
    sealed: dict[str, dict] = {}  # secret id -> its seal, as _check_reveal reads it
    prev_hash, last_seq, count = GENESIS_HASH, 0, 0
    for row in rows:
        count += 1
        if row.seq != last_seq + 1:
            problems.append(
                Problem(
                    last_seq + 1,
                    "seq",
                    _("Events %(first)s to %(last)s are missing."),
                    {"first": last_seq + 1, "last": row.seq - 1},
                )
            )
        expected = row_hash(prev_hash, row)
        if expected != row.hash:
            problems.append(
                Problem(
                    row.seq,
                    "hash",
                    _(
                        "Event %(seq)s does not match its hash: it was changed after it was written."
                    ),
                    {"seq": row.seq},
                )
            )
        data = _parse(row, problems)
        if data is not None:
            _check_commitments(row, data, sealed, problems)
        prev_hash, last_seq = row.hash, row.seq
    if head_seq is not None and head_seq != last_seq:
        problems.append(
            Problem(
                min(head_seq, last_seq) + 1,
                "head",
                _("The match says its log ends at event %(head)s, but it ends at %(last)s."),
                {"head": head_seq, "last": last_seq},
            )
        )
    elif head_hash is not None and head_hash != prev_hash:
        problems.append(
            Problem(
                last_seq or None,
                "head",
                _("The last hash recorded on the match does not match its log."),
            )
        )
    return Check(events=count, last_hash=prev_hash, problems=tuple(problems))


def verify_match(match, rows: Iterable) -> Check:
    return verify_rows(rows, head_seq=match.seq, head_hash=match.last_hash)


# ------------------------------------------------------------------ replay


@dataclass(frozen=True)
class Replay:
    """The state after event `seq`, the time of each event up to it, and the
    seq whose event could not be applied (a tampered row), if any."""

    state: MatchState
    times: dict
    seq: int
    error_seq: int | None = None


def replay(rows: Sequence, upto: int | None = None) -> Replay:
    state, times = MatchState(), {}
    for row in rows:
        if upto is not None and row.seq > upto:
            break
        try:
            state = rules.evolve(state, rules.event_from_data(row.kind, json.loads(row.data)))
        except Exception:  # a row edited behind the app's back may not even parse
            return Replay(state=state, times=times, seq=state.seq, error_seq=row.seq)
        times[row.seq] = row.created_at
    return Replay(state=state, times=times, seq=state.seq)


# ---------------------------------------------------------------- timeline


@dataclass(frozen=True)
class Entry:
    """One event of the timeline. `step`: "action" for the first event one
    tap (or one organizer's form) appended, what its author did; "same tap"
    for the others, appended by that tap (`tap_of`: the seq of its first
    event shown): the rules' consequence of it or more of the same action
    (a deployment's secrets, then the deployment), which the log does not
    tell apart; None right after a sealed event, whose tap this audit does
    not say. `role`: declared (a player's action), decided (a later event of
    its tap), seat (a player's event right after a sealed one), tracker or
    organizer."""

    seq: int
    at: datetime | None
    actor: str
    kind: str
    private_to: str
    role: str
    rule: str | None
    line: LogLine | None
    data: dict | None
    sealed: bool = False  # content withheld from this audit (match in play)
    step: str | None = None
    tap_of: int | None = None

    @property
    def pretty(self) -> str:
        return json.dumps(self.data, indent=2, sort_keys=True, ensure_ascii=False)


# The events no phone's log describes (each is private to its owner, whose
# phone shows what it holds elsewhere): the audit names them in the
# organizer's language instead of by their kind.
AUDIT_ONLY_LINES = {
    "SecretsSealed": _("%(seat_name)s sealed secrets: their contents and nonces are in its data."),
    "HiddenTroopersEnlisted": _(
        "%(seat_name)s's troopers in Hidden Deployment, kept from the opponent, are in its data."
    ),
    "ReserveDeployedHidden": _(
        "%(seat_name)s deployed the reserved trooper in Hidden Deployment (TM-S1)."
    ),
}


def timeline(rows: Sequence, open_upto: int | None = None) -> list[Entry]:
    """Every event, oldest first. With `open_upto`, private events after that
    seq are listed without their content (see `open_upto` below)."""
    entries, batch, first = [], None, None
    for row in rows:
        key = (row.actor, row.action_id, row.created_at)
        # One tap appends its events together (one actor, action id and
        # time): the first is what its author did, the others came with it.
        # Right after a sealed event neither is said: either would tell who
        # appended the sealed one, and when.
        if batch is _SEALED:
            step = None
        elif key == batch:
            step = SAME_TAP
        else:
            step = ACTION
        if step != SAME_TAP:
            first = row.seq
        role = (
            "organizer"
            if row.actor == "organizer"
            else "tracker"
            if row.actor not in SEATS
            else {ACTION: "declared", SAME_TAP: "decided"}.get(step, "seat")
        )
        batch = key
        sealed = bool(row.private_to) and open_upto is not None and row.seq > open_upto
        if sealed:
            # A spectator learns only that event `seq` exists: not its kind,
            # whose it is, who appended it or when.
            entries.append(
                Entry(
                    seq=row.seq,
                    at=None,
                    actor="",
                    kind="",
                    private_to="",
                    role="sealed",
                    rule=None,
                    line=None,
                    data=None,
                    sealed=True,
                )
            )
            batch = _SEALED
            continue
        try:
            data = json.loads(row.data)
            event = rules.event_from_data(row.kind, data)
        except Exception:
            data, event = None, None
        line = None
        if event is not None and not sealed:
            described = event.describe()
            if described is None and row.kind in AUDIT_ONLY_LINES:
                described = (AUDIT_ONLY_LINES[row.kind], event.to_data())
            if described is not None:
                line = LogLine(row.seq, row.kind, described[0], described[1], event.rule)
        entries.append(
            Entry(
                seq=row.seq,
                at=row.created_at,
                actor=row.actor,
                kind=row.kind,
                private_to=row.private_to,
                role=role,
                rule=event.rule if event is not None and not sealed else None,
                line=line,
                data=None if sealed else data,
                sealed=sealed,
                step=step,
                tap_of=first if step == SAME_TAP else None,
            )
        )
    return entries


ACTION, SAME_TAP = "action", "same tap"
# What `timeline` remembers of a sealed event in place of its tap.
_SEALED = object()


# ----------------------------------------------------------------- secrets


@dataclass(frozen=True)
class SecretRecord:
    id: str
    seat: str
    kind: str
    commitment: str
    sealed_seq: int
    sealed_at: datetime | None
    payload: dict | None
    nonce: str | None
    revealed_seq: int | None
    revealed_at: datetime | None
    revealed_rule: str | None
    verified: bool | None
    sealed: bool = False  # content withheld from this audit (match in play)

    @property
    def fingerprint(self) -> str:
        return fingerprint(self.commitment)

    @property
    def revealed_in_play(self) -> bool:
        return self.revealed_seq is not None

    def as_dict(self) -> dict:
        return {
            "id": self.id,
            "seat": self.seat,
            "kind": self.kind,
            "commitment": self.commitment,
            "sealed_seq": self.sealed_seq,
            "sealed_at": timestamp(self.sealed_at) if self.sealed_at else None,
            "payload": self.payload,
            "nonce": self.nonce,
            "canonical_payload": canonical_json(self.payload) if self.payload is not None else None,
            "revealed_in_play": self.revealed_in_play,
            "revealed_seq": self.revealed_seq,
            "revealed_at": timestamp(self.revealed_at) if self.revealed_at else None,
            "revealed_rule": self.revealed_rule,
            "verified": self.verified,
        }


def secrets(state: MatchState, times: dict, open_upto: int | None = None) -> list[SecretRecord]:
    """Every sealed secret of the match, revealed in play or not, with the
    commitment recomputed from its payload and nonce."""
    records = []
    # Within one seal, by kind: the ids are random, and an order drawn from
    # them made twin matches list the same kinds in a different order.
    order = sorted(state.secrets.values(), key=lambda s: (s.sealed_seq, s.seat, s.kind, s.id))
    for secret in order:
        withheld = open_upto is not None and not secret.revealed and secret.sealed_seq > open_upto
        if withheld and not secret.existence_public:
            # Before the organizer opens a match in play, the audit shows what
            # a spectator sees: a secret whose very existence is private (a
            # Hidden Deployment position) is not listed at all, not even as
            # "sealed": its row, id and commitment would count hidden troopers.
            continue
        records.append(
            SecretRecord(
                id=secret.id,
                seat=secret.seat,
                kind=secret.kind,
                commitment=secret.commitment,
                sealed_seq=secret.sealed_seq,
                sealed_at=times.get(secret.sealed_seq),
                payload=None if withheld else dict(secret.payload),
                nonce=None if withheld else secret.nonce,
                revealed_seq=secret.revealed_seq,
                revealed_at=times.get(secret.revealed_seq) if secret.revealed_seq else None,
                revealed_rule=secret.revealed_rule,
                verified=verify(secret.commitment, secret.nonce, dict(secret.payload)),
                sealed=withheld,
            )
        )
    return records


# ------------------------------------------------------------ who sees what


def open_upto(replayed: Replay, organizer: str, rows: Sequence) -> int | None:
    """How much sealed information this organizer may see right now.

    None: everything (the match is over, or its log was tampered with so
    badly that it cannot be replayed, so nobody can play on and the organizer
    needs all of it). Otherwise the seq of this organizer's last recorded
    OrganizerViewedSecrets: what was sealed before it has been shown and the
    players were told; what was sealed after it stays sealed until the
    organizer opens it again (recorded again)."""
    if replayed.state.phase == FINISHED or replayed.error_seq is not None:
        return None
    viewed = 0
    for row in rows:
        if row.kind == OrganizerViewedSecrets.__name__:
            try:
                if json.loads(row.data).get("organizer") == organizer:
                    viewed = row.seq
            except (TypeError, ValueError, AttributeError):
                continue
    return viewed


@dataclass(frozen=True)
class Snapshot:
    """The match after one event, for the replay panel: every seat as its
    owner saw it (everything), or as a spectator saw it (while sealed)."""

    seq: int
    view: PlayerView
    seats: tuple[SeatView, ...]
    full: bool


def snapshot(state: MatchState, full: bool) -> Snapshot:
    public = player_view(state, None)
    if not full:
        return Snapshot(seq=state.seq, view=public, seats=public.seats, full=False)
    seats = tuple(player_view(state, seat).seat(seat) for seat in SEATS)
    return Snapshot(seq=state.seq, view=public, seats=seats, full=True)


# ------------------------------------------------ the header and receipts

RESULT_KINDS = {
    "ResultProposed": "proposed",
    "ResultConfirmed": "confirmed",
    "ResultDisputed": "disputed",
    "ResultSettled": "settled",
}


def header_from_rows(rows: Iterable) -> dict:
    """What an export's match header says that the log decides: the match's
    name, the players' names and the result, recomputed from the events.
    The README's offline check recomputes exactly this and compares it with
    the header, so an edited name or result in an export no longer says "ok"
    (an edit inside the events breaks the chain instead)."""
    name, players, result = None, {"A": "", "B": ""}, None
    for row in rows:
        try:
            data = json.loads(row.data)
        except (TypeError, ValueError):
            continue
        if not isinstance(data, dict):
            continue
        if row.kind == "MatchCreated":
            name = data.get("name")
        elif row.kind == "SeatClaimed" and data.get("seat") in players:
            players[data["seat"]] = data.get("name", "")
        elif row.kind in RESULT_KINDS:
            result = {**(result or {}), "status": RESULT_KINDS[row.kind]}
            result.update({k: data[k] for k in ("objective_points", "army_points") if k in data})
    return {"name": name, "players": players, "result": result}


def header_problems(header: dict, rows: Sequence) -> list[Problem]:
    expected = header_from_rows(rows)
    if {key: header.get(key) for key in expected} != expected:
        return [Problem(None, "header", _("The match header does not match its log."))]
    return []


def verify_export(export: dict) -> Check:
    """An organizer export of one match, checked as the README's offline
    snippet does: the chain, the commitments, the last hash and the header."""
    rows = rows_from_export(export["events"])
    check = verify_rows(rows, head_hash=export["match"]["last_hash"])
    problems = (*check.problems, *header_problems(export["match"], rows))
    return Check(events=check.events, last_hash=check.last_hash, problems=problems)


# A receipt checked by the audit or verify_matches carries at least 128 bits
# of the head hash (issue 22). The 12 digits (48 bits) it took before let
# someone holding the database grind a free field of a rewritten match (a
# name, a note, a time) until its head began with the phone's code: about
# 2^47 hashes, hours on one GPU. 2^127 is out of anyone's reach.
RECEIPT_DIGITS = 32
HASH_DIGITS = 64
HEX = frozenset("0123456789abcdef")


def receipt_code(head_hash: str) -> str:
    """A receipt's code as the phones show it and the audit takes it: the
    first 32 hex digits of the head hash (128 bits), in eight groups of four
    for reading aloud or typing (the phone also keeps the whole hash)."""
    digits = head_hash[:RECEIPT_DIGITS].upper()
    return "-".join(digits[i : i + 4] for i in range(0, RECEIPT_DIGITS, 4))


def receipt_digits(code: str) -> str:
    """The hex digits of a receipt as typed: groups, spaces and case do not
    matter; anything else is kept, so that it is refused."""
    return "".join(ch for ch in str(code).lower() if ch not in "- \t\n:")


@dataclass(frozen=True)
class ReceiptCheck:
    seq: int
    code: str
    ok: bool
    known: bool  # the log has an event with that seq
    # Why the code was not checked at all ("" when it was): too short, or not
    # hex digits. Such a receipt proves nothing either way.
    refused: str = ""


def receipt_refusal(code: str) -> str:
    """Why `code` cannot be checked, in the reader's language ("" if it can)."""
    digits = receipt_digits(code)
    if not digits or not set(digits) <= HEX or len(digits) > HASH_DIGITS:
        return gettext(
            "This is not a receipt code: give the %(digits)s digits (0-9, A-F) the phone shows, "
            "or its whole hash."
        ) % {"digits": RECEIPT_DIGITS}
    if len(digits) < RECEIPT_DIGITS:
        return gettext(
            "This code has %(given)s digits: a receipt is checked on at least %(digits)s (the "
            "code the phone shows, or its whole hash). Fewer could be matched by whoever "
            "rewrote the log."
        ) % {"given": len(digits), "digits": RECEIPT_DIGITS}
    return ""


def check_receipt(rows: Sequence, seq: int, code: str) -> ReceiptCheck:
    """Does a phone's receipt (seq and head hash, whole or its 32-digit
    code) match the log? A database rewritten by one person cannot match
    the receipts both phones kept. A code too short to prove anything is
    refused, not compared."""
    row = next((r for r in rows if r.seq == seq), None)
    refused = receipt_refusal(code)
    digits = receipt_digits(code)
    ok = not refused and row is not None and row.hash.startswith(digits)
    return ReceiptCheck(seq=seq, code=str(code), ok=ok, known=row is not None, refused=refused)
