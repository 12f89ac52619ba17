"""Camouflage markers (HD-C3, RT-5): which trooper stands under a marker is
private until the marker state ends; the opponent knows "Camouflage marker 1"
and can still target it."""

import json

import pytest

from tracker.rules.errors import RuleViolation, UnknownElement
from tracker.rules.orders import DeclareAro, ReportOutcome
from tracker.rules.retreat import RETREAT_ENTERED
from tracker.rules.state import (
    CAMOUFLAGE,
    HD_POSITION,
    HIDDEN_DEPLOYMENT,
    HOLOECHO,
    HOLOPROJECTOR,
    LIEUTENANT_CANDIDATE,
    ORDERS,
)
from tracker.rules.visibility import log_for

from .game import Game, trooper
from .hidden_games import (
    NINJA_AT,
    SPECTRE_AT,
    army_b,
    declare,
    end_order,
    secret,
    started,
    to_phase,
)


def ninja_as_marker():
    """Alice's hidden Ninja moves and is placed as its Camouflage marker (HD-C3)."""
    game = started()
    to_phase(game, ORDERS)
    declare(game, "Ninja", "move", as_marker=True)
    return game


def everything_bob_reads(game) -> str:
    """Bob's whole view and log, as text."""
    view = game.view("B")
    log = log_for(game.state, list(enumerate(game.events, 1)), "B")
    return repr(view) + json.dumps([line.params for line in log], default=str)


def test_the_opponent_sees_a_numbered_marker_not_the_trooper_hd_c3():
    """HD-C3 + RT-5: the marker state is private information."""
    game = ninja_as_marker()
    ninja = game.trooper("Ninja")
    assert ninja.marker and not ninja.hidden
    seen = everything_bob_reads(game)
    assert "Ninja" not in seen and ninja.id not in seen
    marker = game.view("B").trooper("markerA1")
    assert marker is not None and marker.name == "Camouflage marker 1" and marker.masked
    assert (marker.cost, marker.traits, marker.combat_group) == (0, (), 0)
    # Not in the Ninja's place in the list: markers come after everyone else.
    assert game.view("B").seat("A").troopers[-1].id == "markerA1"
    # The Order in progress is the marker's, by its reference.
    assert game.view("B").order.trooper_id == "markerA1"
    # Its owner still sees the Ninja, and which marker it is.
    mine = game.view("A").trooper(ninja.id)
    assert mine.name == "Ninja" and mine.marker_number == 1 and not mine.masked


def test_the_written_position_stays_sealed_while_it_is_a_marker_hd_c3():
    """HD-C3: the seal names the trooper; the opponent gets its fingerprint only."""
    game = ninja_as_marker()
    hd = secret(game, "Ninja", HD_POSITION)
    assert not hd.revealed
    seen = {s.id: s for s in game.view("B").seat("A").secrets}
    assert seen[hd.id].payload is None and seen[hd.id].trooper_id is None
    assert "NINJACANARY" not in everything_bob_reads(game)


def test_a_marker_with_holoechoes_is_named_by_its_marker_in_the_sealed_holoecho_hd_c3():
    """HD-C3 + HE (FAQ HD + Holoecho): a hidden Camouflage trooper with a
    Holoprojector placed as its marker. Its Holoecho seal is now public (its
    markers are on the table) and names its trooper: by the marker's
    reference, never the trooper's own id, which would say who it is."""
    a = [
        trooper("Spectre", 40, traits=[HIDDEN_DEPLOYMENT, CAMOUFLAGE, HOLOPROJECTOR]),
        trooper("Kaplan", 20, traits=[LIEUTENANT_CANDIDATE]),
    ]
    positions = {"model": "roof", "marker1": "street", "marker2": "tower"}
    game = Game.started(
        a,
        army_b(),
        seal_a={
            "lieutenant": "Kaplan",
            "hd": {"Spectre": SPECTRE_AT},
            "holoecho": {"Spectre": "marker2"},
            "he_positions": {"Spectre": positions},
        },
    )
    to_phase(game, ORDERS)
    declare(game, "Spectre", "move", as_marker=True)
    spectre = game.trooper("Spectre")
    assert spectre.marker and spectre.holoechoes
    holoecho = secret(game, "Spectre", HOLOECHO)
    for viewer in ("B", None):
        seen = {s.id: s for s in game.view(viewer).seat("A").secrets}
        assert seen[holoecho.id].trooper_id == "markerA1"
        assert seen[holoecho.id].payload is None
    assert spectre.id not in everything_bob_reads(game)
    # Its owner reads its own trooper.
    mine = {s.id: s for s in game.view("A").seat("A").secrets}
    assert mine[holoecho.id].trooper_id == spectre.id


def test_the_opponent_can_aro_against_the_marker_by_its_reference_hd_c3():
    """HE-3/HD-C3: a marker can be targeted; its true id is refused like an unknown one."""
    game = ninja_as_marker()
    target = game.view("B").order.trooper_id
    events = game.do(
        "B", DeclareAro(trooper_id=game.id("Fusilier"), skill="bs_attack", target_id=target)
    )
    assert events[-1].target_id == game.id("Ninja")  # ids in events
    assert "Ninja" not in everything_bob_reads(game)
    with pytest.raises(UnknownElement):
        game.do(
            "B",
            DeclareAro(trooper_id=game.id("Bolt"), skill="bs_attack", target_id=game.id("Ninja")),
        )


def test_a_refusal_never_names_the_trooper_under_a_marker():
    game = ninja_as_marker()
    with pytest.raises(RuleViolation) as refused:
        game.do("B", ReportOutcome(outcome="coherency_final", trooper_id="markerA1"))
    assert "Ninja" not in str(refused.value) and "Ninja" not in repr(refused.value.params)


@pytest.mark.parametrize(
    ("outcome", "rule"), [("discovered", "HD-C1"), ("saving_roll", "HD-C3"), ("contact", "HD-C3")]
)
def test_discovered_or_hit_the_marker_state_ends_and_the_opponent_learns_who(outcome, rule):
    """HD-C1/HD-C3: the marker is revealed, its sealed position with its proof."""
    game = ninja_as_marker()
    end_order(game)
    game.do("B", ReportOutcome(outcome=outcome, trooper_id="markerA1"))
    ninja = game.trooper("Ninja")
    assert not ninja.marker
    hd = {s.id: s for s in game.view("B").seat("A").secrets}[secret(game, "Ninja", HD_POSITION).id]
    assert hd.revealed_rule == rule and hd.verified and hd.payload["position"] == NINJA_AT
    assert game.view("B").trooper(ninja.id).name == "Ninja"
    # The old lines now name it too: the opponent has learnt which trooper it was.
    log = log_for(game.state, list(enumerate(game.events, 1)), "B")
    assert any(line.params.get("trooper_name") == "Ninja" for line in log)
    assert game.view("B").trooper("markerA1") is None


def test_a_declaration_a_marker_cannot_keep_reveals_it_hd_c3():
    game = ninja_as_marker()
    declare(game, "Ninja", "bs_attack")
    hd = secret(game, "Ninja", HD_POSITION)
    assert hd.revealed and hd.revealed_rule == "HD-C3"
    assert not game.trooper("Ninja").marker
    assert "MarkerRevealed" in [e.kind for e in game.events]


def test_retreat_ends_the_marker_state_rt_5():
    game = ninja_as_marker()
    end_order(game)
    for hook in RETREAT_ENTERED:
        game.apply(hook(game.state, "A"))
    hd = secret(game, "Ninja", HD_POSITION)
    assert hd.revealed and hd.revealed_rule == "RT-5"
    assert not game.trooper("Ninja").marker


def test_markers_are_numbered_in_the_order_they_go_down():
    """A second marker of the same player is "Camouflage marker 2"."""
    game = ninja_as_marker()
    end_order(game)
    first = game.trooper("Ninja")
    assert first.marker_number == 1
    assert game.view("B").trooper("markerA2") is None


def marker_line(game, viewer="B"):
    """The log line that ends the marker state, as `viewer` reads it."""
    log = log_for(game.state, list(enumerate(game.events, 1)), viewer)
    (line,) = [line for line in log if line.kind == "MarkerRevealed"]
    return line


@pytest.mark.parametrize(
    ("outcome", "rule", "says"),
    [
        ("discovered", "HD-C1", "was Discovered"),
        ("saving_roll", "HD-C3", "was hit and must make a Saving Roll"),
        ("contact", "HD-C3", "is in silhouette contact with an enemy"),
    ],
)
def test_the_line_ending_the_marker_names_the_reported_cause(outcome, rule, says):
    """A Discover (HD-C1), a hit or a contact ends the marker: its log line says
    so, not that it declared what a marker cannot keep (it declared nothing)."""
    game = ninja_as_marker()
    end_order(game)
    game.do("B", ReportOutcome(outcome=outcome, trooper_id="markerA1"))
    line = marker_line(game)
    assert line.rule == rule
    assert says in line.message % line.params
    assert "cannot keep" not in line.message


def test_the_line_ending_the_marker_by_a_declaration_says_so_hd_c3():
    game = ninja_as_marker()
    declare(game, "Ninja", "bs_attack")
    line = marker_line(game)
    assert line.rule == "HD-C3"
    assert "declares what a marker cannot keep" in line.message


def test_the_line_ending_the_marker_by_retreat_says_so_rt_5():
    game = ninja_as_marker()
    end_order(game)
    for hook in RETREAT_ENTERED:
        game.apply(hook(game.state, "A"))
    line = marker_line(game)
    assert line.rule == "RT-5"
    assert "Retreat!" in line.message and "cannot keep" not in line.message


def test_an_old_marker_line_without_a_cause_reads_its_cause_from_its_rule():
    """Events written before the cause was kept: HD-C1 still reads as a Discover."""
    from tracker.rules.hidden_deployment import MarkerRevealed

    old = MarkerRevealed.from_data(
        {"trooper_id": "t1", "trooper_name": "Ninja", "seat": "A", "rule": "HD-C1"}
    )
    message, _params = old.describe()
    assert "was Discovered" in message


def test_a_discover_aro_against_a_cautious_movement_marker_reads_as_the_discover_hd_c1():
    """The tester's steps: Cautious Movement as its marker (HD-C3), the
    opponent's ARO is Discover, then "Successfully Discovered" in that Order."""
    game = started()
    to_phase(game, ORDERS)
    declare(game, "Ninja", "cautious_move", as_marker=True)
    game.do(
        "B",
        DeclareAro(trooper_id=game.id("Fusilier"), skill="discover", target_id="markerA1"),
    )
    game.do("B", ReportOutcome(outcome="discovered", trooper_id="markerA1"))
    for viewer in ("A", "B"):
        line = marker_line(game, viewer)
        assert line.rule == "HD-C1"
        assert line.message % line.params == (
            "Ninja was Discovered: its marker state ends and its model replaces the marker."
        )


def test_bobs_report_form_offers_the_marker_by_its_reference_hd_c3_hd_c1():
    """HD-C3 + HD-C1: Bob may report that he Discovered the marker, so his
    report form offers it, by the reference his view gives it; never by the
    trooper's id, which the server would refuse from him like an unknown one."""
    game = ninja_as_marker()
    ninja = game.trooper("Ninja")
    offers = game.view("B").report_offers
    on_marker = [o for o in offers if "markerA1" in o.trooper_ids]
    assert on_marker and "discovered" in on_marker[0].outcomes
    assert all(ninja.id not in o.trooper_ids for o in offers)
