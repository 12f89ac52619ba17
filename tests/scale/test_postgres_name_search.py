"""The organizer's player filter folds accents and case on PostgreSQL too
(translate(lower(...)) there, a registered Python function on SQLite: see
tracker/folding.py). Runs in a scratch database of its own; skipped when
PostgreSQL is unreachable, unless REQUIRE_SCALE is set."""

from __future__ import annotations

import pytest

from tests.scale.servers import shell_on_scratch_postgres

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
    found = shell_on_scratch_postgres(postgres_admin, tmp_path, "tracker_i10phone", SEARCH)
    assert found["Martinez"] == ["Game of Jordi Martínez"]
    assert found["lopez"] == ["Game of Ana López"]
    assert found["íñigo"] == ["Game of ÍÑIGO PÉREZ"]
    assert len(found["zoe unal"]) == 3
    assert found["nobody"] == []
