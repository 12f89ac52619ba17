"""The event's JSON export carries the standings whole (issue 21): each row's
rank, player, points and its wins, draws, losses and byes, so the README's
offline check can recompute every column, not only the points."""

import json

import pytest
from bs4 import BeautifulSoup

from tests.web.rendered_forms import submit
from tests.web.test_event_round_checks import event_of
from tests.web.test_exports import run_snippet
from tests.web.test_table_without_result import audit_of, round_one_of_two_tables

pytestmark = pytest.mark.django_db

COLUMNS = {"rank", "player", "name", "tp", "op", "vp", "wins", "draws", "losses", "byes"}


def test_the_event_export_standings_count_draws(carol):
    org, tables = round_one_of_two_tables(carol)
    assert org.submit("/clock/call/").status_code == 302
    for match in tables:  # both tables drawn 2-2 by the organizer's ruling
        response = submit(
            carol,
            audit_of(org, match),
            "/settle/",
            objective_a=2,
            objective_b=2,
            army_a=0,
            army_b=0,
            reason="Time called",
        )
        assert response.status_code == 302
    export = json.loads(carol.get(f"/organizer/events/{org.event.pk}/export.json").content)
    standings = export["tournament"]["standings"]
    assert len(standings) == 4
    for row in standings:
        assert set(row) == COLUMNS
        assert (row["wins"], row["draws"], row["losses"], row["byes"]) == (0, 1, 0, 0)
        assert row["op"] == 2


def test_a_drawn_round_not_yet_published_is_not_in_the_export_nor_its_bye(carol, tmp_path):
    """The organizer's draw is a draft until published: the export names no
    round for it and no bye, and the README's offline check, which counts
    every bye the export gives, agrees with the standings."""
    event, org = event_of(carol, "Ana, PanOceania\nBea, Yu Jing\nCarla, Ariadna")
    assert org.submit("/rounds/draw/", seed=3).status_code == 302
    assert "Bye:" in org.text()  # three players: the draw gives one a bye
    page = carol.get(f"/organizer/events/{event.pk}/").content
    [json_link] = BeautifulSoup(page, "lxml").select('a[href$="export.json"]')
    export = json.loads(carol.get(json_link["href"]).content)
    assert export["tournament"]["rounds"] == []
    assert {row["tp"] for row in export["tournament"]["standings"]} == {0}
    checked = run_snippet(tmp_path, export)
    assert checked.returncode == 0, checked.stdout + checked.stderr
    assert checked.stdout.endswith("standings ok\n")
