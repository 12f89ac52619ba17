"""The tap's writes compiled once (tracker/compiled_writes.py, issue 18)
leave what Django's bulk_create and update leave, on SQLite: the match row's
columns (a JSON result, and none), the rows updated, and the events' every
column the hash chain covers. PostgreSQL: tests/scale/test_compiled_writes_postgres.py."""

from __future__ import annotations

import pytest

from tests.compiled_writes_cases import check, findings

pytestmark = pytest.mark.django_db


def test_compiled_writes_leave_what_django_leaves():
    check(findings())
