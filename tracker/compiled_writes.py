"""The two writes of every tap, compiled to SQL once (issue 18): the new
events' INSERT and the match row's UPDATE, as compiled_queries.py does for
the reads.

Django builds and compiles an INSERT's and an UPDATE's SQL anew at each
call; for one small row that was most of their cost: about 0.8 ms of a tap
under cProfile (bench/profile_action.py), against a few hundredths for the
SQL the database runs.

Each is still written with the ORM, once, with stand-in values: Django's
own compiler makes its SQL, per thread and database (a compiler holds its
thread's connection). Each call runs that SQL with the call's values,
prepared as the compiler prepares them (the field's get_db_prep_save: a
datetime as the backend stores it, a JSON value as its adapter), so what
runs is what the ORM would run. The stand-ins' own preparation must be the
compiler's parameters, in its order (checked when compiling: QueryNotCompiled
otherwise). A value the compiler would write as a literal NULL is passed
as a NULL parameter instead, the same write.

What is left out, as the write path needs none of it: the INSERT sets no
primary key on the rows (bulk_create's RETURNING), and neither write sends
signals (bulk_create and update send none either).

Why ours: as compiled_queries.py; Django keeps no compiled statements.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Iterable
from typing import Any

from django.db import connections
from django.db.models import Model
from django.db.models.sql import InsertQuery, UpdateQuery

from tracker.compiled_queries import QueryNotCompiled, per_thread


def _check(params: Iterable, prepared: Iterable) -> None:
    # Compared as written out: a JSON value's adapter (psycopg's Jsonb) has
    # no equality of its own.
    if [repr(p) for p in params] != [repr(p) for p in prepared]:
        raise QueryNotCompiled(f"{tuple(params)!r} are not {tuple(prepared)!r}")


class CompiledUpdate:
    """`model.objects.filter(pk=pk).update(**values)` for the columns named
    by `stand_ins` (none of them None)."""

    def __init__(self, model: type[Model], **stand_ins: Any):
        self._model = model
        self._stand_ins = stand_ins
        self._local = threading.local()

    def _compiled(self, using: str) -> tuple[str, list]:
        return per_thread(self._local, using, lambda: self._compile(using))

    def _compile(self, using: str) -> tuple[str, list]:
        # As QuerySet.update builds it.
        query = self._model._base_manager.filter(pk=-1).query.chain(UpdateQuery)
        query.add_update_values(self._stand_ins)
        sql, params = query.get_compiler(using=using).as_sql()
        fields = [field for field, _model, _value in query.values]
        connection = connections[using]
        _check(
            params,
            [f.get_db_prep_save(self._stand_ins[f.name], connection) for f in fields] + [-1],
        )
        return sql, fields

    def run(self, pk: Any, values: dict[str, Any], using: str = "default") -> int:
        """Update the row `pk` with `values` (every column of the stand-ins);
        the number of rows updated."""
        sql, fields = self._compiled(using)
        connection = connections[using]
        params = [field.get_db_prep_save(values[field.name], connection) for field in fields]
        with connection.cursor() as cursor:
            cursor.execute(sql, [*params, pk])
            return cursor.rowcount


class CompiledInsert:
    """`model.objects.bulk_create(rows)` for rows without a primary key;
    `stand_in()` makes one such row to compile with."""

    def __init__(self, stand_in: Callable[[], Model]):
        self._stand_in = stand_in
        self._local = threading.local()

    def _compiled(self, using: str) -> tuple[str, list]:
        return per_thread(self._local, using, lambda: self._compile(using))

    def _compile(self, using: str) -> tuple[str, list]:
        row = self._stand_in()
        fields = [
            field
            for field in type(row)._meta.concrete_fields
            if not field.generated and not field.primary_key
        ]
        query = InsertQuery(type(row))
        query.insert_values(fields, [row])
        [(sql, params)] = query.get_compiler(using=using).as_sql()
        _check(params, self._params(row, fields, connections[using]))
        return sql, fields

    @staticmethod
    def _params(row: Model, fields: list, connection) -> list:
        return [field.get_db_prep_save(field.pre_save(row, True), connection) for field in fields]

    def run(self, rows: list[Model], using: str = "default") -> None:
        if not rows:
            return
        sql, fields = self._compiled(using)
        connection = connections[using]
        with connection.cursor() as cursor:
            cursor.executemany(sql, [self._params(row, fields, connection) for row in rows])
        for row in rows:
            row._state.adding = False
            row._state.db = using
