"""A drawn round before it is published (issue 21), through the run page's
rendered forms and the public page: it is the organizer's draft, so the
public page shows none of it; a player added while it is drawn plays in it
(the round is drawn again, round 1 from the same seed, as the page says);
and the swap offers the bye like any player, so the bye can change hands."""

from __future__ import annotations

import pytest
from bs4 import BeautifulSoup

from tests.web.test_event_page_tables import rounds_shown
from tests.web.test_event_round_checks import drawn_tables, event_of
from tests.web.test_unpublished_bye import bye_of_drawn_round

pytestmark = pytest.mark.django_db

FOUR = "Ana, PanOceania\nBea, Yu Jing\nCai, Nomads\nDan, ALEPH"


def seed_line(org) -> str:
    hint = BeautifulSoup(org.page(), "lxml").select_one("#drawn p.hint")
    return " ".join(hint.get_text(" ").split())


def test_the_public_page_shows_no_pairing_of_a_round_not_yet_published(carol):
    event, org = event_of(carol, FOUR + "\nEva, Tohaa")
    assert org.submit("/rounds/draw/", seed=11).status_code == 302
    drawn, resting = drawn_tables(org), bye_of_drawn_round(org)
    assert len(drawn) == 2 and resting
    page = carol.get(f"/e/{event.pk}/").content.decode()
    assert rounds_shown(page) == ([], [])
    assert not any(line in page for line in drawn)

    response = org.submit("/rounds/publish/", points_limit=300, rounds=3, minutes=90)
    assert response.status_code == 302
    tables, byes = rounds_shown(carol.get(f"/e/{event.pk}/").content.decode())
    assert tables == drawn and byes == [f"Bye: {resting}"]


@pytest.mark.parametrize(
    "lang, seed, again, joins",
    [
        (
            "en",
            "Seed of the draw: 7 (the same seed draws the same pairings).",
            "The roster changed: the drawn round was drawn again.",
            "joins in round",
        ),
        (
            "es",
            "Semilla del sorteo: 7 (la misma semilla da los mismos emparejamientos).",
            "Los inscritos han cambiado: la ronda sorteada se ha sorteado de nuevo.",
            "se une en la ronda",
        ),
    ],
)
def test_a_player_added_while_round_one_is_drawn_plays_in_it_drawn_from_the_same_seed(
    carol, lang, seed, again, joins
):
    _event, org = event_of(carol, "Ana, PanOceania\nBea, Yu Jing\nCai, Nomads")
    carol.defaults["HTTP_ACCEPT_LANGUAGE"] = lang
    assert org.submit("/rounds/draw/", seed=7).status_code == 302
    assert seed_line(org) == seed
    response = org.submit("/roster/", name="Dan", faction="ALEPH", club="")
    assert response.status_code == 302
    text = org.text()
    assert again in text
    assert joins not in text
    assert seed_line(org) == seed
    # Dan plays in round 1: two tables of four players, no bye.
    tables = drawn_tables(org)
    assert len(tables) == 2 and any("Dan" in line for line in tables), tables
    assert BeautifulSoup(org.page(), "lxml").select_one("#drawn p.bye") is None


@pytest.mark.parametrize("lang, bye", [("en", "Bye: "), ("es", "Descansa: ")])
def test_the_swap_offers_the_bye_and_gives_it_to_another_player(carol, lang, bye):
    _event, org = event_of(carol, "Ana, PanOceania\nBea, Yu Jing\nCai, Nomads")
    carol.defaults["HTTP_ACCEPT_LANGUAGE"] = lang
    assert org.submit("/rounds/draw/", seed=5).status_code == 302
    soup = BeautifulSoup(org.page(), "lxml")
    resting = soup.select_one("#drawn p.bye").get_text(strip=True).removeprefix(bye)
    [table] = drawn_tables(org)
    swap = soup.select_one('form[action$="/rounds/swap/"]')
    offered = {o.get_text(strip=True): o["value"] for o in swap.select("select[name=one] option")}
    assert set(offered) == {"Ana", "Bea", "Cai"}
    playing = next(name for name in offered if name != resting and name in table)
    response = org.submit("/rounds/swap/", one=offered[resting], two=offered[playing])
    assert response.status_code == 302
    now_resting = BeautifulSoup(org.page(), "lxml").select_one("#drawn p.bye")
    assert now_resting.get_text(strip=True) == f"{bye}{playing}"
    [table] = drawn_tables(org)
    assert resting in table and playing not in table
