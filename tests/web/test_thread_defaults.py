"""How many HTTP threads a process runs, by database (issue 18, the twenty-second
round of docs/benchmarks-notes.md): 16 on PostgreSQL, where a tap waits on
the database and Redis and two processes with 8 threads shed taps while
their threads sat without work; 8 on SQLite, where a tap waits on nothing
outside the process.
The queues' budgets are counted in requests, whatever the thread count."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]

READ = (
    "import json; from django.conf import settings as s; "
    "pool = s.DATABASES['default'].get('OPTIONS', {}).get('pool', {}); "
    "print(json.dumps([s.HTTP_THREADS, s.HTTP_QUEUE, s.HTTP_PAGE_THREADS, "
    "s.HTTP_PAGE_QUEUE, pool.get('max_size')]))"
)


def settings_under(**env: str) -> list:
    """The settings as a fresh process reads them from `env` (the module
    reads the environment once, at import)."""
    base = {k: v for k, v in os.environ.items() if not k.startswith(("HTTP_", "DB_POOL"))}
    base.pop("DATABASE_URL", None)
    base.update(DJANGO_SETTINGS_MODULE="tracker.settings", **env)
    out = subprocess.run(
        [sys.executable, "-c", READ], cwd=ROOT, env=base, capture_output=True, text=True, check=True
    )
    return json.loads(out.stdout)


@pytest.mark.parametrize("scheme", ["postgres", "postgresql"])
def test_postgresql_runs_sixteen_threads_each_with_a_connection(scheme):
    threads, queue, page_threads, page_queue, pool = settings_under(
        DATABASE_URL=f"{scheme}://127.0.0.1:5432/tracker"
    )
    assert threads == 16
    # One connection for each HTTP thread, the sockets' 2 + 2 and Channels' own.
    assert pool == 16 + 2 + 2 + 1
    # The budgets stay what a 50-table event on one process needs.
    assert (queue, page_threads, page_queue) == (64, 4, 256)


def test_sqlite_runs_eight_threads():
    assert settings_under() == [8, 64, 4, 256, None]


def test_the_environment_still_decides():
    threads, queue, page_threads, _, pool = settings_under(
        DATABASE_URL="postgresql://127.0.0.1:5432/tracker", HTTP_THREADS="6", HTTP_QUEUE="10"
    )
    assert (threads, queue, page_threads, pool) == (6, 10, 3, 11)
