"""Results: both players confirm objective points and army points alive from
their phones; a disagreement marks the match disputed for the organizer."""

import pytest

from tests.rules.game import Game, trooper
from tracker.rules.errors import InvalidInput, NotAllowed
from tracker.rules.results import ConfirmResult, DisputeResult, ProposeResult, result_of
from tracker.rules.state import FINISHED, LIEUTENANT_CANDIDATE, PLAYING
from tracker.rules.turns import AdvancePhase


def started_game():
    return Game.started(
        a=[trooper("Kaplan", 20, traits=[LIEUTENANT_CANDIDATE])],
        b=[trooper("Fusilier", 10, traits=[LIEUTENANT_CANDIDATE])],
    )


def propose(game, seat, op=(7, 3), ap=(150, 90)):
    return game.do(
        seat, ProposeResult(objective_a=op[0], objective_b=op[1], army_a=ap[0], army_b=ap[1])
    )


def play_to_the_end(game, limit=50):
    while game.state.phase == PLAYING and limit:
        limit -= 1
        game.do(game.state.turn.seat, AdvancePhase(expected=game.state.turn.phase))


# ------------------------------------------------------------ pure rules


def test_confirmed_result_ends_the_match_when_time_is_called():
    game = started_game()
    assert game.state.phase == PLAYING
    propose(game, "A")
    seq = result_of(game.state)["proposal_seq"]
    game.do("B", ConfirmResult(proposal=seq))
    record = result_of(game.state)
    assert record["status"] == "confirmed"
    assert record["objective_points"] == {"A": 7, "B": 3}
    assert record["army_points"] == {"A": 150, "B": 90}
    assert game.state.phase == FINISHED


def test_the_proposer_cannot_confirm_their_own_result():
    game = started_game()
    propose(game, "A")
    with pytest.raises(NotAllowed):
        game.do("A", ConfirmResult(proposal=result_of(game.state)["proposal_seq"]))


def test_a_stale_confirmation_of_a_replaced_proposal_is_refused():
    game = started_game()
    propose(game, "A")
    old = result_of(game.state)["proposal_seq"]
    propose(game, "A", op=(6, 4))
    with pytest.raises(NotAllowed):
        game.do("B", ConfirmResult(proposal=old))


def test_entering_the_same_numbers_as_the_opponent_confirms_them():
    game = started_game()
    propose(game, "A")
    events = propose(game, "B")
    assert [e.kind for e in events] == ["ResultConfirmed", "MatchEnded"]
    assert result_of(game.state)["status"] == "confirmed"


def test_a_counter_proposal_replaces_the_pending_one():
    game = started_game()
    propose(game, "A")
    propose(game, "B", op=(5, 5))
    record = result_of(game.state)
    assert record["status"] == "proposed" and record["proposed_by"] == "B"
    assert record["objective_points"] == {"A": 5, "B": 5}


def test_disputing_closes_the_result_to_further_proposals():
    game = started_game()
    propose(game, "A")
    game.do("B", DisputeResult(proposal=result_of(game.state)["proposal_seq"], reason="No"))
    assert result_of(game.state)["status"] == "disputed"
    with pytest.raises(NotAllowed):
        propose(game, "B")


@pytest.mark.parametrize(
    "op, ap",
    [((11, 0), (0, 0)), ((-1, 0), (0, 0)), ((0, 0), (301, 0)), ((0, 0), (0, -5))],
)
def test_points_out_of_range_are_refused(op, ap):
    game = started_game()
    with pytest.raises(InvalidInput):
        propose(game, "A", op=op, ap=ap)
    assert result_of(game.state) is None


def test_no_result_before_the_match_is_played():
    game = Game.listed([trooper("X", 10)], [trooper("Y", 10)])
    with pytest.raises(NotAllowed):
        propose(game, "A")


def test_a_result_after_the_last_round_keeps_the_match_finished():
    game = Game.started(
        a=[trooper("Kaplan", 20, traits=[LIEUTENANT_CANDIDATE])],
        b=[trooper("Fusilier", 10, traits=[LIEUTENANT_CANDIDATE])],
        rounds=1,
    )
    play_to_the_end(game)
    assert game.state.phase == FINISHED
    propose(game, "B")
    events = game.do("A", ConfirmResult(proposal=result_of(game.state)["proposal_seq"]))
    assert [e.kind for e in events] == ["ResultConfirmed"]
