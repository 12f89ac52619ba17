"""Exports: JSON (the whole audit, re-verifiable offline) and CSV (one row per
match) for organizers; a player's JSON export built from their own view.

The organizer JSON of a match carries every event exactly as stored (data is
the canonical text the hash covers, created_at the exact text chain_hash
uses) and every secret's nonce and payload, so the README's few lines of
standard-library Python re-verify the chain and the commitments. A player's
export carries only what `player_view` and `log_for` give that seat, and
no hashes: a hash of an event the player may not see would let them test
guesses of its content (an empty hidden-trooper list is easy to guess).
"""

from __future__ import annotations

import csv
import io
import json
from dataclasses import asdict

from django.utils import timezone

from tracker import audit, event_running, rules
from tracker.models import GENESIS_HASH, Match, MatchEvent
from tracker.reading import load
from tracker.rules.visibility import LogLine, log_for
from tracker.templatetags.tracker_tags import log_text
from tracker.tournament.scoring import scoring_table

FORMAT_MATCH = "infinity-tracker/match-audit/1"
FORMAT_EVENT = "infinity-tracker/event-audit/1"
FORMAT_PLAYER = "infinity-tracker/player-view/1"


def player_names(match: Match) -> dict:
    seats = {seat.letter: seat for seat in match.seats.all()}
    return {
        letter: (seats[letter].name or seats[letter].listed_name) if letter in seats else ""
        for letter in ("A", "B")
    }


def match_summary(match: Match, rows: list | None = None) -> dict:
    """The public facts of a match row (no tokens, no secrets). With its
    rows, the name, players and result are the log's (audit.header_from_rows),
    which the offline check recomputes; the names in the organizer's pairings
    are organizer facts beside the log, under `listed_players`, not checked."""
    summary = {
        "code": match.code,
        "name": match.name,
        "event": match.event.name if match.event_id else None,
        "event_id": match.event_id,
        "round": match.event_round,
        "table": match.table_number if match.table_number is not None else match.table,
        "created_at": audit.timestamp(match.created_at),
        "status": match.status,
        "players": player_names(match),
        "result": match.result,
        "seq": match.seq,
        "last_hash": match.last_hash,
    }
    if rows is not None:
        summary.update(audit.header_from_rows(rows))
        summary["listed_players"] = {seat.letter: seat.listed_name for seat in match.seats.all()}
    return summary


def _text(line: LogLine | None, view) -> str | None:
    return str(log_text(line, view)) if line is not None else None


def match_audit(match: Match, rows: list) -> dict:
    """Everything the audit page shows, for a match an organizer may see whole
    (finished, or with its sealed information just opened and recorded)."""
    check = audit.verify_match(match, rows)
    replayed = audit.replay(rows)
    view = rules.player_view(replayed.state, None)
    return {
        "format": FORMAT_MATCH,
        "exported_at": audit.timestamp(timezone.now()),
        "match": match_summary(match, rows),
        "verification": check.as_dict(),
        "chain": {
            "genesis_hash": GENESIS_HASH,
            "hash": "sha256(prev_hash + canonical_json({seq, kind, data, private_to, "
            "actor, action_id, created_at}))",
            "commitment": "sha256(bytes.fromhex(nonce) + canonical_json(payload))",
            "canonical_json": "json.dumps(value, sort_keys=True, separators=(',', ':'), "
            "ensure_ascii=False)",
        },
        "events": [audit.export_row(row) for row in rows],
        "timeline": [
            {
                "seq": entry.seq,
                "at": audit.timestamp(entry.at),
                "actor": entry.actor,
                "role": entry.role,
                "kind": entry.kind,
                "private_to": entry.private_to,
                "rule": entry.rule,
                "text": _text(entry.line, view),
            }
            for entry in audit.timeline(rows)
        ],
        "secrets": [record.as_dict() for record in audit.secrets(replayed.state, replayed.times)],
        "final_state": {
            seat.seat: asdict(seat) for seat in audit.snapshot(replayed.state, full=True).seats
        },
    }


def rows_of(match: Match) -> list[MatchEvent]:
    return list(MatchEvent.objects.filter(match=match).order_by("seq"))


def event_audit(tournament, matches: list[Match], organizer_can_open) -> dict:
    """Every match of an event. Matches still in play are listed by their
    public facts only: exporting their secrets would have to be recorded in
    each match (open them one by one from their audit pages)."""
    finished = [m for m in matches if organizer_can_open(m)]
    rows_by_match: dict[int, list] = {m.pk: [] for m in finished}
    events = MatchEvent.objects.filter(match_id__in=list(rows_by_match)).order_by("match_id", "seq")
    for row in events.iterator(chunk_size=2000):
        rows_by_match[row.match_id].append(row)
    exported = []
    for match in matches:
        if match.pk in rows_by_match:
            exported.append(match_audit(match, rows_by_match[match.pk]))
        else:
            exported.append({"match": match_summary(match), "in_progress": True, "events": None})
    return {
        "format": FORMAT_EVENT,
        "exported_at": audit.timestamp(timezone.now()),
        "event": {
            "id": tournament.pk,
            "name": tournament.name,
            "date": tournament.date.isoformat(),
            "location": tournament.location,
        },
        # Every match's head (its last seq and hash), in play or over: kept
        # outside the database, it pins each log down (docs/security.md).
        "heads": [
            {
                "code": m.code,
                "seq": m.seq,
                "last_hash": m.last_hash,
                "short_code": audit.receipt_code(m.last_hash),
            }
            for m in matches
        ],
        "matches": exported,
        "tournament": tournament_section(tournament),
    }


def tournament_section(tournament) -> dict | None:
    """The roster, the scoring table, each round's tables (which match,
    which players) and bye, and the standings (issue 21). The README's
    offline check recomputes the standings from the tables, the byes, the
    table and each match's result as its verified log says, and compares."""
    roster = list(tournament.roster.all())
    if not roster:
        return None
    tables = event_running.round_matches(tournament)
    rounds = tournament.rounds.filter(published_at__isnull=False)
    numbers = sorted({r.number for r in rounds} | {m.event_round for m, _a, _b in tables})
    byes = {r.number: r.bye for r in rounds}
    return {
        "scoring": scoring_table(tournament.scoring),
        "players": [
            {
                "id": p.pk,
                "name": p.name,
                "faction": p.faction,
                "club": p.club,
                "joined_round": p.joined_round,
                "dropped_after": p.dropped_after,
            }
            for p in roster
        ],
        "rounds": [
            {
                "number": n,
                "bye": byes.get(n),
                "tables": [
                    {"table": m.table_number, "match": m.code, "a": a, "b": b}
                    for m, a, b in tables
                    if m.event_round == n
                ],
            }
            for n in numbers
        ],
        "standings": [
            {
                "rank": s.rank,
                "player": s.player,
                "name": s.name,
                "tp": s.tp,
                "op": s.op,
                "vp": s.vp,
                "wins": s.wins,
                "draws": s.draws,
                "losses": s.losses,
                "byes": s.byes,
            }
            for s in event_running.standings(tournament)
        ],
    }


CSV_COLUMNS = [
    "event",
    "round",
    "table",
    "match",
    "name",
    "date",
    "status",
    "player_a",
    "player_b",
    "objective_points_a",
    "objective_points_b",
    "army_points_a",
    "army_points_b",
    "result",
    "events",
    "last_hash",
]


def _csv_cell(value) -> str:
    """Spreadsheets run a cell starting with = + - @ as a formula: player
    names are typed by anyone, so such cells are quoted with a '."""
    text = "" if value is None else str(value)
    if text[:1] in ("=", "+", "-", "@", "\t", "\r"):
        return "'" + text
    return text


def matches_csv(matches) -> str:
    out = io.StringIO()
    writer = csv.writer(out)
    writer.writerow(CSV_COLUMNS)
    for match in matches:
        result = match.result or {}
        op, ap = result.get("objective_points") or {}, result.get("army_points") or {}
        names = player_names(match)
        row = [
            match.event.name if match.event_id else "",
            match.event_round,
            match.table_number if match.table_number is not None else match.table,
            match.code,
            match.name,
            timezone.localtime(match.created_at).strftime("%Y-%m-%d %H:%M"),
            match.status,
            names["A"],
            names["B"],
            op.get("A"),
            op.get("B"),
            ap.get("A"),
            ap.get("B"),
            result.get("status", ""),
            match.seq,
            match.last_hash,
        ]
        writer.writerow([_csv_cell(value) for value in row])
    return out.getvalue()


def player_export(match: Match, letter: str) -> dict:
    """A player's own match, redacted exactly as their own view."""
    state, times = load(match)
    view = rules.player_view(state, letter)
    rows = MatchEvent.objects.filter(match=match).order_by("seq").only("seq", "kind", "data")
    events = [(row.seq, rules.event_from_data(row.kind, json.loads(row.data))) for row in rows]
    lines = log_for(state, events, letter)
    return {
        "format": FORMAT_PLAYER,
        "exported_at": audit.timestamp(timezone.now()),
        "viewer": letter,
        "match": {
            "code": match.code,
            "name": match.name,
            "event": match.event.name if match.event_id else None,
            "round": match.event_round,
            "table": match.table_number if match.table_number is not None else match.table,
            "status": match.status,
        },
        "view": asdict(view),
        "log": [
            {
                "seq": line.seq,
                "at": audit.timestamp(times[line.seq]) if line.seq in times else None,
                "kind": line.kind,
                "rule": line.rule,
                "text": str(log_text(line, view)),
            }
            for line in lines
        ],
    }


def dumps(value: dict) -> str:
    return json.dumps(value, indent=2, ensure_ascii=False, default=str)
