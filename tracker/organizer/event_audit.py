"""The event's audit (issue 21): every match of the event verified at once
(hash chain, commitments and reveals, and the phones' receipts the organizer
recorded, tracker/organizer/event_receipts.py), every peek, dispute, settlement and
result change listed, and the standings and results as CSV, the results in
one table per round (table, players, TP, OP, VP) ready to copy into the
official tournament manager."""

from __future__ import annotations

import csv
import io
import json
from collections import defaultdict

from django.utils.translation import gettext as _

from tracker import audit, event_running, exports
from tracker.models import Match, MatchEvent, TournamentEvent
from tracker.organizer import event_receipts
from tracker.rules.results import CONFIRMED, SETTLED
from tracker.tournament.scoring import scoring_table, tournament_points

# Public events of the result and the organizer's look: no secret in them.
WATCHED = {
    "OrganizerViewedSecrets": "peek",
    "ResultProposed": "proposed",
    "ResultConfirmed": "confirmed",
    "ResultDisputed": "disputed",
    "ResultSettled": "settled",
}


def _describe(kind: str, data: dict) -> str:
    op, ap = data.get("objective_points") or {}, data.get("army_points") or {}
    scores = {"op_a": op.get("A"), "op_b": op.get("B"), "ap_a": ap.get("A"), "ap_b": ap.get("B")}
    if kind == "OrganizerViewedSecrets":
        return _("%(organizer)s opened the sealed information in play.") % {
            "organizer": data.get("organizer", "")
        }
    if kind == "ResultDisputed":
        return _("Seat %(seat)s disputed the result: %(reason)s") % {
            "seat": data.get("seat", ""),
            "reason": data.get("reason") or "—",
        }
    if kind == "ResultSettled":
        return _(
            "%(organizer)s settled: objective points %(op_a)s–%(op_b)s, "
            "army points alive %(ap_a)s–%(ap_b)s. Reason: %(reason)s"
        ) % {**scores, "organizer": data.get("organizer", ""), "reason": data.get("reason", "")}
    if kind == "ResultConfirmed":
        return _(
            "Seat %(seat)s confirmed: objective points %(op_a)s–%(op_b)s, "
            "army points alive %(ap_a)s–%(ap_b)s."
        ) % {**scores, "seat": data.get("seat", "")}
    return _(
        "Seat %(seat)s proposed: objective points %(op_a)s–%(op_b)s, "
        "army points alive %(ap_a)s–%(ap_b)s."
    ) % {**scores, "seat": data.get("seat", "")}


def rows_of_matches(event: TournamentEvent) -> dict[int, list[MatchEvent]]:
    rows_by_match = defaultdict(list)
    for row in MatchEvent.objects.filter(match__event=event).order_by("match_id", "seq"):
        rows_by_match[row.match_id].append(row)
    return rows_by_match


def report(event: TournamentEvent) -> dict:
    matches = list(
        Match.objects.filter(event=event)
        .prefetch_related("seats")
        .order_by("event_round", "table_number", "pk")
    )
    rows_by_match = rows_of_matches(event)
    checked, happenings = [], []
    receipts = event_receipts.checked(event, rows_by_match)
    for match in matches:
        rows = rows_by_match[match.pk]
        check = audit.verify_match(match, rows)
        names = exports.player_names(match)
        checked.append(
            {
                "match": match,
                "check": check,
                "names": names,
                "receipts": receipts.get(match.pk, []),
                # The phones were shown a receipt (rendering.receipt_for).
                "receipt_shown": match.status == Match.Status.FINISHED
                or (match.result or {}).get("status") in (CONFIRMED, SETTLED),
            }
        )
        for row in rows:
            if row.kind in WATCHED:
                happenings.append(
                    {
                        "match": match,
                        "names": names,
                        "seq": row.seq,
                        "what": WATCHED[row.kind],
                        "text": _describe(row.kind, json.loads(row.data)),
                        "at": row.created_at,
                    }
                )
    return {
        "event": event,
        "checked": checked,
        # A receipt on record that disagrees unverifies the event too: its
        # match's log changed since a phone kept it, whatever the chain says.
        "all_ok": all(c["check"].ok and all(r.agrees for r in c["receipts"]) for c in checked),
        "broken": [c for c in checked if not c["check"].ok],
        "with_receipts": sum(bool(c["receipts"]) for c in checked),
        "receipts_disagreeing": [(c, r) for c in checked for r in c["receipts"] if not r.agrees],
        "happenings": happenings,
        "peeks": sum(h["what"] == "peek" for h in happenings),
        "disputes": sum(h["what"] == "disputed" for h in happenings),
        "settlements": sum(h["what"] == "settled" for h in happenings),
        "standings": event_running.standings(event),
        "rounds": round_tables(event),
    }


def round_tables(event: TournamentEvent) -> list[dict]:
    """Per round, one row per counted table (and the bye): what the
    official tournament manager asks for."""
    table = scoring_table(event.scoring)
    names = dict(event.roster.values_list("pk", "name"))
    tables = {
        (m.event_round, m.table_number)
        for m in Match.objects.filter(event=event, event_round__isnull=False)
    }
    by_round = defaultdict(list)
    results = event_running.counted_results(event)
    table_of = _table_numbers(event)
    for r in results:
        by_round[r.round].append(
            {
                "table": table_of.get((r.round, r.player_a)),
                "a": names[r.player_a],
                "b": names[r.player_b],
                "tp_a": tournament_points(table, r.op_a, r.op_b),
                "tp_b": tournament_points(table, r.op_b, r.op_a),
                "op_a": r.op_a,
                "op_b": r.op_b,
                "vp_a": r.vp_a,
                "vp_b": r.vp_b,
            }
        )
    for bye in event_running.byes(event):
        by_round[bye.round].append(
            {
                "table": None,
                "a": names.get(bye.player, ""),
                "b": "",
                "bye": True,
                "tp_a": table["bye_tp"],
                "tp_b": None,
                "op_a": table["bye_op"],
                "op_b": None,
                "vp_a": table["bye_vp"],
                "vp_b": None,
            }
        )
    rounds = sorted({n for n, _t in tables} | set(by_round))
    return [
        {
            "number": n,
            "rows": sorted(by_round[n], key=lambda row: (row["table"] is None, row["table"] or 0)),
        }
        for n in rounds
    ]


def _table_numbers(event: TournamentEvent) -> dict:
    by_key = {p.key: p.pk for p in event.roster.all()}
    found = {}
    for match in Match.objects.filter(event=event).prefetch_related("seats"):
        for seat in match.seats.all():
            if seat.letter == "A":
                pid = by_key.get(event_running.player_key(seat.listed_name))
                found[(match.event_round, pid)] = match.table_number
    return found


def _csv(header: list[str], rows: list[list]) -> str:
    out = io.StringIO()
    writer = csv.writer(out)
    writer.writerow(header)
    for row in rows:
        writer.writerow([exports._csv_cell(value) for value in row])
    return out.getvalue()


def standings_csv(event: TournamentEvent) -> str:
    players = {p.pk: p for p in event.roster.all()}
    return _csv(
        [
            "rank",
            "player",
            "faction",
            "club",
            "tp",
            "op",
            "vp",
            "wins",
            "draws",
            "losses",
            "byes",
            "dropped",
        ],
        [
            [
                s.rank,
                s.name,
                players[s.player].faction,
                players[s.player].club,
                s.tp,
                s.op,
                s.vp,
                s.wins,
                s.draws,
                s.losses,
                s.byes,
                "yes" if s.dropped else "",
            ]
            for s in event_running.standings(event)
        ],
    )


BYE_IN_CSV = "(bye)"


def results_csv(event: TournamentEvent) -> str:
    rows = []
    for round_ in round_tables(event):
        for row in round_["rows"]:
            rows.append(
                [
                    round_["number"],
                    row["table"] or "",
                    row["a"],
                    row["tp_a"],
                    row["op_a"],
                    row["vp_a"],
                    # In no language, as the CSV's headings and its "yes" are:
                    # the tournament manager reads it whatever the page's.
                    BYE_IN_CSV if row.get("bye") else row["b"],
                    row["tp_b"],
                    row["op_b"],
                    row["vp_b"],
                ]
            )
    return _csv(
        ["round", "table", "player_a", "tp_a", "op_a", "vp_a", "player_b", "tp_b", "op_b", "vp_b"],
        rows,
    )
