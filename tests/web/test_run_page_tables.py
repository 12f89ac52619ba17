"""The run page lists each published round's tables with their results.

An organizer runs the night from the run page (issue 21): the clock, the
draw, the standings. Which tables of the round were still playing, which
had a result proposed but not confirmed, which were disputed, was only on
the event page, another tab away. Each published round now lists its
tables under its clock, as the event page does (the same rows): the
players, seat A first, linked to the match's audit, and the result with its
status. The page's poll swaps them in as results come in. Nothing sealed
(a Lieutenant, a seat link) is on the page."""

from __future__ import annotations

import pytest
from bs4 import BeautifulSoup

from tests.web.test_event_round_checks import all_lists_in, event_of, publish
from tests.web.test_event_running import ok, pairings_of, play_table, seat_phone
from tracker.models import Match

pytestmark = pytest.mark.django_db

PLAYERS = "Ana, PanOceania\nBea, Yu Jing\nCai, Nomads\nDan, ALEPH\nEva, Tohaa\nFer, Ariadna"
WORDS = {
    "en": {
        "confirmed": "confirmed",
        "proposed": "(not confirmed)",
        "disputed": "disputed",
        "none": "no result yet",
    },
    "es": {
        "confirmed": "confirmado",
        "proposed": "(sin confirmar)",
        "disputed": "en disputa",
        "none": "aún sin resultado",
    },
}


def tables_shown(html: str, number: int) -> list[dict]:
    """Round `number`'s tables: each row's cells and its link."""
    soup = BeautifulSoup(html, "lxml")
    rows = []
    for row in soup.select(f"#tables-{number} tbody tr"):
        cells = [" ".join(td.get_text(" ").split()) for td in row.select("td")]
        link = row.select_one("a")
        rows.append({"cells": cells, "href": link["href"] if link else None})
    return rows


def expected(table: int, match: Match, a: str, b: str, result: str) -> dict:
    return {
        "cells": [str(table), f"{a} – {b}", result],
        "href": f"/organizer/matches/{match.code}/",
    }


@pytest.mark.parametrize("lang", ["en", "es"])
def test_each_published_round_lists_its_tables_with_their_results(carol, lang):
    words = WORDS[lang]
    event, org = event_of(carol, PLAYERS)
    all_lists_in(org, ["Ana", "Bea", "Cai", "Dan", "Eva", "Fer"])
    publish(org, seed=5)
    round_1 = pairings_of(event, 1)
    for table, match, a, _b in round_1:
        play_table(carol, match, a, (table, 0, 20, 10))
    publish(org)
    round_2 = pairings_of(event, 2)
    (t1, m1, a1, b1), (t2, m2, a2, b2), (t3, m3, a3, b3) = round_2
    _a_phone, b_phone = play_table(carol, m1, a1, (3, 1, 24, 16), answer=False)
    play_table(carol, m2, a2, (2, 2, 18, 18), dispute=True)
    # Table 3 takes its seats and no more.
    seat_phone(carol, m3, "A"), seat_phone(carol, m3, "B")

    carol.cookies["django_language"] = lang
    page = org.page()
    soup = BeautifulSoup(page, "lxml")
    assert soup.select_one("#round-1 #tables-1") and soup.select_one("#round-2 #tables-2")
    # Army points alive are the standings' VP here too (not "AP").
    op, ap = ("OP", "VP") if lang == "en" else ("PO", "PV")
    assert tables_shown(page, 1) == [
        expected(t, m, a, b, f"{t}–0 {op} · 20–10 {ap} {words['confirmed']}")
        for t, m, a, b in round_1
    ]
    assert tables_shown(page, 2) == [
        expected(t1, m1, a1, b1, f"3–1 {op} · 24–16 {ap} {words['proposed']}"),
        expected(t2, m2, a2, b2, f"2–2 {op} · 18–18 {ap} {words['disputed']}"),
        expected(t3, m3, a3, b3, words["none"]),
    ]
    # Each table's link opens its audit.
    audit = carol.get(tables_shown(page, 2)[1]["href"])
    assert audit.status_code == 200 and "I held the console" in audit.content.decode()

    # Nothing sealed: no seat link, no host link, no Lieutenant.
    for match in Match.objects.filter(event=event):
        assert match.host_token not in page
        for seat in match.seats.all():
            assert seat.token not in page
    assert "Fusilier" not in page

    # Table 1 confirms; the page's poll brings the new status without a reload.
    live = soup.select_one("#run-live")
    assert "#tables-2" in live["hx-select-oob"].split(",")
    ok(b_phone, "ConfirmResult")
    polled = carol.get(live["hx-get"]).content.decode()
    assert tables_shown(polled, 2)[0] == expected(
        t1, m1, a1, b1, f"3–1 {op} · 24–16 {ap} {words['confirmed']}"
    )
