"""Swiss pairing (issue 21), pure: no database, milliseconds.

Properties over random events: no rematch that some other pairing of the
same players could avoid, everyone paired once (or the one bye), and at most
one bye per player while someone else can take it."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from tracker.tournament.swiss import (
    Entrant,
    Round,
    first_round,
    history,
    pair_round,
    rematches,
    swap,
)


def fewest_rematches(players: list[int], met: set[frozenset], had_bye: set[int]) -> int:
    """By brute force: the fewest rematches of any pairing of `players`
    whose bye (if odd) goes to a player without one, when there is one."""
    best = [len(players)]

    def walk(left: list[int], count: int) -> None:
        if count >= best[0]:
            return
        if not left:
            best[0] = count
            return
        first, rest = left[0], left[1:]
        for index, other in enumerate(rest):
            walk(rest[:index] + rest[index + 1 :], count + (frozenset((first, other)) in met))

    if len(players) % 2:
        takers = [p for p in players if p not in had_bye] or players
        for bye in takers:
            walk([p for p in players if p != bye], 0)
    else:
        walk(players, 0)
    return best[0]


def check_round(round_: Round, players: list[int], met: set, had_bye: set) -> None:
    seen = [p for pair in round_.pairs for p in pair] + (
        [round_.bye] if round_.bye is not None else []
    )
    assert sorted(seen) == sorted(players), "everyone plays once, or has the bye"
    assert (round_.bye is not None) == (len(players) % 2 == 1)
    if round_.bye is not None and any(p not in had_bye for p in players):
        assert round_.bye not in had_bye, "a second bye while another player had none"
    assert rematches(round_, met) == fewest_rematches(players, met, had_bye)


@settings(max_examples=150, deadline=None)
@given(
    size=st.integers(min_value=2, max_value=9),
    seed=st.integers(min_value=0, max_value=2**32),
    rounds=st.integers(min_value=2, max_value=6),
    outcomes=st.lists(st.integers(min_value=0, max_value=2), min_size=40, max_size=40),
    drops=st.lists(st.integers(min_value=0, max_value=8), max_size=2),
)
def test_swiss_never_repeats_an_avoidable_pairing_and_gives_one_bye_each(
    size, seed, rounds, outcomes, drops
):
    players = list(range(1, size + 1))
    points = dict.fromkeys(players, 0)
    met: set[frozenset] = set()
    had_bye: set[int] = set()
    scores = iter(outcomes)
    round_ = first_round(players, seed)
    for number in range(1, rounds + 1):
        if number > 1:
            entrants = [Entrant(p, points[p], rank) for rank, p in enumerate(players)]
            round_ = pair_round(entrants, met, had_bye)
        check_round(round_, players, met, had_bye)
        for a, b in round_.pairs:
            outcome = next(scores, 1)
            points[a] += (4, 2, 0)[outcome]
            points[b] += (0, 2, 4)[outcome]
            met.add(frozenset((a, b)))
        if round_.bye is not None:
            had_bye.add(round_.bye)
            points[round_.bye] += 4
        # A player drops (or late joiners change the count): odd and even both happen.
        for drop in drops:
            if number == 1 and len(players) > 2 and drop < len(players):
                players = players[:drop] + players[drop + 1 :]
        drops = []


def test_round_one_is_the_same_draw_for_the_same_seed():
    assert first_round(range(1, 17), 42) == first_round(range(16, 0, -1), 42)
    assert first_round(range(1, 17), 42) != first_round(range(1, 17), 43)


def test_later_rounds_pair_within_score_groups():
    # Four on 8 TP, four on 0: nobody has met, so leaders meet leaders.
    entrants = [Entrant(p, 8 if p <= 4 else 0, p) for p in range(1, 9)]
    pairs = pair_round(entrants, set(), set()).pairs
    assert all((a <= 4) == (b <= 4) for a, b in pairs)
    assert {a for a, _ in pairs[:2]} | {b for _, b in pairs[:2]} == {1, 2, 3, 4}


def test_the_bye_goes_to_the_lowest_player_without_one():
    entrants = [Entrant(p, 4 if p <= 2 else 0, p) for p in range(1, 6)]
    assert pair_round(entrants, set(), set()).bye == 5
    assert pair_round(entrants, set(), {5}).bye == 4
    assert pair_round(entrants, set(), {4, 5}).bye == 3


def test_a_swap_trades_two_players_places():
    round_ = Round(((1, 2), (3, 4)), 5)
    assert swap(round_, 2, 3) == Round(((1, 3), (2, 4)), 5)
    assert swap(round_, 1, 5) == Round(((5, 2), (3, 4)), 1)


def test_each_table_lists_the_higher_standing_player_first_and_tables_go_in_standing_order():
    # Rank decides within equal points: player 8 stands first, player 1 last.
    entrants = [Entrant(p, 0, 9 - p) for p in range(1, 9)]
    pairs = pair_round(entrants, set(), set()).pairs
    place = {p: 9 - p for p in range(1, 9)}
    assert all(place[a] < place[b] for a, b in pairs)
    assert [place[a] for a, _ in pairs] == sorted(place[a] for a, _ in pairs)
    assert pairs[0][0] == 8


def test_history_reads_who_met_whom_and_every_bye():
    met, byes = history(
        [{"pairs": [[1, 2], [3, 4]], "bye": 5}, {"pairs": [[1, 3], [5, 2]], "bye": None}]
    )
    assert met == {frozenset(p) for p in ((1, 2), (3, 4), (1, 3), (5, 2))}
    assert byes == {5}


def test_the_bye_goes_to_the_last_player_even_when_a_leader_must_float_far_down():
    # 8, 8, 8, 0, 0: the bye goes to the last player, so one leader floats
    # all the way down (a distance of 8 TP, costing 64), rather than the
    # third leader taking a free win to keep both 0-point players together.
    # The bye's place outweighs every pair's distance together, squared.
    entrants = [Entrant(p, 8 if p <= 3 else 0, p) for p in range(1, 6)]
    drawn = pair_round(entrants, set(), set())
    assert drawn.bye == 5
    assert sum((a <= 3) != (b <= 3) for a, b in drawn.pairs) == 1
