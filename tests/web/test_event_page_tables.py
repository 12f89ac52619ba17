"""The event's public page (issue 21) shows each published round as it is
played: every table with its seat A player first, as the match itself
seats them, and the round's bye by name."""

from __future__ import annotations

import pytest
from bs4 import BeautifulSoup

from tests.web.test_event_round_checks import event_of, publish
from tests.web.test_event_running import pairings_of

pytestmark = pytest.mark.django_db

PLAYERS = "Ana, PanOceania\nBea, Yu Jing\nCai, Nomads\nDan, ALEPH\nEva, Tohaa"


def rounds_shown(html: str) -> tuple[list[str], list[str]]:
    soup = BeautifulSoup(html, "lxml")
    tables = [" ".join(li.get_text(" ").split()) for li in soup.select("ol.pairs li")]
    byes = [p.get_text(" ", strip=True) for p in soup.select("p.bye")]
    return tables, byes


def test_the_public_page_shows_each_table_as_seated_and_the_bye_by_name(carol):
    event, org = event_of(carol, PLAYERS)
    publish(org, seed=11)
    tables = pairings_of(event, 1)
    assert len(tables) == 2
    names = dict(event.roster.values_list("pk", "name"))
    bye = names[event.rounds.get(number=1).bye]
    assert bye not in {name for _t, _m, a, b in tables for name in (a, b)}

    shown, byes = rounds_shown(carol.get(f"/e/{event.pk}/").content.decode())
    assert shown == [f"Table {table}: {a} – {b}" for table, _match, a, b in tables]
    assert byes == [f"Bye: {bye}"]
    # Each match seats the round's drawn pair in its order: A first.
    drawn = event.rounds.get(number=1).pairs
    assert [(names[a], names[b]) for a, b in drawn] == [(a, b) for _t, _m, a, b in tables]


def test_the_standings_show_each_players_faction_not_their_club(carol):
    event, org = event_of(
        carol, "Ana, PanOceania, Club Norte\nBea, Yu Jing, Club Sur\nCai, Nomads", name="Liga"
    )
    factions = {"Ana": "PanOceania", "Bea": "Yu Jing", "Cai": "Nomads"}
    for page in (carol.get(f"/e/{event.pk}/").content.decode(), org.page()):
        soup = BeautifulSoup(page, "lxml")
        rows = soup.select("#standings tr.standing")
        shown = {row.select_one(".name").get_text(strip=True): row for row in rows}
        assert shown.keys() == factions.keys()
        for name, row in shown.items():
            cells = [td.get_text(strip=True) for td in row.select("td")]
            assert cells[2] == factions[name], cells
            assert not {"Club Norte", "Club Sur"} & set(cells)
