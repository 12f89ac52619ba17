"""On PostgreSQL the database itself refuses UPDATE and DELETE on the event
log (migration 0002's trigger), and a row edited by someone who disabled the
trigger is caught by `manage.py verify_matches` (exit status 1, naming the
match and seq).

Runs against a scratch database created here: TRACKER_TEST_POSTGRES (default
postgresql://postgres@127.0.0.1:5432/postgres) must let us CREATE DATABASE.
Skipped if unreachable, unless REQUIRE_SCALE is set.
"""

from __future__ import annotations

import os
import secrets
import subprocess
import sys
from pathlib import Path
from urllib.parse import urlsplit, urlunsplit

import pytest

from tests.support import skip_or_fail

ROOT = Path(__file__).resolve().parents[2]
DEFAULT_URL = "postgresql://postgres@127.0.0.1:5432/postgres"

pytestmark = pytest.mark.scale


def _with_database(url: str, name: str) -> str:
    parts = urlsplit(url)
    return urlunsplit((parts.scheme, parts.netloc, f"/{name}", parts.query, parts.fragment))


@pytest.fixture
def scratch(tmp_path):
    """(database URL, environment for manage.py) of a fresh, migrated database."""
    try:
        import psycopg
    except ImportError:
        skip_or_fail("psycopg is not installed (pip install -r requirements.txt)", "REQUIRE_SCALE")
    admin_url = os.environ.get("TRACKER_TEST_POSTGRES", DEFAULT_URL)
    try:
        admin = psycopg.connect(admin_url, autocommit=True, connect_timeout=5)
    except psycopg.OperationalError as error:
        skip_or_fail(f"PostgreSQL is not reachable at {admin_url}: {error}", "REQUIRE_SCALE")
    name = f"tracker_test_{secrets.token_hex(6)}"
    admin.execute(f'CREATE DATABASE "{name}"')
    url = _with_database(admin_url, name)
    env = {
        **os.environ,
        "DJANGO_SETTINGS_MODULE": "tracker.settings",
        "DATABASE_URL": url,
        "TRACKER_VAR_DIR": str(tmp_path / "var"),
    }
    env.pop("REDIS_URL", None)
    try:
        manage(env, "migrate", "--noinput", "-v0")
        yield url, env
    finally:
        admin.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
        admin.close()


def manage(env: dict, *args: str, check: bool = True) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "manage.py", *args],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
        check=check,
    )


CREATE_MATCH = """
from tracker import actions
from tracker.rules.setup import ClaimSeat
match = actions.create_match(name="Postgres table", points_limit=300)
actions.perform(match, "A", ClaimSeat(name="Alice"))
actions.perform(match, "B", ClaimSeat(name="Bob"))
print(match.code)
"""


def test_the_trigger_refuses_update_and_delete_and_verify_names_an_edit(scratch):
    import psycopg

    url, env = scratch
    code = manage(env, "shell", "-c", CREATE_MATCH).stdout.strip().splitlines()[-1]
    with psycopg.connect(url, autocommit=True) as db:
        triggers = db.execute(
            "SELECT tgname FROM pg_trigger WHERE tgrelid = 'tracker_matchevent'::regclass"
            " AND NOT tgisinternal"
        ).fetchall()
        assert ("tracker_matchevent_append_only",) in triggers

        with pytest.raises(psycopg.errors.RaiseException, match="append-only.*UPDATE"):
            db.execute("UPDATE tracker_matchevent SET data = '{}' WHERE seq = 2")
        with pytest.raises(psycopg.errors.RaiseException, match="append-only.*DELETE"):
            db.execute("DELETE FROM tracker_matchevent WHERE seq = 3")
        assert db.execute("SELECT count(*) FROM tracker_matchevent").fetchone() == (3,)

        clean = manage(env, "verify_matches", check=False)
        assert clean.returncode == 0, clean.stderr
        assert "1 matches verified" in clean.stdout

        # Someone with the rights to disable the trigger edits a row anyway.
        db.execute("ALTER TABLE tracker_matchevent DISABLE TRIGGER tracker_matchevent_append_only")
        db.execute(
            "UPDATE tracker_matchevent SET data = replace(data, 'Alice', 'Mallory') WHERE seq = 2"
        )
        db.execute("ALTER TABLE tracker_matchevent ENABLE TRIGGER tracker_matchevent_append_only")

    broken = manage(env, "verify_matches", check=False)
    assert broken.returncode == 1
    assert f"BROKEN match {code} (Postgres table): seq 2:" in broken.stdout
    assert f"{code} (seq 2)" in broken.stderr


def test_the_orm_refuses_too_on_postgresql(scratch):
    _url, env = scratch
    manage(env, "shell", "-c", CREATE_MATCH)
    tried = manage(
        env,
        "shell",
        "-c",
        "from tracker.models import MatchEvent\n"
        "for attempt in (lambda: MatchEvent.objects.update(kind='X'),"
        " lambda: MatchEvent.objects.all().delete(),"
        " lambda: MatchEvent.objects.first().save(),"
        " lambda: MatchEvent.objects.first().delete()):\n"
        "    try:\n        attempt()\n        print('ALLOWED')\n"
        "    except PermissionError:\n        print('refused')\n",
    )
    verdicts = [line for line in tried.stdout.split() if line in ("refused", "ALLOWED")]
    assert verdicts == ["refused"] * 4
