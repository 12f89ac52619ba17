"""RP — Replacing game elements: RP-1, RP-2, RP-3."""

import pytest

from tracker.rules.errors import InvalidInput, NotAllowed, UnknownElement
from tracker.rules.replacement import (
    BASE_MM,
    MARKER_MM,
    ChooseReplacement,
    ReportNoRoom,
    ReportRoomChanged,
    base_mm,
)
from tracker.rules.state import IMMOBILIZED_A, ORDERS

from .hidden_games import declare, end_order, end_turn, of_kind, report, started, to_phase


def holoecho_ended_on_a_marker(silhouette=2, real="marker1"):
    """Bob hits the real Holoecho, a marker: the model must replace it."""
    game = started(real=real, holo_silhouette=silhouette)
    to_phase(game, ORDERS)
    declare(game, "Kaplan", "move")
    report(game, "saving_roll", "Hassassin", element=real)
    end_order(game)
    return game


def test_same_base_goes_centre_on_centre_rp_1():
    """RP-1."""
    game = holoecho_ended_on_a_marker(silhouette=2)
    replaced = of_kind(game.events, "ElementReplaced")[0]
    assert replaced.rule == "RP-1" and replaced.element == "marker1" and replaced.same_facing
    assert replaced.private_to is None and replaced.cause == "HE-C4"
    message, _params = replaced.describe()
    assert "centre" in message and "RP-1" in message and "RP-3" in message
    with pytest.raises(NotAllowed) as refused:
        game.do("A", ChooseReplacement(trooper_id=game.id("Hassassin"), how="edge"))
    assert refused.value.rule == "RP-1"


def test_no_replacement_when_the_model_was_the_real_one():
    game = holoecho_ended_on_a_marker(real="model")
    assert not of_kind(game.events, "ElementReplaced")


def test_hidden_deployment_places_the_base_centre_on_the_written_point_rp_1():
    """RP-1."""
    game = started()
    to_phase(game, ORDERS)
    events = declare(game, "Ninja", "move")
    assert "RP-1" in of_kind(events, "HiddenDeploymentEnded")[0].describe()[0]
    assert game.trooper("Ninja").replaced == "RP-1"


@pytest.mark.parametrize(
    ("silhouette", "rule"), [(1, "RP-1"), (2, "RP-1"), (3, "RP-2"), (5, "RP-2")]
)
def test_base_diameters_decide_between_rp_1_and_rp_2(silhouette, rule):
    """RP-1, RP-2."""
    game = holoecho_ended_on_a_marker(silhouette=silhouette)
    assert of_kind(game.events, "ElementReplaced")[0].rule == rule
    trooper = game.trooper("Hassassin")
    assert (base_mm(trooper, "marker1") == base_mm(trooper, "model")) is (rule == "RP-1")
    assert (
        base_mm(trooper, "marker1") == MARKER_MM
        and base_mm(trooper, "model") == BASE_MM[silhouette]
    )


def test_different_bases_let_the_player_choose_centre_or_edge_once_rp_2():
    """RP-2."""
    game = holoecho_ended_on_a_marker(silhouette=5)
    message, _params = of_kind(game.events, "ElementReplaced")[0].describe()
    assert "never cancel Engaged" in message
    hassassin = game.id("Hassassin")
    with pytest.raises(NotAllowed) as not_theirs:
        game.do("B", ChooseReplacement(trooper_id=hassassin, how="edge"))
    assert not_theirs.value.rule == "RP-2"
    with pytest.raises(InvalidInput):
        game.do("A", ChooseReplacement(trooper_id=hassassin, how="sideways"))
    events = game.do("A", ChooseReplacement(trooper_id=hassassin, how="edge"))
    assert events[0].rule == "RP-2" and "cannot cancel Engaged" in events[0].describe()[0]
    assert game.view("B").trooper(hassassin).replacement_choice == "edge"
    with pytest.raises(NotAllowed):
        game.do("A", ChooseReplacement(trooper_id=hassassin, how="centre"))


def test_no_room_for_a_mandatory_replacement_immobilizes_until_the_room_changes_rp_3():
    """RP-3."""
    game = holoecho_ended_on_a_marker()
    hassassin = game.id("Hassassin")
    events = game.do("A", ReportNoRoom(trooper_id=hassassin))
    assert events[0].rule == "RP-3"
    trooper = game.trooper("Hassassin")
    assert IMMOBILIZED_A in trooper.tokens and trooper.no_room
    assert game.view("B").trooper(hassassin).no_room
    with pytest.raises(NotAllowed):
        game.do("A", ReportNoRoom(trooper_id=hassassin))
    game.do("A", ReportRoomChanged(trooper_id=hassassin))
    trooper = game.trooper("Hassassin")
    assert IMMOBILIZED_A not in trooper.tokens and not trooper.no_room
    with pytest.raises(NotAllowed) as refused:
        game.do("A", ReportRoomChanged(trooper_id=hassassin))
    assert refused.value.rule == "RP-3"


def test_equipment_without_room_is_removed_instead_rp_3():
    """RP-3."""
    game = holoecho_ended_on_a_marker()
    events = game.do("A", ReportNoRoom(trooper_id=game.id("Hassassin"), equipment=True))
    assert "removed from the table" in events[0].describe()[0]
    assert IMMOBILIZED_A not in game.trooper("Hassassin").tokens


def test_no_room_only_after_a_mandatory_replacement_rp_3():
    """RP-3."""
    game = started()
    to_phase(game, ORDERS)
    with pytest.raises(NotAllowed) as refused:
        game.do("B", ReportNoRoom(trooper_id=game.id("Kaplan")))
    assert refused.value.rule == "RP-3"


def test_no_room_refusal_for_a_hidden_trooper_is_an_unknown_id():
    game = started()
    with pytest.raises(UnknownElement) as hidden:
        game.do("B", ReportNoRoom(trooper_id=game.id("Ninja")))
    with pytest.raises(UnknownElement) as unknown:
        game.do("B", ReportNoRoom(trooper_id="t424242"))
    assert hidden.value.message == unknown.value.message


def test_failed_infiltration_on_the_table_edge_is_no_replacement_hd_4_rp():
    """HD-4."""
    from tracker.rules.orders import ReportOutcome
    from tracker.rules.setup import SetInitiative

    from .game import Game
    from .hidden_games import army_a, army_b

    game = Game.listed(army_a(), army_b())
    game.do("A", SetInitiative(first_turn="A", deploys_first="A"))
    game.seal(
        "A", lieutenant="Kaplan", hd={"Ninja": "a", "Yaogat": "b"}, holoecho={"Hassassin": "model"}
    )
    game.do("A", ReportOutcome(outcome="infiltration_failed", trooper_id=game.id("Yaogat")))
    assert game.trooper("Yaogat").replaced == ""


# ------------------------------------------------ who places, and when (RP)


def test_only_the_owner_resolves_a_placement_rp_2_rp_3():
    """RP-2, RP-3: the opponent can neither choose nor immobilize."""
    game = holoecho_ended_on_a_marker(silhouette=5)
    hassassin = game.id("Hassassin")
    with pytest.raises(NotAllowed) as choose:
        game.do("B", ChooseReplacement(trooper_id=hassassin, how="centre"))
    with pytest.raises(NotAllowed) as no_room:
        game.do("B", ReportNoRoom(trooper_id=hassassin))
    assert choose.value.rule == "RP-2" and no_room.value.rule == "RP-3"
    assert IMMOBILIZED_A not in game.trooper("Hassassin").tokens
    assert game.state.choice("placement", hassassin) is not None


def test_a_placement_left_open_is_kept_in_the_state_until_its_owner_makes_it_rp_2():
    """RP-2: the choice is state, not a log line; three Orders later it is
    still on the owner's phone only, and it goes once made."""
    game = holoecho_ended_on_a_marker(silhouette=5)
    hassassin = game.id("Hassassin")
    declare(game, "Kaplan", "move")
    end_order(game)
    end_turn(game)
    for name in ("Fusilier", "Bolt"):
        to_phase(game, ORDERS)
        declare(game, name, "move", seat="B")
        end_order(game)
    mine = game.view("A").my_choices
    assert [(c.kind, c.trooper_id, c.rule) for c in mine] == [("placement", hassassin, "RP-2")]
    assert game.view("B").my_choices == ()
    awaited = game.view("B").awaited_choices
    assert [(c.seat, c.rule, c.trooper_id, c.trooper_name) for c in awaited] == [
        ("A", "RP-2", "", "")
    ]
    events = game.do("A", ChooseReplacement(trooper_id=hassassin, how="edge"))
    assert events[0].kind == "ReplacementChosen" and events[0].private_to is None
    assert game.view("A").choices == () and game.view("B").choices == ()
    # Made once: neither a second choice nor a late "no room".
    with pytest.raises(NotAllowed):
        game.do("A", ReportNoRoom(trooper_id=hassassin))


def test_rp_1_placement_is_confirmed_centre_on_centre_or_reported_without_room():
    """RP-1 leaves only RP-3 open: placed as it was, or no room."""
    game = holoecho_ended_on_a_marker(silhouette=2)
    hassassin = game.id("Hassassin")
    assert [c.rule for c in game.view("A").my_choices] == ["RP-1"]
    game.do("A", ChooseReplacement(trooper_id=hassassin, how="centre"))
    assert game.view("A").choices == ()
    assert game.trooper("Hassassin").replacement_choice == "centre"


def test_a_hidden_deployment_placement_is_pending_for_its_owner_rp_1_rp_3():
    """HD-C2 places the model on the written point (RP-1); RP-3 stays open
    to its owner only, and only until it is placed."""
    game = started()
    to_phase(game, ORDERS)
    declare(game, "Ninja", "move")
    ninja = game.id("Ninja")
    assert [(c.trooper_id, c.rule) for c in game.view("A").my_choices] == [(ninja, "RP-1")]
    with pytest.raises(NotAllowed):
        game.do("B", ReportNoRoom(trooper_id=ninja))
    game.do("A", ReportNoRoom(trooper_id=ninja))
    assert game.trooper("Ninja").no_room and game.view("A").choices == ()
