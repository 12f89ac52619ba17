"""HD-C3 with namesakes: army lists often field two troopers of one profile.
When one of them stands under a Camouflage marker and the other is on the
table, a log line naming the visible one by name alone (TM-T1's `names`)
must name it as it is, and read the same whoever is under the marker:
otherwise the opponent learns the marker's troop type from the line."""

from tracker.rules.orders import DeclareSkill
from tracker.rules.state import CAMOUFLAGE, HIDDEN_DEPLOYMENT, LIEUTENANT_CANDIDATE, ORDERS
from tracker.rules.token_tactical import CoordinatedOrder
from tracker.rules.visibility import log_for

from .game import Game, trooper
from .hidden_games import army_b, end_order, to_phase


def bobs_coordinated_order_line(under_marker: str) -> dict:
    """Alice's `under_marker` trooper goes down as Camouflage marker 1; then
    her visible Ninja and Kaplan take a Coordinated Order (TM-T1)."""
    hidden = trooper(under_marker, 30, traits=[HIDDEN_DEPLOYMENT, CAMOUFLAGE])
    ninja = trooper("Ninja", 30)
    kaplan = trooper("Kaplan", 20, traits=[LIEUTENANT_CANDIDATE])
    game = Game.started(
        [hidden, ninja, kaplan],
        army_b(),
        seal_a={
            "lieutenant": "Kaplan",
            "extra": [{"kind": "hd_position", "trooper_id": hidden["id"], "position": "roof"}],
        },
    )
    to_phase(game, ORDERS)
    game.do("A", DeclareSkill(trooper_id=hidden["id"], skill="move", as_marker=True))
    end_order(game)
    assert game.state.troopers[hidden["id"]].marker_number == 1
    assert not game.state.troopers[ninja["id"]].hidden
    game.do("A", CoordinatedOrder(trooper_ids=[ninja["id"], kaplan["id"]]))
    log = log_for(game.state, list(enumerate(game.events, 1)), "B")
    (line,) = [x for x in log if x.kind == "CoordinatedOrderDeclared"]
    assert line.params["trooper_ids"] == [ninja["id"], kaplan["id"]]
    return line.params


def test_a_visible_namesake_of_a_marker_keeps_its_name_in_the_log_hd_c3_tm_t1():
    """The visible Ninja is named "Ninja" whether marker 1 is a Ninja or an
    Oniwaban; renaming it "Camouflage marker 1" would both misname it and
    tell Bob that the marker is a Ninja."""
    assert bobs_coordinated_order_line("Oniwaban")["names"] == "Ninja, Kaplan"
    assert bobs_coordinated_order_line("Ninja")["names"] == "Ninja, Kaplan"
