"""The bye goes to the bottom of the standings (README, Running an event:
"a bye for an odd player (the lowest player who has not had one)"), even
when that makes a player float out of their score group: six players, three
winners on 5 TP and three losers on 0, one loser withdraws; round 2's bye
went to a winner (a free 4 TP at the top) so that the two remaining losers
could meet each other."""

from __future__ import annotations

import pytest

from tests.web.rendered_forms import submit
from tests.web.test_event_running import pairings_of, roster_row
from tests.web.test_swiss_score_distances import round_one_played
from tracker.tournament.swiss import Entrant, pair_round, rematches

NAMES = "Ana, PanOceania\nBea, Yu Jing\nCai, Nomads\nDan, ALEPH\nEva, Tohaa\nFer, O-12"


def test_an_odd_top_score_group_floats_a_player_down_and_the_bye_stays_at_the_bottom():
    # Three on 5 TP (1, 2, 3), two on 0 (4, 5); 2 met 4 and 3 met 5 in round 1.
    entrants = [Entrant(p, 5 if p <= 3 else 0, p) for p in range(1, 6)]
    met = {frozenset((2, 4)), frozenset((3, 5))}
    drawn = pair_round(entrants, met, set())
    assert drawn.bye == 5
    assert rematches(drawn, met) == 0
    assert sum(p == 4 for pair in drawn.pairs for p in pair) == 1  # one float, to player 4


@pytest.mark.django_db
def test_round_two_gives_the_bye_to_a_loser_when_a_loser_withdraws(carol):
    event, org = round_one_played(carol, NAMES, [(6, 2, 30, 10)] * 3)
    tables = pairings_of(event, 1)
    winners = {a for _t, _m, a, _b in tables}
    losers = [b for _t, _m, _a, b in tables]
    gone = losers[0]
    assert submit(carol, str(roster_row(org, gone)), "/drop/").status_code == 302
    assert org.submit("/rounds/draw/").status_code == 302
    response = org.submit("/rounds/publish/", points_limit=300, rounds=3, minutes=90)
    assert response.status_code == 302
    names = dict(event.roster.values_list("pk", "name"))
    bye = names[event.rounds.get(number=2).bye]
    assert bye not in winners, f"the bye went to {bye}, on 5 TP, above two players on 0"
    assert bye in losers[1:]
