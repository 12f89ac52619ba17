"""A swap on a drawn round can give the bye to the player who had round 1's
(the draw never does, one bye a player): the run page marks it, as it marks
a swap that makes a rematch, in the organizer's language, before the round
is published."""

from __future__ import annotations

import pytest
from bs4 import BeautifulSoup

from tests.web.test_event_running import pairings_of
from tests.web.test_swiss_score_distances import round_one_played

pytestmark = pytest.mark.django_db

MARK = {
    "en": ("Bye: ", "(a second bye: they have had one already)"),
    "es": ("Descansa: ", "(un segundo descanso: ya ha descansado antes)"),
}


@pytest.mark.parametrize("lang", ["en", "es"])
def test_a_swap_that_gives_a_second_bye_is_marked(carol, lang):
    event, org = round_one_played(
        carol, "Ana, PanOceania\nBea, Yu Jing\nCai, Nomads", [(6, 2, 30, 10)]
    )
    carol.defaults["HTTP_ACCEPT_LANGUAGE"] = lang
    names = dict(event.roster.values_list("pk", "name"))
    first_bye = names[event.rounds.get(number=1).bye]
    assert org.submit("/rounds/draw/").status_code == 302
    prefix, mark = MARK[lang]
    soup = BeautifulSoup(org.page(), "lxml")
    resting = soup.select_one("#drawn p.bye").get_text(strip=True).removeprefix(prefix)
    assert resting != first_bye and mark not in soup.get_text()

    swap = soup.select_one('form[action$="/rounds/swap/"]')
    offered = {o.get_text(strip=True): o["value"] for o in swap.select("select[name=one] option")}
    response = org.submit("/rounds/swap/", one=offered[resting], two=offered[first_bye])
    assert response.status_code == 302
    bye = BeautifulSoup(org.page(), "lxml").select_one("#drawn p.bye")
    assert " ".join(bye.get_text(" ").split()) == f"{prefix}{first_bye} {mark}"
    assert len(pairings_of(event, 1)) == 1
