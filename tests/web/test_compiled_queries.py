"""tracker/compiled_queries.py: a tap's queries, compiled once, give what the
ORM gives for each call's values (issue 18). On PostgreSQL the same queries
run under the served app in tests/scale (every tap, every push)."""

from __future__ import annotations

import threading
from datetime import datetime

import pytest
from django.db import connection, transaction
from django.test.utils import CaptureQueriesContext

from tracker import actions
from tracker.compiled_queries import CompiledQuery, QueryNotCompiled
from tracker.models import Match, MatchEvent, Seat

pytestmark = pytest.mark.django_db(transaction=True)


def fields(obj) -> dict:
    return {f.attname: getattr(obj, f.attname) for f in type(obj)._meta.concrete_fields}


def seats_by_code() -> CompiledQuery:
    return CompiledQuery(
        lambda code: Seat.objects.select_related("match").filter(match__code=code), "code"
    )


def test_a_match_with_its_seats_reads_as_the_orm_reads_it_for_each_call():
    first = actions.create_match(name="Mesa 1")
    second = actions.create_match(name="Mesa 2")
    # Values that go through the backend's converters: JSON and a date-time.
    Match.objects.filter(pk=second.pk).update(result={"winner": "A", "points": [3, 1]})
    query = seats_by_code()
    for match in (first, second, first):  # compiled once, each call its own values
        found = query.models(match.code)
        expected = list(Seat.objects.select_related("match").filter(match__code=match.code))
        assert [fields(s) for s in found] == [fields(s) for s in expected]
        assert [fields(s.match) for s in found] == [fields(s.match) for s in expected]
        assert all(isinstance(s.match.created_at, datetime) for s in found)
    assert query.models(second.code)[0].match.result == {"winner": "A", "points": [3, 1]}
    assert query.models("no-such-code") == []


def test_one_query_a_call_and_rows_as_values_list_gives_them():
    match = actions.create_match(name="Mesa 3")
    seqs = CompiledQuery(
        lambda match_id, kind: (
            MatchEvent.objects.filter(match_id=match_id, kind=kind)
            .order_by("seq")
            .values_list("seq", "kind")
        ),
        -1,
        "kind",
    )
    kind = MatchEvent.objects.filter(match=match).order_by("seq").first().kind
    expected = list(
        MatchEvent.objects.filter(match=match, kind=kind).order_by("seq").values_list("seq", "kind")
    )
    with CaptureQueriesContext(connection) as queries:
        assert seqs.rows(match.pk, kind) == expected
        assert seqs.rows(match.pk, "no such kind") == []
    assert len(queries) == 2


def test_a_locking_read_inside_a_transaction():
    match = actions.create_match(name="Mesa 4")
    locked = CompiledQuery(lambda pk: Match.objects.select_for_update().filter(pk=pk), -1)
    with transaction.atomic():
        [row] = locked.models(match.pk)
    assert fields(row) == fields(Match.objects.get(pk=match.pk))


def test_each_thread_compiles_its_own_and_reads_its_own_values():
    matches = [actions.create_match(name=f"Mesa {n}") for n in range(4)]
    query = seats_by_code()
    got: dict[str, list[str]] = {}

    def read(match):
        got[match.code] = [s.match.name for s in query.models(match.code)]

    threads = [threading.Thread(target=read, args=(m,)) for m in matches]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(10)
    assert got == {m.code: [m.name, m.name] for m in matches}


def test_a_query_whose_parameters_are_not_its_stand_ins_is_not_compiled():
    actions.create_match(name="Mesa 5")
    # The lookup makes "%code%" of the value: the SQL's parameter is no stand-in.
    contains = CompiledQuery(lambda code: Match.objects.filter(code__contains=code), "code")
    with pytest.raises(QueryNotCompiled):
        contains.models("abc")
    # The same stand-in twice cannot say which value goes where.
    twice = CompiledQuery(lambda a, b: Match.objects.filter(code=a, name=b), "x", "x")
    with pytest.raises(QueryNotCompiled):
        twice.models("abc", "def")
