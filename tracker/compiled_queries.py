"""The few queries every tap makes, compiled to SQL once instead of at every
call (issue 18).

A tap reads the match with its seats, locks the match row and looks for a
repeat of its action id, and each push reads the seats again. Django builds
and compiles a query's SQL anew each time it runs it: for these small
queries that was most of their cost (0.54 ms for the match with its seats,
of which the database's own work and the rows' models are about 0.15 ms on
SQLite; bench/micro-style timing, this machine), over a millisecond a tap in
all.

Each query is still written with the ORM, once, with stand-in values. Its
SQL and Django's compiler for it are kept per thread and database (a
compiler holds its thread's connection), and each call runs that SQL with
the call's values, reading the rows as Django's own iterables do: the
backend's converters, the models, the related model select_related
brought. The stand-ins must come back from the compiler as the query's
parameters, each once (in whatever order the SQL has them), or the query
is not compiled (QueryNotCompiled):
what it runs is always the ORM's own SQL for the call's values. The
stand-ins must differ from each other.

Why ours: Django keeps no compiled queries (a prepared-statement cache is a
database feature, not the ORM's compile), and no maintained library does
this for Django 5.2.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Iterable
from typing import Any, TypeVar

from django.db import connections
from django.db.models import QuerySet
from django.db.models.query import get_related_populators

T = TypeVar("T")


class QueryNotCompiled(Exception):
    """The query's parameters are not the stand-ins it was built with."""


def per_thread(local: threading.local, using: str, compile_: Callable[[], T]) -> T:
    """`compile_()` once per thread and database, kept in `local`: a
    compiler holds its thread's connection (compiled_writes.py too)."""
    kept = getattr(local, using, None)
    if kept is None:
        kept = compile_()
        setattr(local, using, kept)
    return kept


class CompiledQuery:
    """`build(*values)` returns the QuerySet for those values; `models(*v)`
    and `rows(*v)` run its SQL compiled once, with the values `v`."""

    def __init__(self, build: Callable[..., QuerySet], *stand_ins: Any):
        self._build = build
        self._stand_ins = stand_ins
        self._local = threading.local()

    def _compiled(self, using: str):
        return per_thread(self._local, using, lambda: self._compile(using))

    def _compile(self, using: str):
        compiler = self._build(*self._stand_ins).query.get_compiler(using=using)
        sql, params = compiler.as_sql()
        # What results_iter works out again at every call: the columns'
        # converters (a tenth of these queries' Python, issue 18) and
        # whether any column is a composite one.
        fields = [s[0] for s in compiler.select[0 : compiler.col_count]]
        reading = (compiler.get_converters(fields), compiler.has_composite_fields(fields), fields)
        return sql, compiler, self._order(tuple(params)), _layout(compiler, using), reading

    def _order(self, params: tuple) -> tuple[tuple[int, type | None], ...]:
        """Where each of the SQL's parameters is among the call's values (the
        compiler may put the WHERE's terms in another order than build's),
        and the type the backend wrapped it in, if any: on PostgreSQL an
        integer field's lookup value becomes psycopg's Int4, a subclass of
        int, and each call's value is wrapped alike."""
        order = []
        for param in params:
            found = [
                n
                for n, stand_in in enumerate(self._stand_ins)
                if isinstance(param, type(stand_in)) and stand_in == param
            ]
            if len(found) != 1:
                raise QueryNotCompiled(f"{params!r} are not {self._stand_ins!r} in some order")
            wrapped = type(param) is not type(self._stand_ins[found[0]])
            order.append((found[0], type(param) if wrapped else None))
        if sorted(n for n, _wrap in order) != list(range(len(self._stand_ins))):
            raise QueryNotCompiled(f"{params!r} are not {self._stand_ins!r} in some order")
        return tuple(order)

    def _fetch(self, using: str, values: tuple) -> tuple[Iterable, tuple | None]:
        """The rows of the SQL for `values`, as SQLCompiler.results_iter
        gives them (converted), and the query's layout."""
        sql, compiler, order, layout, (converters, composite, fields) = self._compiled(using)
        params = [values[n] if wrap is None else wrap(values[n]) for n, wrap in order]
        with connections[using].cursor() as cursor:
            cursor.execute(sql, params)
            rows: Iterable = cursor.fetchall()
        if converters:
            rows = compiler.apply_converters(rows, converters)
        if composite:
            rows = compiler.composite_fields_to_tuples(rows, fields)
        return rows, layout

    def rows(self, *values: Any, using: str = "default") -> list[tuple]:
        """The rows as the database's converters give them (values_list)."""
        rows, _layout = self._fetch(using, values)
        return list(rows)

    def models(self, *values: Any, using: str = "default") -> list:
        """The model instances, as iterating the QuerySet gives them (its
        select_related models included)."""
        rows, layout = self._fetch(using, values)
        model_cls, start, end, init_list, populators = layout
        found = []
        for row in rows:
            obj = model_cls.from_db(using, init_list, row[start:end])
            for populator in populators:
                populator.populate(row, obj)
            found.append(obj)
        return found


def _layout(compiler, using: str) -> tuple | None:
    """Where a row's model and its related models are (as ModelIterable
    reads them); None for a query of values."""
    klass_info = compiler.klass_info
    if klass_info is None:
        return None
    fields = klass_info["select_fields"]
    start, end = fields[0], fields[-1] + 1
    init_list = [column[0].target.attname for column in compiler.select[start:end]]
    populators = get_related_populators(klass_info, compiler.select, using)
    return klass_info["model"], start, end, init_list, populators
