"""Every hashed column of every kind of row, edited with raw SQL behind the
ORM's back (SQLite has no trigger; tests/scale covers PostgreSQL's), is named
by its seq: `manage.py verify_matches` and the audit's verify_match.

Columns: seq, kind, data, private_to, actor, action_id, created_at and the
hash itself. Rows: a sealing event (SecretsSealed), a reveal (SecretRevealed,
Alice revealing her Lieutenant), a private event (HiddenTroopersEnlisted, seen
by seat A only) and a public one (ArmyListLocked). Then verifier bugs are
planted (skipping the hash of reveal rows; a chain hash that leaves one column
out, in the writer and the verifier alike) to show this matrix reports them.
"""

from __future__ import annotations

import datetime as dt
import io
import json

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError
from django.db import connection, transaction

from tests.web.organizer_table import fresh, playing
from tests.web.table import error_of
from tracker import audit, models
from tracker.models import MatchEvent
from tracker.reading import load_state

pytestmark = pytest.mark.django_db

ROWS = {
    "sealing": "SecretsSealed",
    "reveal": "SecretRevealed",
    "private": "HiddenTroopersEnlisted",
    "public": "ArmyListLocked",
}
COLUMNS = ("seq", "kind", "data", "private_to", "actor", "action_id", "created_at", "hash")


def match_with_every_kind_of_row(alice, bob):
    a, _b = playing(alice, bob)
    state = load_state(fresh(a.match))
    lieutenant = next(s for s in state.secrets.values() if s.seat == "A" and s.kind == "lieutenant")
    assert error_of(a.submit("RevealSecret", secret_id=lieutenant.id)) is None
    match = fresh(a.match)
    for kind in ROWS.values():
        assert MatchEvent.objects.filter(match=match, kind=kind).exists(), kind
    private = MatchEvent.objects.filter(match=match, kind=ROWS["private"]).first()
    assert private.private_to == "A"  # a private row indeed
    return match


def edited_value(row: MatchEvent, column: str):
    """A plausible edit: still a valid row, only not the one that was hashed."""
    if column == "seq":
        return row.seq + 1000
    if column == "kind":
        return "SecretsSealed" if row.kind != "SecretsSealed" else "ArmyListLocked"
    if column == "data":
        data = json.loads(row.data)
        data["edited"] = 1  # still canonical JSON of a dict
        return json.dumps(data, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
    if column == "private_to":
        return "B" if row.private_to != "B" else ""
    if column == "actor":
        return "B" if row.actor != "B" else "A"
    if column == "action_id":
        return row.action_id + "x"
    if column == "created_at":
        moved = row.created_at + dt.timedelta(microseconds=1)
        return connection.ops.adapt_datetimefield_value(moved)
    if column == "hash":
        return ("f" if row.hash[0] != "f" else "e") + row.hash[1:]
    raise AssertionError(column)


def raw_update(row: MatchEvent, column: str, value) -> None:
    assert column in COLUMNS  # a fixed list of column names, never input
    sql = f"UPDATE tracker_matchevent SET {column} = %s WHERE id = %s"  # noqa: S608
    with connection.cursor() as cursor:
        cursor.execute(sql, [value, row.pk])


def verify_command() -> str:
    out = io.StringIO()
    try:
        call_command("verify_matches", stdout=out)
    except CommandError as error:
        return out.getvalue() + "\n" + str(error)
    return out.getvalue()


class Rollback(Exception):
    pass


def default_verify(match) -> tuple[int | None, str]:
    """(first seq the audit names, the command's report) for the stored rows."""
    rows = MatchEvent.objects.filter(match=match).order_by("seq")
    check = audit.verify_match(fresh(match), rows)
    return check.first_broken_seq, verify_command()


def misses(match, verify=default_verify) -> list[str]:
    """Each (row, column) edit whose seq the verifier fails to name. Every
    edit is rolled back before the next."""
    found = []
    for label, kind in ROWS.items():
        row = MatchEvent.objects.filter(match=match, kind=kind).order_by("seq").first()
        for column in COLUMNS:
            try:
                with transaction.atomic():
                    raw_update(row, column, edited_value(row, column))
                    first, report = verify(match)
                    raise Rollback
            except Rollback:
                pass
            if first != row.seq or f"seq {row.seq}:" not in report:
                found.append(f"{column} of the {label} row (seq {row.seq}): named {first}")
    return found


def test_every_hashed_column_of_every_kind_of_row_is_named_by_its_seq(alice, bob):
    match = match_with_every_kind_of_row(alice, bob)
    first, report = default_verify(match)
    assert first is None and "0 broken" in report  # untouched, it verifies
    assert misses(match) == []
    assert default_verify(match)[0] is None  # every edit was rolled back


# ----------------------------------------------------- planted verifier bugs


def verify_skipping_reveal_hashes(match) -> tuple[int | None, str]:
    """A verifier bug: hash mismatches on SecretRevealed rows are not reported."""
    rows = list(MatchEvent.objects.filter(match=match).order_by("seq"))
    kinds = {row.seq: row.kind for row in rows}
    check = audit.verify_match(fresh(match), rows)
    kept = [
        p for p in check.problems if not (p.code == "hash" and kinds.get(p.seq) == "SecretRevealed")
    ]
    seqs = [p.seq for p in kept if p.seq is not None]
    report = "\n".join(f"seq {p.seq}: {p.text}" for p in kept)
    return (min(seqs) if seqs else None), report


def test_a_verifier_that_skips_the_hash_of_reveal_rows_is_caught(alice, bob):
    match = match_with_every_kind_of_row(alice, bob)
    missed = misses(match, verify_skipping_reveal_hashes)
    assert missed, "the planted verifier bug went unnoticed"
    assert all("reveal row" in m for m in missed), missed
    # Its data edit is still caught by the commitment check, an edited kind
    # no longer looks like a reveal to this verifier, and an edited hash
    # breaks the next link (or the match's last hash); these columns of the
    # reveal row are covered by its own hash alone.
    for column in ("private_to", "actor", "action_id", "created_at"):
        assert any(m.startswith(f"{column} of the reveal row") for m in missed), column


@pytest.mark.parametrize(
    "left_out", ["kind", "data", "private_to", "actor", "action_id", "created_at"]
)
def test_a_chain_hash_that_leaves_a_column_out_is_caught(left_out, alice, bob, monkeypatch):
    """The writer and the verifier share the bug (as they share chain_hash),
    so every stored hash agrees with it; only an edit of that column shows it."""
    real = models.chain_hash

    def planted(prev_hash, **columns):
        columns[left_out] = {"created_at": dt.datetime(2000, 1, 1, tzinfo=dt.UTC)}.get(left_out, "")
        return real(prev_hash, **columns)

    # The writer and the verifier both reach it through models.row_hash.
    monkeypatch.setattr(models, "chain_hash", planted)
    match = match_with_every_kind_of_row(alice, bob)
    assert default_verify(match)[0] is None  # the bug is invisible on an untouched log
    missed = misses(match)
    assert any(m.startswith(f"{left_out} of the") for m in missed), (left_out, missed)
