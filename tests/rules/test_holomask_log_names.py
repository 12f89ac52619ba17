"""HE-9: while HoloMask is in force the opponent reads the masked troop type
everywhere, log lines included, also where a line names the trooper by its
name alone, without its id beside it: HE-8's lost delayed ARO (target_name)
and TM-T1's Coordinated Order (names)."""

import json

from tracker.rules.orders import DeclareAro
from tracker.rules.state import ORDERS
from tracker.rules.token_tactical import CoordinatedOrder
from tracker.rules.visibility import log_for

from .hidden_games import declare, to_phase
from .test_holomask import SHOWN, TRUE_TYPE, masked_game


def log_of(game, viewer):
    return log_for(game.state, list(enumerate(game.events, 1)), viewer)


def params_of(game, viewer, kind):
    return [line.params for line in log_of(game, viewer) if line.kind == kind]


def test_a_lost_delayed_aro_names_the_masked_type_he_8_he_9():
    """HE-8: the second Short Skill did not reveal the Holoecho; the line
    saying Bob's delayed ARO is lost names its target as Bob knows it."""
    game = masked_game(real="marker1")
    to_phase(game, ORDERS)
    masked = game.id(TRUE_TYPE)
    declare(game, TRUE_TYPE, "move")
    game.do(
        "B",
        DeclareAro(trooper_id=game.id("Fusilier"), skill="delay_aro", target_id=masked),
    )
    declare(game, TRUE_TYPE, "move")
    (bobs,) = params_of(game, "B", "DelayedAroLost")
    assert bobs["target_name"] == SHOWN
    for viewer in ("B", None):
        assert TRUE_TYPE not in json.dumps([line.params for line in log_of(game, viewer)])
    (alices,) = params_of(game, "A", "DelayedAroLost")
    assert alices["target_name"] == TRUE_TYPE


def test_a_coordinated_order_lists_the_masked_type_tm_t1_he_9():
    """TM-T1: the Coordinated Order's line lists its troopers by name; Bob
    reads the masked type among them."""
    game = masked_game()
    to_phase(game, ORDERS)
    game.do("A", CoordinatedOrder(trooper_ids=[game.id(TRUE_TYPE), game.id("Kaplan")]))
    (bobs,) = params_of(game, "B", "CoordinatedOrderDeclared")
    assert SHOWN in bobs["names"] and "Kaplan" in bobs["names"]
    assert TRUE_TYPE not in json.dumps([line.params for line in log_of(game, "B")])
    (alices,) = params_of(game, "A", "CoordinatedOrderDeclared")
    assert TRUE_TYPE in alices["names"]
