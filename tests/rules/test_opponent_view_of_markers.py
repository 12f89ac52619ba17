"""HD-C3: what the opponent reads of Camouflage markers beside the troopers it
sees. A marker's line must not say which trooper stands under it: not by its
silhouette, nor by its place among the opponent's troopers (the army list's
order is public once the lists are locked)."""

from tracker.rules.orders import DeclareAro
from tracker.rules.state import CAMOUFLAGE, HIDDEN_DEPLOYMENT, LIEUTENANT_CANDIDATE, ORDERS
from tracker.rules.token_tactical import CoordinatedOrder
from tracker.rules.visibility import log_for

from .game import Game, trooper
from .hidden_games import (
    NINJA_AT,
    YAOGAT_AT,
    army_a,
    army_b,
    declare,
    end_order,
    end_turn,
    to_phase,
)
from .test_markers import everything_bob_reads, ninja_as_marker


def bobs_log(game):
    return log_for(game.state, list(enumerate(game.events, 1)), "B")


def two_markers() -> Game:
    """Alice's two hidden Camouflage troopers head her list; the second one in
    the list goes down as a marker first (marker 1), then the first (marker 2)."""
    a = [
        trooper("Ninja", 30, silhouette=3, traits=[HIDDEN_DEPLOYMENT, CAMOUFLAGE]),
        trooper("Oniwaban", 35, silhouette=2, traits=[HIDDEN_DEPLOYMENT, CAMOUFLAGE]),
        trooper("Hassassin", 40),
        trooper("Kaplan", 20, traits=[LIEUTENANT_CANDIDATE]),
    ]
    game = Game.started(
        a,
        army_b(),
        seal_a={"lieutenant": "Kaplan", "hd": {"Ninja": "roof", "Oniwaban": "bridge"}},
    )
    to_phase(game, ORDERS)
    declare(game, "Oniwaban", "move", as_marker=True)
    end_order(game)
    declare(game, "Ninja", "move", as_marker=True)
    end_order(game)
    assert game.trooper("Oniwaban").marker_number == 1
    assert game.trooper("Ninja").marker_number == 2
    return game


def test_markers_come_after_the_troopers_by_marker_number_not_list_place_hd_c3():
    """HD-C3: the opponent reads the visible troopers in list order, then the
    markers by their public number, whatever their place in the army list."""
    game = two_markers()
    ids = [t.id for t in game.view("B").seat("A").troopers]
    assert ids == [game.id("Hassassin"), game.id("Kaplan"), "markerA1", "markerA2"]
    for viewer in ("B", None):
        assert [t.id for t in game.view(viewer).seat("A").troopers][2:] == [
            "markerA1",
            "markerA2",
        ]
    # Its owner reads her own list in its order, markers and all.
    assert [t.name for t in game.view("A").seat("A").troopers] == [
        "Ninja",
        "Oniwaban",
        "Hassassin",
        "Kaplan",
    ]


def test_a_marker_shows_no_silhouette_hd_c3():
    """HD-C3: a marker's silhouette would tell a Ninja (S3) from an Oniwaban (S2)."""
    game = two_markers()
    for viewer in ("B", None):
        markers = [t for t in game.view(viewer).seat("A").troopers if t.masked]
        assert [t.id for t in markers] == ["markerA1", "markerA2"]
        assert [(t.silhouette, t.combat_group, t.cost, t.traits) for t in markers] == [
            (0, 0, 0, ()),
            (0, 0, 0, ()),
        ]
    mine = game.view("A").trooper(game.id("Ninja"))
    assert (mine.silhouette, mine.marker_number) == (3, 2)


def test_a_coordinated_order_names_a_marker_by_its_reference_hd_c3_tm_t1():
    """TM-T1 with a Camouflage marker among its troopers: the marker keeps its
    state, and the Coordinated Order's line lists it by reference and marker
    name, never by the trooper's id or name."""
    game = ninja_as_marker()
    end_order(game)
    ninja, kaplan = game.id("Ninja"), game.id("Kaplan")
    game.do("A", CoordinatedOrder(trooper_ids=[ninja, kaplan]))
    assert game.trooper("Ninja").marker
    (line,) = [x for x in bobs_log(game) if x.kind == "CoordinatedOrderDeclared"]
    assert line.params["trooper_ids"] == ["markerA1", kaplan]
    assert line.params["names"] == "Camouflage marker 1, Kaplan"
    seen = everything_bob_reads(game)
    assert ninja not in seen and "Ninja" not in seen
    (alices,) = [
        x
        for x in log_for(game.state, list(enumerate(game.events, 1)), "A")
        if x.kind == "CoordinatedOrderDeclared"
    ]
    assert alices.params["trooper_ids"] == [ninja, kaplan]


def test_each_players_markers_are_told_apart_hd_c3():
    """HD-C3: both players have a "Camouflage marker 1" on the table; an ARO
    against Bob's names Bob's, by the reference Alice's view gives it."""
    b = [
        *army_b(),
        trooper("Oniwaban", 35, traits=[HIDDEN_DEPLOYMENT, CAMOUFLAGE]),
    ]
    game = Game.started(
        army_a(),
        b,
        seal_a={
            "lieutenant": "Kaplan",
            "hd": {"Ninja": NINJA_AT, "Yaogat": YAOGAT_AT},
            "holoecho": {"Hassassin": "marker1"},
        },
        seal_b={"lieutenant": "Fusilier", "hd": {"Oniwaban": "bridge"}},
    )
    to_phase(game, ORDERS)
    declare(game, "Ninja", "move", as_marker=True)
    end_order(game)
    end_turn(game)
    to_phase(game, ORDERS)
    declare(game, "Oniwaban", "move", seat="B", as_marker=True)
    assert game.trooper("Ninja").marker_number == game.trooper("Oniwaban").marker_number == 1
    target = game.view("A").order.trooper_id
    assert target == "markerB1" and game.view("B").trooper("markerA1").masked
    events = game.do(
        "A", DeclareAro(trooper_id=game.id("Kaplan"), skill="bs_attack", target_id=target)
    )
    assert events[-1].target_id == game.id("Oniwaban")
