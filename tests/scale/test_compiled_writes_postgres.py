"""The tap's writes compiled once (tracker/compiled_writes.py, issue 18)
leave what Django's bulk_create and update leave on PostgreSQL too, where a
JSON value goes through psycopg's Jsonb adapter and a datetime is stored with
its zone: run in a process of its own on a scratch database (the cases:
tests/compiled_writes_cases.py)."""

from __future__ import annotations

import json

import pytest

from tests.compiled_writes_cases import check
from tests.scale.test_postgres_append_only import manage, scratch  # noqa: F401 (fixture)

pytestmark = pytest.mark.scale

FINDINGS = """
import json
from tests.compiled_writes_cases import findings
print(json.dumps(findings()))
"""


def test_compiled_writes_leave_what_django_leaves_on_postgres(scratch):  # noqa: F811
    _url, env = scratch
    done = manage(env, "shell", "-c", FINDINGS, check=False)
    assert done.returncode == 0, done.stderr[-3000:]
    check(json.loads(done.stdout.strip().splitlines()[-1]))
