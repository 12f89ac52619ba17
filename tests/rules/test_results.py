"""The result of a match (results.py): one player proposes it, the other
confirms or disputes it from their own phone; a confirmed result ends the
match. Only the opponent agrees, and only to the proposal its phone showed."""

import pytest

from tracker.rules.errors import InvalidInput, NotAllowed
from tracker.rules.results import ConfirmResult, DisputeResult, ProposeResult, result_of
from tracker.rules.state import FINISHED, PLAYING

from .game import Game, trooper


def playing() -> Game:
    return Game.started([trooper("Kaplan", 20)], [trooper("Fusilier", 10)])


def propose(game, seat, objective_a=3, objective_b=1):
    game.do(
        seat, ProposeResult(objective_a=objective_a, objective_b=objective_b, army_a=20, army_b=10)
    )
    return game.state.seq


def test_the_proposer_cannot_confirm_its_own_result():
    game = playing()
    proposal = propose(game, "A")
    with pytest.raises(NotAllowed, match="Your opponent confirms"):
        game.do("A", ConfirmResult(proposal=proposal))
    # Proposing the same numbers again is not agreement either: only the
    # opponent entering them is.
    propose(game, "A")
    assert game.state.phase == PLAYING and result_of(game.state)["status"] != "confirmed"
    propose(game, "B")
    assert game.state.phase == FINISHED and result_of(game.state)["status"] == "confirmed"


def test_a_stale_tap_never_confirms_a_proposal_replaced_since():
    game = playing()
    first = propose(game, "A", objective_a=3)
    second = propose(game, "A", objective_a=5)
    with pytest.raises(NotAllowed, match="changed"):
        game.do("B", ConfirmResult(proposal=first))
    assert game.state.phase == PLAYING
    game.do("B", ConfirmResult(proposal=second))
    record = result_of(game.state)
    assert record["status"] == "confirmed" and record["objective_points"]["A"] == 5


def test_after_a_dispute_either_player_proposes_again():
    """A dispute no longer ends the players' say: the disputed numbers are
    not confirmed, a new proposal replaces them, and the opponent confirms
    that one. The proposer insisting on the same numbers is a new proposal
    too, to confirm or dispute again."""
    game = playing()
    first = propose(game, "A", objective_a=3)
    game.do("B", DisputeResult(proposal=first))
    assert result_of(game.state)["status"] == "disputed"
    with pytest.raises(NotAllowed, match="disputed"):
        game.do("B", ConfirmResult(proposal=first))
    again = propose(game, "A", objective_a=3)
    assert again != first and result_of(game.state)["status"] == "proposed"
    game.do("B", DisputeResult(proposal=again))
    other = propose(game, "B", objective_a=2)
    assert result_of(game.state)["proposed_by"] == "B"
    game.do("A", ConfirmResult(proposal=other))
    record = result_of(game.state)
    assert record["status"] == "confirmed" and record["objective_points"]["A"] == 2
    assert game.state.phase == FINISHED


def test_the_player_who_disputed_entering_the_same_numbers_agrees():
    game = playing()
    first = propose(game, "A", objective_a=3)
    game.do("B", DisputeResult(proposal=first))
    propose(game, "B", objective_a=3)
    assert result_of(game.state)["status"] == "confirmed"
    assert game.state.phase == FINISHED


def test_a_proposer_s_own_army_alive_is_at_most_her_whole_list():
    """Her own list's total is hers to know (hidden troopers included), so
    her own army alive past it is refused; the opponent's is checked against
    the points limit only, as his total is not hers to know."""
    game = playing()  # Kaplan, 20 points; Fusilier, 10
    with pytest.raises(InvalidInput):
        game.do("A", ProposeResult(objective_a=3, objective_b=1, army_a=21, army_b=10))
    with pytest.raises(InvalidInput):
        game.do("B", ProposeResult(objective_a=3, objective_b=1, army_a=20, army_b=11))
    assert result_of(game.state) is None
    game.do("A", ProposeResult(objective_a=3, objective_b=1, army_a=20, army_b=11))
    assert result_of(game.state)["army_points"] == {"A": 20, "B": 11}


def test_an_organizer_s_ruling_keeps_each_army_within_its_whole_list():
    """The organizer reads both lists: an army alive past its own list is a
    slip, refused; within both, the ruling stands."""
    from tracker.rules.results import settle

    game = playing()  # Kaplan, 20 points; Fusilier, 10
    proposal = propose(game, "A")
    game.do("B", DisputeResult(proposal=proposal, reason="No"))
    for army in ((21, 10), (20, 11)):
        with pytest.raises(InvalidInput):
            settle(game.state, "carol", (3, 1), army, "Checked")
    events = settle(game.state, "carol", (3, 1), (20, 10), "Checked")
    assert events[0].army_points == {"A": 20, "B": 10}
