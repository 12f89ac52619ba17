"""HD-C3 with namesakes: army lists often field two troopers of one profile.
When one of them stands under a Camouflage marker and the other is on the
table, a log line naming the visible one by name alone (TM-T1's `names`)
must name it as it is, and read the same whoever is under the marker:
otherwise the opponent learns the marker's troop type from the line."""

import pytest

from tracker.rules.conditions import SetTrooperState
from tracker.rules.errors import NotAllowed
from tracker.rules.fireteams import FormFireteam
from tracker.rules.orders import DeclareAro, DeclareSkill
from tracker.rules.state import CAMOUFLAGE, DEAD, HIDDEN_DEPLOYMENT, LIEUTENANT_CANDIDATE, ORDERS
from tracker.rules.token_tactical import CoordinatedOrder
from tracker.rules.visibility import log_for

from .game import Game, trooper
from .hidden_games import army_b, declare, end_order, to_phase


def bobs_coordinated_order_line(under_marker: str) -> dict:
    """Alice's `under_marker` trooper goes down as Camouflage marker 1; then
    her visible Ninja and Kaplan take a Coordinated Order (TM-T1)."""
    ninja = trooper("Ninja", 30)
    game, _hidden = under_a_marker(under_marker, a_more=[ninja])
    assert not game.state.troopers[ninja["id"]].hidden
    kaplan = game.id("Kaplan")
    game.do("A", CoordinatedOrder(trooper_ids=[ninja["id"], kaplan]))
    log = log_for(game.state, list(enumerate(game.events, 1)), "B")
    (line,) = [x for x in log if x.kind == "CoordinatedOrderDeclared"]
    assert line.params["trooper_ids"] == [ninja["id"], kaplan]
    return line.params


def test_a_visible_namesake_of_a_marker_keeps_its_name_in_the_log_hd_c3_tm_t1():
    """The visible Ninja is named "Ninja" whether marker 1 is a Ninja or an
    Oniwaban; renaming it "Camouflage marker 1" would both misname it and
    tell Bob that the marker is a Ninja."""
    assert bobs_coordinated_order_line("Oniwaban")["names"] == "Ninja, Kaplan"
    assert bobs_coordinated_order_line("Ninja")["names"] == "Ninja, Kaplan"


def under_a_marker(name="Ninja", b_list=None, a_more=()) -> tuple[Game, dict]:
    """Alice's hidden `name` goes down as Camouflage marker 1 (her list: it,
    Kaplan and `a_more`; Bob's: `b_list`)."""
    hidden = trooper(name, 30, traits=[HIDDEN_DEPLOYMENT, CAMOUFLAGE])
    kaplan = trooper("Kaplan", 20, traits=[LIEUTENANT_CANDIDATE])
    game = Game.started(
        [hidden, kaplan, *a_more],
        b_list or army_b(),
        seal_a={
            "lieutenant": "Kaplan",
            "extra": [{"kind": "hd_position", "trooper_id": hidden["id"], "position": "roof"}],
        },
    )
    to_phase(game, ORDERS)
    game.do("A", DeclareSkill(trooper_id=hidden["id"], skill="move", as_marker=True))
    end_order(game)
    assert game.state.troopers[hidden["id"]].marker_number == 1
    return game, hidden


def test_a_refusal_names_bobs_own_namesake_as_his_list_does_hd_c3():
    """Mirror lists: Bob's own Ninja is out of action, and his ARO with it is
    refused. The refusal names his Ninja, not Alice's marker, which would
    tell him the marker is a Ninja."""
    bobs_ninja = trooper("Ninja", 30)
    game, _hidden = under_a_marker(b_list=[*army_b(), bobs_ninja])
    game.do("B", SetTrooperState(trooper_id=bobs_ninja["id"], condition=DEAD, tokens=[]))
    declare(game, "Kaplan", "move")
    with pytest.raises(NotAllowed) as refused:
        game.do("B", DeclareAro(trooper_id=bobs_ninja["id"], skill="bs_attack"))
    assert str(refused.value) == "Ninja is out of action."


def test_a_fireteam_keeps_the_name_its_player_gave_it():
    """A log line's "name" is a Fireteam's, a player's or the match's, never a
    trooper's: Bob reads Alice's Fireteam "Ninja" as she wrote it, though
    that is the name of the trooper under her marker."""
    daylami = trooper("Daylami", 15)
    game, _hidden = under_a_marker(a_more=[daylami])
    game.do("A", FormFireteam(name="Ninja", trooper_ids=[game.id("Kaplan"), daylami["id"]]))
    log = log_for(game.state, list(enumerate(game.events, 1)), "B")
    (formed,) = [line.params for line in log if line.kind == "FireteamFormed"]
    assert formed["name"] == "Ninja"
    assert formed["names"] == "Kaplan, Daylami"
