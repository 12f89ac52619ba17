"""The organizer's player filter folds accents and case on PostgreSQL too
(translate(lower(...)) there, a registered Python function on SQLite: see
tracker/folding.py). Runs in a scratch database of its own; skipped when
PostgreSQL is unreachable, unless REQUIRE_SCALE is set."""

from __future__ import annotations

import json
import os
import secrets

import pytest

from tests.scale.servers import manage

pytestmark = pytest.mark.scale

SEARCH = """
import json
from tracker.models import Match, Seat
from tracker.organizer.forms import MatchFilterForm
from tracker.organizer.views import filtered_matches
for name in ("Jordi Martínez", "Ana López", "ÍÑIGO PÉREZ"):
    m = Match.objects.create(name="Game of " + name)
    Seat.objects.create(match=m, letter="A", name=name)
    Seat.objects.create(match=m, letter="B", listed_name="Zoë Ünal " + name[:3])
found = {}
for typed in ("Martinez", "lopez", "íñigo", "zoe unal", "nobody"):
    form = MatchFilterForm({"player": typed}, events=[])
    found[typed] = sorted(m.name for m in filtered_matches(form))
print(json.dumps(found))
"""


def test_player_filter_is_accent_insensitive_on_postgresql(postgres_admin, tmp_path):
    admin_url, admin = postgres_admin
    name = f"tracker_i10phone_{secrets.token_hex(4)}"
    admin.execute(f'CREATE DATABASE "{name}"')
    base = admin_url.rsplit("/", 1)[0]
    env = {
        "DJANGO_SETTINGS_MODULE": "tracker.settings",
        "DATABASE_URL": f"{base}/{name}",
        "TRACKER_VAR_DIR": str(tmp_path / "var"),
    }
    try:
        env = {**os.environ, **env}
        env.pop("REDIS_URL", None)
        manage(env, "migrate", "--noinput", "-v0")
        out = manage(env, "shell", "-c", SEARCH)
        found = json.loads(out.strip().splitlines()[-1])
    finally:
        admin.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
    assert found["Martinez"] == ["Game of Jordi Martínez"]
    assert found["lopez"] == ["Game of Ana López"]
    assert found["íñigo"] == ["Game of ÍÑIGO PÉREZ"]
    assert len(found["zoe unal"]) == 3
    assert found["nobody"] == []
