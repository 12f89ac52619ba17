"""`manage.py verify_matches`: recompute every chain and commitment, name each
broken match and seq, exit non-zero. Rows are edited behind the ORM's back
with raw SQL (SQLite has no trigger; tests/scale covers PostgreSQL's)."""

import io
import json

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError
from django.db import connection
from django.test import Client

from tests.web.organizer_table import finished, fresh, playing, rewrite_log
from tracker.management.commands.verify_matches import Command
from tracker.models import Match, MatchEvent, TournamentEvent, row_hash
from tracker.rules.commitments import canonical_json

pytestmark = pytest.mark.django_db


def verify(*args) -> tuple[str, str | None]:
    out = io.StringIO()
    try:
        call_command("verify_matches", *args, stdout=out)
    except CommandError as error:
        return out.getvalue(), str(error)
    return out.getvalue(), None


def raw(sql: str, *params) -> None:
    with connection.cursor() as cursor:
        cursor.execute(sql, params)


def seq_of(match, kind: str) -> int:
    return MatchEvent.objects.filter(match=match, kind=kind).values_list("seq", flat=True)[0]


def test_untouched_matches_verify(alice, bob):
    finished(alice, bob)
    out, error = verify()
    assert error is None
    assert "1 matches verified" in out and "0 broken" in out


def test_a_row_edited_with_raw_sql_is_reported_by_match_and_seq(alice, bob):
    a, _b = finished(alice, bob)
    seq = seq_of(a.match, "SecretsSealed")
    raw(
        "UPDATE tracker_matchevent SET data = replace(data, 'red container', 'blue container') "
        "WHERE match_id = %s AND seq = %s",
        a.match.pk,
        seq,
    )
    out, error = verify()
    assert error is not None and "1 broken" in error
    assert f"BROKEN match {a.match.code}" in out
    assert f"seq {seq}:" in out
    assert f"{a.match.code} (seq {seq})" in error


def test_the_command_exits_non_zero_when_a_match_is_broken(alice, bob):
    a, _b = finished(alice, bob)
    raw("UPDATE tracker_matchevent SET actor = 'B' WHERE match_id = %s AND seq = 2", a.match.pk)
    with pytest.raises(SystemExit) as exit_:
        Command(stdout=io.StringIO(), stderr=io.StringIO()).run_from_argv(
            ["manage.py", "verify_matches"]
        )
    assert exit_.value.code == 1


def test_a_deleted_row_is_named_as_missing(alice, bob):
    a, _b = finished(alice, bob)
    raw("DELETE FROM tracker_matchevent WHERE match_id = %s AND seq = 6", a.match.pk)
    out, error = verify()
    assert error is not None
    assert "seq 6: Events 6 to 6 are missing." in out


def test_a_deleted_tail_is_caught_by_the_match_row(alice, bob):
    a, _b = finished(alice, bob)
    last = fresh(a.match).seq
    raw("DELETE FROM tracker_matchevent WHERE match_id = %s AND seq = %s", a.match.pk, last)
    out, error = verify()
    assert error is not None
    assert (
        f"seq {last}: The match says its log ends at event {last}, but it ends at {last - 1}" in out
    )


def test_a_match_whose_every_row_was_deleted_is_broken(alice, bob):
    """The one-pass reader groups the log by match: a match with no row left
    never comes up in it, so only the match row says its log was lost. A
    command that checked only the matches it read rows of would call it
    verified (two matches: the other one still has its rows)."""
    a, _b = finished(alice, bob)
    kept, _d = playing(Client(), Client())
    last = fresh(a.match).seq
    raw("DELETE FROM tracker_matchevent WHERE match_id = %s", a.match.pk)
    out, error = verify()
    assert error is not None and "2 matches verified" in error and "1 broken" in error
    assert (
        f"BROKEN match {a.match.code} ({a.match.name}): seq 1: "
        f"The match says its log ends at event {last}, but it ends at 0." in out
    )
    assert kept.match.code not in out


def test_a_rehashed_edit_breaks_the_next_link(alice, bob):
    """Someone who edits a row and recomputes its hash is caught at the next row."""
    a, _b = finished(alice, bob)
    row = MatchEvent.objects.get(match=a.match, seq=2)
    prev = MatchEvent.objects.get(match=a.match, seq=1).hash
    data = row.data.replace("Alice", "Mallory")
    forged = row_hash(prev, row, data=data)
    raw(
        "UPDATE tracker_matchevent SET data = %s, hash = %s WHERE id = %s",
        data,
        forged,
        row.pk,
    )
    out, error = verify()
    assert error is not None
    assert "seq 3:" in out and "seq 2:" not in out


def rewrite_from(match, seq: int, data: str) -> None:
    """A forger with database access: replace one row's data and recompute
    every hash after it, and the match row's head. Only the commitments can
    catch this."""
    rewrite_log(match, seq, edit=lambda row: data)


def test_a_swapped_secret_with_a_rebuilt_chain_fails_its_commitment(alice, bob):
    a, _b = finished(alice, bob)
    seq = seq_of(a.match, "SecretsSealed")
    row = MatchEvent.objects.get(match=a.match, seq=seq)
    data = json.loads(row.data)
    for secret in data["secrets"]:
        if secret["kind"] == "holoecho":
            secret["payload"]["real"] = "marker1"
    rewrite_from(a.match, seq, canonical_json(data))
    out, error = verify()
    assert error is not None
    assert f"seq {seq}: Event {seq}: a sealed secret does not match its commitment." in out
    assert "does not match its hash" not in out


def test_event_option_checks_only_that_events_matches(alice, bob, mallory):
    from django.test import Client

    a, _b = finished(alice, bob)
    other, _ = playing(Client(), mallory)
    league = TournamentEvent.objects.create(name="League night")
    Match.objects.filter(pk=other.match.pk).update(event=league)
    raw("UPDATE tracker_matchevent SET actor = 'B' WHERE match_id = %s AND seq = 2", a.match.pk)
    out, error = verify("--event", "League night")
    assert error is None and "1 matches verified" in out
    out, error = verify("--event", str(league.pk))
    assert error is None
    _out, error = verify()
    assert error is not None and a.match.code in error


def test_an_unknown_event_is_a_clear_error(alice, bob):
    _out, error = verify("--event", "Nope")
    assert error == "No event 'Nope' (give its id or its exact name)."


def test_a_receipt_shorter_than_32_digits_is_refused(alice, bob):
    """Issue 22: 12 digits (48 bits) were accepted; a rewritten match can be
    ground to match so short a prefix."""
    a, _b = finished(alice, bob)
    match = fresh(a.match)
    head = match.last_hash
    for short in (head[:12], f"{head[:4]}-{head[4:8]}-{head[8:12]}".upper(), head[:31]):
        out, error = verify(f"--receipt={match.code}:{match.seq}:{short}")
        assert error is not None, short
        digits = len(short.replace("-", ""))
        assert f"This code has {digits} digits: a receipt is checked on at least 32" in error
        assert "ok" not in out
    out, error = verify(f"--receipt={match.code}:{match.seq}:not-a-hash-at-all-not-a-hash-xx")
    assert error is not None and "This is not a receipt code" in error


def test_a_receipt_longer_than_a_hash_is_refused_not_called_broken(alice, bob):
    """A digit typed twice makes 65: no head hash has that many, so the code
    is a typo, not a proof. "BROKEN receipt" would tell the organizer the log
    was rewritten when only the phone's code was mistyped."""
    a, _b = finished(alice, bob)
    match = fresh(a.match)
    out, error = verify(f"--receipt={match.code}:{match.seq}:{match.last_hash}0")
    assert error is not None and "This is not a receipt code" in error
    assert "BROKEN" not in out


def test_a_receipt_of_32_digits_or_the_whole_hash_is_checked(alice, bob):
    from tracker import audit

    a, _b = finished(alice, bob)
    match = fresh(a.match)
    head = match.last_hash
    for code in (audit.receipt_code(head), head[:32], head):
        out, error = verify(f"--receipt={match.code}:{match.seq}:{code}")
        assert error is None, error
        assert f"receipt of match {match.code} at seq {match.seq}: ok" in out
    wrong = ("0" if head[0] != "0" else "1") + head[1:32]
    out, error = verify(f"--receipt={match.code}:{match.seq}:{wrong}")
    assert error is not None and f"BROKEN receipt of match {match.code}" in out
    # The whole hash is compared whole: its first 32 digits agreeing with the
    # log's does not make a whole hash that differs after them "ok".
    tail = head[:63] + ("0" if head[63] != "0" else "1")
    out, error = verify(f"--receipt={match.code}:{match.seq}:{tail}")
    assert error is not None and f"BROKEN receipt of match {match.code}" in out


def test_a_match_code_never_starts_with_a_dash_and_an_old_one_still_verifies(alice, bob):
    """A receipt whose match code began with "-" (1 in 64 before) was read as
    another flag after `--receipt`: new codes never start so, and an old one
    still verifies through `--receipt=CODE:SEQ:HASH`, the form the README gives."""
    from tracker import audit
    from tracker.models import new_code

    assert not any(new_code().startswith("-") for _ in range(5000))
    a, _b = finished(alice, bob)
    Match.objects.filter(pk=a.match.pk).update(code="-" + a.match.code[1:])
    match = fresh(a.match)
    out, error = verify(f"--receipt={match.code}:{match.seq}:{audit.receipt_code(match.last_hash)}")
    assert error is None, error
    assert f"receipt of match {match.code} at seq {match.seq}: ok" in out
