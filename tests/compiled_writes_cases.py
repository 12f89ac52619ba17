"""What tracker/compiled_writes.py must give: the rows Django's own
bulk_create and update write, on whichever database is configured (and
tracker/reading.py's compiled read of the events after a seq, what the
ORM reads).
Run by tests/web/test_compiled_writes.py (SQLite, in the test's database)
and tests/scale/test_compiled_writes_postgres.py (a scratch PostgreSQL, in a
process of its own that prints the findings).
"""

from __future__ import annotations

import json
from datetime import UTC, datetime

from tracker import actions, reading
from tracker.models import CHAIN_COLUMNS, Match, MatchEvent

COLUMNS = ("seq", "last_hash", "status", "result")
RESULTS = (
    None,
    {"winner": "A", "points": [7, 3], "note": "Retreat! \u00a1fin!"},
    {"winner": None, "points": [0, 0]},
)


def _events(match: Match, seqs: tuple[int, ...]) -> list[MatchEvent]:
    when = datetime(2026, 12, 5, 1, 2, 3, 456789, tzinfo=UTC)
    return [
        MatchEvent(
            match=match,
            seq=seq,
            kind="TrooperStateSet",
            data=json.dumps({"trooper": seq, "prone": True, "name": "Fusilero \u00f1"}),
            private_to="B" if seq % 2 else "",
            actor="A",
            action_id=f"tap-{seq}",
            created_at=when,
            hash=f"{seq:064x}",
        )
        for seq in seqs
    ]


def _stored_events(match: Match) -> list[tuple]:
    return list(
        MatchEvent.objects.filter(match=match, seq__gt=100)
        .order_by("seq")
        .values_list(*CHAIN_COLUMNS, "hash")
    )


def findings() -> dict:
    """Each write made both ways on two fresh matches, and what each left."""
    compiled = actions.create_match(name="Compiled", points_limit=300)
    django = actions.create_match(name="Django", points_limit=300)
    found = {"updates": [], "rowcounts": []}
    for n, result in enumerate(RESULTS):
        values = {
            "seq": 200 + n,
            "last_hash": f"{n:064x}",
            "status": (Match.Status.FINISHED, Match.Status.DISPUTED, "in_progress")[n],
            "result": result,
        }
        found["rowcounts"].append(actions._UPDATE_MATCH.run(compiled.pk, values))
        Match.objects.filter(pk=django.pk).update(**values)
        rows = {
            m.pk: [getattr(m, c) for c in COLUMNS]
            for m in Match.objects.filter(pk__in=[compiled.pk, django.pk])
        }
        found["updates"].append([rows[compiled.pk], rows[django.pk], list(values.values())])
    found["missing_rowcount"] = actions._UPDATE_MATCH.run(-12345, values)
    made = _events(compiled, (101, 102, 103))
    actions._INSERT_EVENTS.run(made)
    found["adding_after"] = [row._state.adding for row in made]
    actions._INSERT_EVENTS.run([])
    MatchEvent.objects.bulk_create(_events(django, (101, 102, 103)))
    found["events"] = [_stored_events(compiled), _stored_events(django)]
    # And the read of the events after a seq (tracker/reading.py), whose
    # seqs PostgreSQL's backend wraps as Int4: compiled, as the ORM reads it.
    found["after"] = [
        reading._EVENTS_AFTER.rows(compiled.pk, 101, 103),
        list(
            MatchEvent.objects.filter(match=compiled, seq__gt=101, seq__lte=103)
            .order_by("seq")
            .values_list("seq", "kind", "data", "created_at")
        ),
    ]
    return json.loads(json.dumps(found, default=str))


def check(found: dict) -> None:
    for compiled, django, written in found["updates"]:
        assert compiled == django == written
    assert found["rowcounts"] == [1, 1, 1]
    assert found["missing_rowcount"] == 0
    assert found["adding_after"] == [False, False, False]
    compiled, django = found["events"]
    assert len(compiled) == 3 and compiled == django
    compiled, django = found["after"]
    assert [row[0] for row in compiled] == [102, 103] and compiled == django
