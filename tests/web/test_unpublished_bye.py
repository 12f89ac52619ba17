"""A bye scores (4 TP, 5 OP by the default table) once its round is
published, as the round's tables count once played (issue 21): a drawn
round the organizer has not published yet may still be redrawn or swapped,
and its bye is nobody's yet. The standings on the public page and the run
page count no bye of an unpublished round."""

from __future__ import annotations

import pytest
from bs4 import BeautifulSoup

from tests.web.test_event_round_checks import event_of
from tests.web.test_event_running import standings_shown

pytestmark = pytest.mark.django_db


def bye_of_drawn_round(org) -> str:
    """The player the drawn round gives its bye, as the run page shows it."""
    bye = BeautifulSoup(org.page(), "lxml").select_one("#drawn p.bye")
    return bye.get_text(strip=True).removeprefix("Bye: ")


def test_a_drawn_unpublished_rounds_bye_scores_nothing_until_it_is_published(carol):
    event, org = event_of(carol, "Ana, PanOceania\nBea, Yu Jing\nCai, Nomads")
    assert org.submit("/rounds/draw/", seed=5).status_code == 302
    bye = bye_of_drawn_round(org)

    for page in (carol.get(f"/e/{event.pk}/").content.decode(), org.page()):
        assert set(standings_shown(page).values()) == {(0, 0, 0)}

    response = org.submit("/rounds/publish/", points_limit=300, rounds=3, minutes=90)
    assert response.status_code == 302
    assert standings_shown(carol.get(f"/e/{event.pk}/").content.decode())[bye] == (4, 5, 0)
