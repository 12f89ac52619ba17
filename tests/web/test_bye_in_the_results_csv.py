"""The results for the tournament manager: the audit page names the bye in
its reader's language, the CSV in none (as its headings and its "yes" are),
so the file reads the same whatever language the organizer's page is in."""

from __future__ import annotations

import pytest
from bs4 import BeautifulSoup

from tests.web.test_swiss_score_distances import round_one_played

pytestmark = pytest.mark.django_db

SHOWN = {"en": "(bye)", "es": "(descanso)"}


@pytest.mark.parametrize("language", ["en", "es"])
def test_the_bye_reads_in_the_pages_language_and_as_bye_in_the_csv(carol, language):
    carol.defaults["HTTP_ACCEPT_LANGUAGE"] = language
    event, _org = round_one_played(
        carol, "Ana, PanOceania\nBea, Yu Jing\nCai, Nomads", [(5, 1, 100, 20)]
    )
    page = carol.get(f"/organizer/events/{event.pk}/audit/").content.decode()
    soup = BeautifulSoup(page, "lxml")
    [csv_link] = soup.select('a[href$="results.csv"]')
    bye_row = soup.select("#results-round-1 tbody tr")[-1]
    assert [td.get_text() for td in bye_row.select("td")][5] == SHOWN[language]

    lines = carol.get(csv_link["href"]).content.decode("utf-8-sig").strip().splitlines()
    assert lines[0] == "round,table,player_a,tp_a,op_a,vp_a,player_b,tp_b,op_b,vp_b"
    bye = lines[-1].split(",")
    assert bye[0:2] == ["1", ""] and bye[6] == "(bye)"
    assert "descanso" not in "\n".join(lines)
