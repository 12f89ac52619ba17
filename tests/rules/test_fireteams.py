"""Fireteams, the minimum HE-10 needs: a named public set of troopers of one
Combat Group, formed and dissolved by its owner in their own Player Turn."""

import pytest

from tracker.rules.errors import InvalidInput, NotAllowed
from tracker.rules.fireteams import DissolveFireteam, FormFireteam
from tracker.rules.holoecho import ActivateHoloecho
from tracker.rules.orders import DeclareSkill
from tracker.rules.state import HOLOPROJECTOR, ORDERS, STATES

from .game import Game, nonce, trooper
from .hidden_games import end_order, started, to_phase


def team_game() -> Game:
    return Game.started(
        [
            trooper("Hassassin", 40, traits=[HOLOPROJECTOR]),
            trooper("Kaplan", 20),
            trooper("Ghulam", 15),
            trooper("Farzan", 20, group=2),
        ],
        [trooper("Fusilier", 10), trooper("Bolt", 15)],
        seal_a={"lieutenant": "Kaplan", "holoecho": {"Hassassin": "marker1"}},
    )


def holoecho_ends(game):
    """The Hassassin attacks: its Holoecho ends at the end of the Order (HE-C1)."""
    to_phase(game, ORDERS)
    game.do("A", DeclareSkill(trooper_id=game.id("Hassassin"), skill="bs_attack"))
    end_order(game)
    assert not game.trooper("Hassassin").holoechoes


def form(game, name, *members, seat="A"):
    return game.do(seat, FormFireteam(name=name, trooper_ids=[game.id(m) for m in members]))


def test_a_fireteam_is_public_and_of_one_combat_group():
    game = team_game()
    form(game, "Core", "Kaplan", "Ghulam")
    assert game.view("B").trooper(game.id("Kaplan")).fireteam == "Core"
    assert game.view(None).trooper(game.id("Ghulam")).fireteam == "Core"
    with pytest.raises(NotAllowed):  # one Fireteam at a time per trooper
        form(game, "Other", "Kaplan", "Ghulam")


def test_only_the_owner_in_their_own_turn_and_one_combat_group():
    game = team_game()
    with pytest.raises(NotAllowed):
        form(game, "Mixed", "Farzan", "Kaplan")  # groups 2 and 1
    with pytest.raises(NotAllowed):
        game.do(
            "B", FormFireteam(name="Theirs", trooper_ids=[game.id("Fusilier"), game.id("Bolt")])
        )
    with pytest.raises(InvalidInput):
        form(game, "Alone", "Kaplan")


def test_a_trooper_in_holoecho_cannot_join_he_10():
    """HE-10."""
    game = team_game()
    with pytest.raises(NotAllowed) as refused:
        form(game, "Core", "Hassassin", "Kaplan")
    assert refused.value.rule == "HE-10"


def test_activating_holoecho_takes_the_bearer_out_of_its_fireteam_he_10():
    """HE-10: the Hassassin joins once its Holoecho ended, then activates it again."""
    game = team_game()
    hassassin = game.id("Hassassin")
    holoecho_ends(game)
    form(game, "Core", "Hassassin", "Kaplan", "Ghulam")
    assert game.trooper("Hassassin").fireteam == "Core"
    to_phase(game, STATES)
    events = game.do(
        "A",
        ActivateHoloecho(trooper_id=hassassin, real="model", secret_id="he000002", nonce=nonce(7)),
    )
    assert events[-1].left_fireteam
    assert game.trooper("Hassassin").fireteam == ""
    assert game.view("B").trooper(game.id("Kaplan")).fireteam == "Core"  # two are still a team


def test_a_team_of_one_left_by_holoecho_is_dissolved_he_10():
    game = team_game()
    hassassin = game.id("Hassassin")
    holoecho_ends(game)
    form(game, "Duo", "Hassassin", "Kaplan")
    to_phase(game, STATES)
    game.do(
        "A",
        ActivateHoloecho(trooper_id=hassassin, real="model", secret_id="he000003", nonce=nonce(8)),
    )
    assert game.trooper("Kaplan").fireteam == ""


def test_the_owner_dissolves_it():
    game = team_game()
    form(game, "Core", "Kaplan", "Ghulam")
    game.do("A", DissolveFireteam(name="Core"))
    assert game.trooper("Kaplan").fireteam == ""


def test_a_hidden_or_marker_trooper_cannot_join_a_public_fireteam():
    game = started()
    to_phase(game, ORDERS)
    game.do("A", DeclareSkill(trooper_id=game.id("Ninja"), skill="move", as_marker=True))
    end_order(game)
    with pytest.raises(NotAllowed):
        form(game, "Shadows", "Ninja", "Kaplan")


def test_a_fireteam_holds_two_to_five_troopers():
    """The size fireteams.py keeps (MIN_MEMBERS, MAX_MEMBERS: an N4 Core
    Fireteam): five of one Combat Group form one, a sixth is refused."""
    game = Game.started(
        [trooper(f"Ghulam {n}", 15) for n in range(1, 7)],
        [trooper("Fusilier", 10), trooper("Bolt", 15)],
    )
    with pytest.raises(InvalidInput):
        form(game, "Six", *(f"Ghulam {n}" for n in range(1, 7)))
    form(game, "Five", *(f"Ghulam {n}" for n in range(1, 6)))
    assert game.view("B").trooper(game.id("Ghulam 5")).fireteam == "Five"
    assert game.view("B").trooper(game.id("Ghulam 6")).fireteam == ""
