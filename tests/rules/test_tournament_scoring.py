"""Tournament scoring and standings (issue 21), pure: no database."""

import pytest

from tracker.tournament.scoring import (
    DEFAULT_SCORING,
    Bye,
    Result,
    scoring_table,
    standings,
    tournament_points,
)


@pytest.mark.parametrize(
    "own, their, points",
    [
        (7, 3, 5),  # win with the offensive bonus
        (4, 3, 4),  # win
        (3, 3, 2),  # draw
        (5, 5, 3),  # draw with the offensive bonus
        (2, 4, 1),  # lost by 2: defensive bonus
        (1, 4, 0),  # lost by 3
        (5, 7, 2),  # lost by 2 with 5 OP: both bonuses
    ],
)
def test_default_tournament_points(own, their, points):
    assert tournament_points(DEFAULT_SCORING, own, their) == points


def test_an_edited_table_keeps_the_defaults_it_does_not_change():
    table = scoring_table({"win": 3, "bogus": 9, "draw": "x", "loss": True})
    assert table == {**DEFAULT_SCORING, "win": 3}


def test_standings_rank_by_tp_then_op_then_vp_and_share_ties():
    players = {1: ("Ana", False), 2: ("Bea", False), 3: ("Cai", False), 4: ("Dan", True)}
    results = [Result(1, 1, 2, 6, 2, 100, 50), Result(1, 3, 4, 6, 2, 100, 50)]
    rows = standings(players, results, [], DEFAULT_SCORING)
    assert [(r.name, r.tp, r.op, r.vp, r.rank) for r in rows] == [
        ("Ana", 5, 6, 100, 1),
        ("Cai", 5, 6, 100, 1),
        ("Bea", 0, 2, 50, 3),
        ("Dan", 0, 2, 50, 3),
    ]
    rows = standings(players, results, [Bye(2, 2)], DEFAULT_SCORING)
    assert [(r.name, r.tp, r.op, r.byes) for r in rows][2] == ("Bea", 4, 7, 1)


def test_a_bye_scores_the_tables_bye_tp_op_and_vp_each_in_its_own_column():
    table = scoring_table({"bye_tp": 3, "bye_op": 6, "bye_vp": 150})
    rows = standings({1: ("Ana", False)}, [], [Bye(1, 1)], table)
    assert [(r.tp, r.op, r.vp, r.byes, r.played) for r in rows] == [(3, 6, 150, 1, 0)]


def test_a_result_naming_someone_off_the_roster_is_ignored():
    rows = standings({1: ("Ana", False)}, [Result(1, 1, 99, 5, 0, 0, 0)], [], DEFAULT_SCORING)
    assert rows[0].tp == 0 and rows[0].played == 0


def test_op_breaks_a_tp_tie_before_vp_and_vp_before_the_name():
    """Tiebreakers in their order: OP first, VP only on equal OP, the name
    only when TP, OP and VP are all equal (then the rank is shared)."""
    names = ["Ana", "Bea", "Cai", "Dan", "Eva", "Fer", "Gil", "Hugo"]
    players = {n: (name, False) for n, name in enumerate(names, start=1)}
    # Ana..Dan each lose by 7 or more to one of Eva..Hugo (0 TP each), their
    # OP and VP pulling apart; the winners all score 9 OP and 0 VP.
    results = [
        Result(1, 1, 5, 1, 9, 300, 0),  # Ana: 1 OP, 300 VP
        Result(1, 2, 6, 2, 9, 10, 0),  # Bea: 2 OP, 10 VP
        Result(1, 3, 7, 2, 9, 20, 0),  # Cai: 2 OP, 20 VP
        Result(1, 4, 8, 2, 9, 20, 0),  # Dan: as Cai
    ]
    rows = standings(players, results, [], DEFAULT_SCORING)
    assert [(r.name, r.rank) for r in rows[:4]] == [("Eva", 1), ("Fer", 1), ("Gil", 1), ("Hugo", 1)]
    assert [(r.name, r.tp, r.op, r.vp, r.rank) for r in rows[4:]] == [
        ("Cai", 0, 2, 20, 5),
        ("Dan", 0, 2, 20, 5),
        ("Bea", 0, 2, 10, 7),
        ("Ana", 0, 1, 300, 8),
    ]


def test_a_draw_is_counted_as_a_draw_for_both():
    players = {1: ("Ana", False), 2: ("Bea", False)}

    def record(op_a, op_b):
        rows = standings(players, [Result(1, 1, 2, op_a, op_b, 80, 120)], [], DEFAULT_SCORING)
        return {r.name: (r.wins, r.draws, r.losses, r.played) for r in rows}

    assert record(3, 3) == {"Ana": (0, 1, 0, 1), "Bea": (0, 1, 0, 1)}
    assert record(4, 3) == {"Ana": (1, 0, 0, 1), "Bea": (0, 0, 1, 1)}
