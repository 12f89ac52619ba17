"""Swiss pairing within score groups (issue 21): a player who has to float
out of their score group floats to the nearest one, not to the bottom of
the standings (pure, no database); through the organizer's run page, round
2 is paired by Tournament Points, and the bye goes to the player lowest in
the standings by the tiebreakers."""

from __future__ import annotations

import pytest

from tests.web.rendered_forms import submit
from tests.web.test_event_round_checks import event_of, publish
from tests.web.test_event_running import Organizer, pairings_of, standings_shown
from tracker.models import TournamentEvent
from tracker.tournament.swiss import Entrant, pair_round


def test_a_lone_leader_floats_to_the_next_score_group_not_to_the_last_player():
    # One on 8 TP, two on 4, one on 0, nobody has met: the leader meets a
    # 4-point player and the other 4-point player meets the last one (two
    # floats of 4 TP each), rather than the leader meeting the last player
    # (one float of 8 TP).
    entrants = [Entrant(1, 8, 0), Entrant(2, 4, 1), Entrant(3, 4, 2), Entrant(4, 0, 3)]
    drawn = pair_round(entrants, set(), set())
    assert drawn.bye is None
    assert drawn.pairs == ((1, 2), (3, 4))


def test_floats_go_the_shortest_way_across_three_score_groups():
    # 12, 8, 8, 4, 4, 0: each float crosses one score group, never two.
    points = [12, 8, 8, 4, 4, 0]
    entrants = [Entrant(n, tp, n) for n, tp in enumerate(points, start=1)]
    tp = dict(enumerate(points, start=1))
    pairs = pair_round(entrants, set(), set()).pairs
    assert all(abs(tp[a] - tp[b]) <= 4 for a, b in pairs), pairs


# ----------------------------------------------------- through the run page


def settle(carol, match, op_a: int, op_b: int, vp_a: int = 0, vp_b: int = 0) -> None:
    """The organizer records a table's result from its audit page (time is
    called, the table never played on the phones)."""
    audit = carol.get(f"/organizer/matches/{match.code}/").content.decode()
    response = submit(
        carol,
        audit,
        f"/organizer/matches/{match.code}/settle/",
        objective_a=op_a,
        objective_b=op_b,
        army_a=vp_a,
        army_b=vp_b,
        reason="Time called",
    )
    assert response.status_code == 302


def round_one_played(carol, players: str, results) -> tuple[TournamentEvent, Organizer]:
    """Round 1 drawn, published, time called and each table settled with
    `results` (OP A, OP B, VP A, VP B), in table order."""
    event, org = event_of(carol, players)
    publish(org, seed=7)
    assert org.submit("/clock/call/", within="#round-1").status_code == 302
    tables = pairings_of(event, 1)
    assert len(tables) == len(results)
    for (_table, match, _a, _b), scores in zip(tables, results, strict=True):
        settle(carol, match, *scores)
    return event, org


@pytest.mark.django_db
def test_round_two_pairs_by_tournament_points_not_by_objective_points(carol):
    # Table 1's A wins 3-0 (4 TP), table 2's A 2-0 (4 TP; B lost by 2: 1 TP),
    # table 3's A 5-0 (5 TP). By TP: the 5-0 winner meets the 2-0 winner,
    # the 3-0 winner floats down to the 1 TP loser, the 0 TP losers meet.
    # (By OP, 5, 3, 2, 0, 0, 0, it would pair otherwise.)
    names = "Ana, PanOceania\nBea, Yu Jing\nCai, Nomads\nDan, ALEPH\nEva, Tohaa\nFer, O-12"
    event, org = round_one_played(carol, names, [(3, 0, 0, 0), (2, 0, 0, 0), (5, 0, 0, 0)])
    (_, _, w1, l1), (_, _, w2, l2), (_, _, w3, l3) = pairings_of(event, 1)
    shown = standings_shown(carol.get(f"/e/{event.pk}/").content.decode())
    assert [shown[n][0] for n in (w3, w1, w2, l2, l1, l3)] == [5, 4, 4, 1, 0, 0]
    publish(org)
    second = {frozenset((a, b)) for _t, _m, a, b in pairings_of(event, 2)}
    assert second == {frozenset((w3, w2)), frozenset((w1, l2)), frozenset((l1, l3))}


@pytest.mark.django_db
def test_the_bye_goes_to_the_player_below_on_the_tiebreakers(carol):
    """Equal on TP and OP after a drawn table: the one with fewer VP stands
    lower and takes round 2's bye (the other player of the draw had none
    either; round 1's bye already had one)."""
    event, org = round_one_played(
        carol, "Ana, PanOceania\nBea, Yu Jing\nCai, Nomads", [(2, 2, 150, 40)]
    )
    [(_table, _match, more_vp, fewer_vp)] = pairings_of(event, 1)
    shown = standings_shown(carol.get(f"/e/{event.pk}/").content.decode())
    assert shown[more_vp] == (2, 2, 150) and shown[fewer_vp] == (2, 2, 40)
    publish(org)
    names = dict(event.roster.values_list("pk", "name"))
    assert names[event.rounds.get(number=2).bye] == fewer_vp
