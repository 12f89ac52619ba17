"""A roster pasted from a spreadsheet reads a quoted cell without its
quotes, so a cell pasted as "=HYPERLINK(""http://…"",""Ana"")" comes in as
a formula, and its name, faction and club go into the event's standings
CSV, opened in a spreadsheet by the organizer. Each such cell (starting
with =, +, - or @) is written there behind a ', as the match CSV's are."""

from __future__ import annotations

import csv
import io

import pytest

from tests.web.test_event_round_checks import all_lists_in, event_of, publish

pytestmark = pytest.mark.django_db

PASTED = (
    '"=HYPERLINK(""http://evil.example/"",""Ana"")";"+cmd|\' /C calc\'!A0";"@SUM(1+1)"\n'
    '"-2+3";"Yu Jing";"=1+1"\n'
)


def test_attack_formula_cells_pasted_quoted_reach_the_standings_csv_quoted(carol):
    event, org = event_of(carol, PASTED)
    names = [p.name for p in event.roster.all()]
    all_lists_in(org, names)
    publish(org, seed=11)
    response = carol.get(f"/organizer/events/{event.pk}/standings.csv")
    assert response.status_code == 200
    rows = list(csv.reader(io.StringIO(response.content.decode())))
    cells = [cell for row in rows[1:] for cell in row[1:4]]
    assert '\'=HYPERLINK("http://evil.example/","Ana")' in cells
    assert "'+cmd|' /C calc'!A0" in cells and "'@SUM(1+1)" in cells
    assert "'-2+3" in cells and "'=1+1" in cells
    assert not [cell for cell in cells if cell[:1] in ("=", "+", "-", "@")]
