"""An event whose round 1 the organizer pasted (pairings made elsewhere,
typed with their round number) goes on with the tracker's Swiss draw: the
draw is of round 2, not of round 1 again (whose publishing was refused, as
round 1 had its tables, and no later round could be drawn), and it keeps
the pasted round's players from meeting again. Through the pages' rendered
forms, the tables played to a result on the players' phones."""

from __future__ import annotations

import pytest

from tests.web.test_event_round_checks import event_of, publish
from tests.web.test_event_running import pairings_of
from tests.web.test_guest_table import played_to_a_result
from tests.web.test_round_refusals import paste_round_one
from tracker.models import Match

pytestmark = pytest.mark.django_db

ROSTER = "Ana Arroyo, PanOceania\nBea Blanco, Yu Jing\nCai Cruz, Nomads\nDan Díaz, ALEPH"


@pytest.mark.parametrize("language", ["en", "es"])
def test_the_draw_after_a_pasted_round_one_is_round_two_without_rematches(carol, language):
    carol.defaults["HTTP_ACCEPT_LANGUAGE"] = language
    event, org = event_of(carol, ROSTER)
    paste_round_one(carol, org, "1, Ana Arroyo, Bea Blanco\n2, Cai Cruz, Dan Díaz")
    # Both tables drawn: all four on 2 TP, Ana and Bea above on objectives.
    # Paired by the standings alone, round 2 would be the same two tables.
    first, second = Match.objects.filter(event=event).order_by("table_number")
    played_to_a_result(carol, first, objectives=(6, 6))
    played_to_a_result(carol, second, objectives=(1, 1))

    drawn = org.submit("/rounds/draw/")
    assert drawn.status_code == 302
    said = {
        "en": "Round 2 is drawn. Swap players if needed, then publish it.",
        "es": "La ronda 2 está sorteada. Intercambia jugadores si hace falta y publícala.",
    }[language]
    assert said in carol.get(org.url).content.decode()
    publish_page = org.submit("/rounds/publish/", points_limit=300, rounds=3, minutes=90)
    assert publish_page.status_code == 302

    assert [number for (number,) in event.rounds.values_list("number")] == [2]
    met = {frozenset((a, b)) for _t, _m, a, b in pairings_of(event, 1)}
    again = {frozenset((a, b)) for _t, _m, a, b in pairings_of(event, 2)}
    assert len(again) == 2 and not again & met
    assert Match.objects.filter(event=event, event_round=1).count() == 2


def test_a_drawn_round_one_is_still_drawn_as_round_one(carol):
    event, org = event_of(carol, ROSTER)
    publish(org, seed=5)
    assert [number for (number,) in event.rounds.values_list("number")] == [1]
    assert len(pairings_of(event, 1)) == 2
