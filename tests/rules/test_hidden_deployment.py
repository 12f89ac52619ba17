"""HD — Hidden Deployment: HD-1..HD-7, HD-C1..HD-C4, FAQ HD + Holoecho."""

import pytest

from tracker.rules.errors import InvalidInput, NotAllowed, UnknownElement
from tracker.rules.orders import ReportOutcome
from tracker.rules.retreat import RETREAT_ENTERED
from tracker.rules.sealing import RevealSecret, SealDeployment
from tracker.rules.setup import SetInitiative
from tracker.rules.state import (
    CAMOUFLAGE,
    HD_POSITION,
    HOLOECHO,
    IMPETUOUS,
    IMPETUOUS_PHASE,
    ORDERS,
    STATES,
)
from tracker.rules.token_tactical import CoordinatedOrder
from tracker.rules.token_uses import ChangeCombatGroup
from tracker.rules.visibility import player_view, redact_log

from .game import Game, trooper
from .hidden_games import (
    NINJA_AT,
    SPECTRE_AT,
    YAOGAT_AT,
    army_a,
    army_b,
    aro,
    declare,
    end_order,
    end_turn,
    hidden_holo_game,
    of_kind,
    report,
    secret,
    started,
    to_phase,
)


def run_retreat_hooks(game, seat):
    """What retreat.enter_retreat does after RetreatDeclared: every hook in turn."""
    for hook in RETREAT_ENTERED:
        game.apply(hook(game.state, seat))


def assert_revealed_to_bob(game, name, rule, position):
    seen = {s.id: s for s in game.view("B").seat("A").secrets}
    hd = seen[secret(game, name, HD_POSITION).id]
    assert hd.revealed_rule == rule
    assert hd.payload["position"] == position and hd.verified is True
    assert game.view("B").trooper(game.id(name)) is not None


# ------------------------------------------------------------------ HD-1..7


def test_hidden_trooper_puts_nothing_on_the_table_and_its_existence_is_private_hd_1():
    """HD-1."""
    game = started()
    ninja = game.trooper("Ninja")
    assert ninja.hidden and not ninja.marker
    bob = game.view("B")
    assert bob.trooper(ninja.id) is None
    assert "hd_position" not in {s.kind for s in bob.seat("A").secrets}
    assert "NINJACANARY" not in repr(bob) and "Ninja" not in repr(bob)
    assert game.view("A").trooper(ninja.id).hidden


@pytest.mark.parametrize("outcome", ["saving_roll", "contact", "coherency_initial"])
def test_a_hidden_trooper_cannot_be_hit_or_touched_hd_2(outcome):
    """HD-2."""
    game = started()
    with pytest.raises(NotAllowed) as refused:
        report(game, outcome, "Ninja", by="A")
    assert refused.value.rule == "HD-2"
    assert game.trooper("Ninja").hidden


def test_the_opponent_cannot_name_a_hidden_trooper_and_the_refusal_matches_unknown_ids_hd_2():
    """HD-2."""
    game = started()
    with pytest.raises(UnknownElement) as hidden:
        game.do("B", ReportOutcome(outcome="saving_roll", trooper_id=game.id("Ninja")))
    with pytest.raises(UnknownElement) as unknown:
        game.do("B", ReportOutcome(outcome="saving_roll", trooper_id="t999999"))
    assert (hidden.value.message, hidden.value.params) == (
        unknown.value.message,
        unknown.value.params,
    )


def test_order_pool_never_counts_a_hidden_trooper_hd_3():
    """HD-3."""
    with_hidden = started()
    without = Game.started(
        [t for t in army_a() if t["name"] not in ("Ninja", "Yaogat")],
        army_b(),
        seal_a={"lieutenant": "Kaplan", "holoecho": {"Hassassin": "marker1"}},
    )
    assert (
        with_hidden.view("B").seat("A").regular_orders == without.view("B").seat("A").regular_orders
    )
    assert with_hidden.view("B").orders_left == without.view("B").orders_left


def test_hidden_trooper_uses_its_kept_apart_order_once_placed_in_its_active_turn_hd_3():
    """HD-3."""
    game = started()
    to_phase(game, ORDERS)
    before = game.view("B").orders_left
    events = declare(game, "Ninja", "move")
    started_ = of_kind(events, "OrderStarted")[0]
    assert started_.source == "own" and started_.private_to == "A"
    assert game.view("B").orders_left == before  # the Pool is untouched
    end_order(game)
    # Its own Order is spent: a second Order comes from the Pool.
    events = declare(game, "Ninja", "move")
    assert of_kind(events, "OrderStarted")[0].source == "group:1"
    assert game.view("B").orders_left[1] == before[1] - 1


def test_trooper_placed_by_a_rule_in_its_active_turn_keeps_its_own_order_hd_3():
    """HD-3."""
    game = started()
    to_phase(game, ORDERS)
    report(game, "discovered", "Ninja", by="A")  # found by a Sensor: HD-C1
    events = declare(game, "Ninja", "move")
    assert of_kind(events, "OrderStarted")[0].source == "own"


def test_failed_infiltration_places_the_model_on_a_table_edge_hd_4():
    """HD-4."""
    game = Game.listed(army_a(), army_b())
    game.do("A", SetInitiative(first_turn="A", deploys_first="A"))
    game.seal(
        "A",
        lieutenant="Kaplan",
        hd={"Ninja": NINJA_AT, "Yaogat": YAOGAT_AT},
        holoecho={"Hassassin": "model"},
    )
    events = game.do(
        "A", ReportOutcome(outcome="infiltration_failed", trooper_id=game.id("Yaogat"))
    )
    ended = of_kind(events, "HiddenDeploymentEnded")[0]
    assert ended.on_edge and ended.rule == "HD-4" and ended.private_to is None
    assert not game.trooper("Yaogat").hidden
    assert_revealed_to_bob(game, "Yaogat", "HD-4", YAOGAT_AT)
    assert game.trooper("Ninja").hidden  # the other one stays hidden


def test_infiltration_roll_only_for_a_hidden_infiltrator_and_only_at_deployment_hd_4():
    """HD-4."""
    game = started()
    with pytest.raises(NotAllowed) as no_skill:
        report(game, "infiltration_failed", "Ninja", by="A")
    assert no_skill.value.rule == "HD-4"
    to_phase(game, ORDERS)
    with pytest.raises(NotAllowed) as too_late:
        report(game, "infiltration_failed", "Yaogat", by="A")
    assert too_late.value.rule == "HD-4"


def test_infiltration_passed_means_nothing_to_report_and_trooper_stays_hidden_hd_4():
    """HD-4."""
    game = started()
    # Round 1, first Tactical Phase: still in time to report a failure.
    assert game.state.turn.round == 1 and game.state.turn.phase == "tactical"
    assert game.trooper("Yaogat").hidden


def test_command_token_group_change_tells_only_that_a_hidden_trooper_exists_hd_5():
    """HD-5."""
    game = started()
    events = game.do("A", ChangeCombatGroup(trooper_id=game.id("Ninja"), group=2))
    public = [e for e in events if e.visible_to("B")]
    assert any(e.rule == "HD-5" for e in public)
    assert "Ninja" not in repr(public) and game.id("Ninja") not in repr(public)
    assert game.trooper("Ninja").hidden and game.view("B").trooper(game.id("Ninja")) is None


def test_coordinated_order_places_a_hidden_trooper_and_spends_its_own_order_hd_6():
    """HD-6."""
    game = started()
    to_phase(game, ORDERS)
    events = game.do("A", CoordinatedOrder(trooper_ids=[game.id("Kaplan"), game.id("Ninja")]))
    assert not game.trooper("Ninja").hidden
    assert of_kind(events, "HiddenDeploymentEnded")[0].rule == "HD-C2"
    end_order(game)
    # Its kept-apart Order went with the Coordinated Order: the Pool pays now.
    events = declare(game, "Ninja", "move")
    assert of_kind(events, "OrderStarted")[0].source == "group:1"


def test_hidden_deployment_is_never_regained_hd_7():
    """HD-7."""
    game = started()
    to_phase(game, ORDERS)
    declare(game, "Ninja", "move")
    end_order(game)
    end_turn(game)
    end_turn(game)
    assert not game.trooper("Ninja").hidden
    # No kept-apart Order either: it is in the Pool like any trooper on the table.
    to_phase(game, ORDERS)
    assert of_kind(declare(game, "Ninja", "move"), "OrderStarted")[0].source == "group:1"
    with pytest.raises(NotAllowed):
        game.do("A", SealDeployment(secrets=[]))


def test_the_owner_cannot_end_hidden_deployment_by_hand():
    game = started()
    with pytest.raises(NotAllowed):
        game.do("A", RevealSecret(secret_id=secret(game, "Ninja", HD_POSITION).id))
    assert game.trooper("Ninja").hidden


# ------------------------------------------------------------ HD-C1..C4


def _discovered(game):
    report(game, "discovered", "Ninja", by="A")


def _declares_short_skill(game):
    to_phase(game, ORDERS)
    declare(game, "Ninja", "bs_attack")


def _declares_entire_order(game):
    to_phase(game, ORDERS)
    declare(game, "Ninja", "suppressive_fire")


def _declares_aro(game):
    end_turn(game)
    to_phase(game, ORDERS)
    declare(game, "Bolt", "move", seat="B")
    aro(game, "Ninja", "bs_attack", target="Bolt")


def _moves_as_marker(game):
    to_phase(game, ORDERS)
    declare(game, "Ninja", "move", as_marker=True)


def _becomes_impetuous(game):
    report(game, "impetuous", "Ninja", by="A")


def _army_retreats(game):
    run_retreat_hooks(game, "A")


def _activated_in_impetuous_phase(game):
    # Only a trooper with an Impetuous Order acts in the Impetuous Phase.
    ninja = game.trooper("Ninja")
    game.state = game.state.with_trooper(ninja.id, traits=ninja.traits | {IMPETUOUS})
    to_phase(game, IMPETUOUS_PHASE)
    declare(game, "Ninja", "move")


@pytest.mark.parametrize(
    ("trigger", "rule", "as_marker"),
    [
        (_discovered, "HD-C1", False),
        (_declares_short_skill, "HD-C2", False),
        (_declares_entire_order, "HD-C2", False),
        (_declares_aro, "HD-C2", False),
        # HD-C3 keeps the seal closed while the trooper is a marker (RT-5):
        # tests/rules/test_markers.py.
        (_becomes_impetuous, "HD-C4", False),
        (_army_retreats, "HD-C4", False),
        (_activated_in_impetuous_phase, "HD-C4", False),
    ],
)
def test_each_cancellation_reveals_the_written_position_to_both_phones(trigger, rule, as_marker):
    game = started()
    trigger(game)
    ninja = game.trooper("Ninja")
    assert not ninja.hidden and ninja.marker is as_marker
    assert_revealed_to_bob(game, "Ninja", rule, NINJA_AT)
    reveal = [e for e in game.events if e.kind == "SecretRevealed" and e.secret_kind == HD_POSITION]
    assert reveal[-1].private_to is None and reveal[-1].nonce
    if trigger is not _army_retreats:  # Retreat! places every hidden trooper
        assert game.trooper("Yaogat").hidden


def test_declaration_of_a_hidden_trooper_is_public_only_after_its_placement_hd_c2():
    """HD-C2."""
    game = started()
    to_phase(game, ORDERS)
    events = declare(game, "Ninja", "bs_attack")
    kinds = [e.kind for e in events]
    assert kinds.index("HiddenDeploymentEnded") < kinds.index("SkillDeclared")
    assert of_kind(events, "SkillDeclared")[0].private_to is None


@pytest.mark.parametrize("skill", ["cautious_move", "move", "jump", "climb", "mount", "dismount"])
def test_camouflaged_trooper_keeps_its_marker_with_movement_without_roll_hd_c3(skill):
    """HD-C3."""
    game = started()
    to_phase(game, ORDERS)
    declare(game, "Ninja", skill, as_marker=True)
    assert game.trooper("Ninja").marker


@pytest.mark.parametrize("skill", ["bs_attack", "alert", "discover", "dodge", "activate", "idle"])
def test_any_other_declaration_places_the_model_not_the_marker_hd_c3(skill):
    """HD-C3."""
    game = started()
    to_phase(game, ORDERS)
    with pytest.raises(NotAllowed) as refused:
        declare(game, "Ninja", skill, as_marker=True)
    assert refused.value.rule == "HD-C3"
    assert game.trooper("Ninja").hidden  # nothing happened
    declare(game, "Ninja", skill)
    assert not game.trooper("Ninja").marker


def reactive_ninja_game():
    """Bob plays first with a Holoecho trooper; Alice's Camouflage Ninja is hidden."""
    return Game.started(
        [trooper("Ninja", 30, traits=["hidden_deployment", "camouflage"]), trooper("Kaplan", 20)],
        [trooper("Hassassin", 40, traits=["holoprojector"]), trooper("Fusilier", 10)],
        first="B",
        seal_a={"lieutenant": "Kaplan", "hd": {"Ninja": NINJA_AT}},
        seal_b={"lieutenant": "Fusilier", "holoecho": {"Hassassin": "marker1"}},
    )


def test_delaying_an_aro_against_a_marker_keeps_the_marker_hd_c3():
    """HD-C3."""
    game = reactive_ninja_game()
    to_phase(game, ORDERS)
    declare(game, "Hassassin", "move", seat="B")
    aro(game, "Ninja", "delay_aro", target="Hassassin", as_marker=True)
    ninja = game.trooper("Ninja")
    assert not ninja.hidden and ninja.marker


def test_a_reactive_attack_places_the_model_even_against_a_marker_hd_c3():
    """HD-C3."""
    game = reactive_ninja_game()
    to_phase(game, ORDERS)
    declare(game, "Hassassin", "move", seat="B")
    with pytest.raises(NotAllowed) as refused:
        aro(game, "Ninja", "bs_attack", target="Hassassin", element="model", as_marker=True)
    assert refused.value.rule == "HD-C3"
    aro(game, "Ninja", "bs_attack", target="Hassassin", element="model")
    assert not game.trooper("Ninja").marker


def test_stopping_an_enemy_going_back_to_a_marker_state_keeps_the_marker_hd_c3():
    """HD-C3."""
    game = reactive_ninja_game()
    to_phase(game, ORDERS)
    declare(game, "Fusilier", "move", seat="B")
    aro(game, "Ninja", "prevent_marker", as_marker=True)
    assert game.trooper("Ninja").marker


def test_marker_placement_needs_a_marker_skill_hd_c3():
    """HD-C3."""
    game = Game.started(
        [trooper("Sniper", 30, traits=["hidden_deployment"]), trooper("Kaplan", 20)],
        army_b(),
        seal_a={"lieutenant": "Kaplan", "hd": {"Sniper": "window"}},
    )
    assert not game.trooper("Sniper").has(CAMOUFLAGE)
    to_phase(game, ORDERS)
    with pytest.raises(NotAllowed) as refused:
        declare(game, "Sniper", "move", as_marker=True)
    assert refused.value.rule == "HD-C3"


def test_as_marker_on_a_trooper_already_on_the_table_is_refused_hd_c3():
    """HD-C3."""
    game = started()
    to_phase(game, ORDERS)
    with pytest.raises(NotAllowed) as refused:
        declare(game, "Kaplan", "move", as_marker=True)
    assert refused.value.rule == "HD-C3"


def test_troopers_that_ignore_retreat_stay_hidden_hd_c4():
    """HD-C4."""
    game = Game.started(
        [trooper("Monk", 30, traits=["hidden_deployment", "religious"]), trooper("Kaplan", 20)],
        army_b(),
        seal_a={"lieutenant": "Kaplan", "hd": {"Monk": "chapel"}},
    )
    run_retreat_hooks(game, "A")
    assert game.trooper("Monk").hidden


# ---------------------------------------------------- FAQ HD + Holoecho


def test_hidden_holoecho_trooper_seals_positions_of_all_three_and_the_real_one():
    game = hidden_holo_game()
    choice = secret(game, "Spectre", HOLOECHO)
    assert set(choice.payload["positions"]) == {"model", "marker1", "marker2"}
    assert choice.payload["real"] == "marker2" and not choice.existence_public
    bob = repr(game.view("B"))
    assert "CANARY" not in bob and "Spectre" not in bob


def test_hidden_holoecho_seal_needs_the_three_positions():
    game = Game.listed(
        [trooper("Spectre", 40, traits=["hidden_deployment", "holoprojector"]), trooper("K", 20)],
        army_b(),
    )
    game.do("A", SetInitiative(first_turn="A", deploys_first="A"))
    with pytest.raises(InvalidInput):
        game.seal("A", lieutenant="K", hd={"Spectre": "x"}, holoecho={"Spectre": "model"})


def test_when_hd_ends_a_holoecho_trooper_checks_coherency_faq():
    game = hidden_holo_game(real="marker2")
    report(game, "discovered", "Spectre", by="A")
    ended = of_kind(game.events, "HiddenDeploymentEnded")[-1]
    assert ended.holoecho and ended.rule == "HD-C1"
    assert_revealed_to_bob(game, "Spectre", "HD-C1", SPECTRE_AT)
    # The Holoecho choice now exists for Bob, still sealed.
    seen = {s.kind: s for s in game.view("B").seat("A").secrets}
    assert seen[HOLOECHO].payload is None and seen[HOLOECHO].fingerprint
    assert game.view("B").trooper(game.id("Spectre")).holoechoes == ("model", "marker1", "marker2")
    # A decoy out of Coherency leaves (HE-D4); the secret stays sealed.
    events = report(game, "coherency", "Spectre", element="marker1", by="A")
    assert of_kind(events, "DecoyRemoved")[0].rule == "HE-D4"
    assert not of_kind(events, "SecretRevealed")
    # The real one out of Coherency ends Holoecho (HE-C7).
    events = report(game, "coherency", "Spectre", element="marker2", by="A")
    assert of_kind(events, "SecretRevealed")[0].rule == "HE-C7"
    assert game.trooper("Spectre").holoechoes == ()


def test_when_hd_ends_bob_reads_the_three_written_holoecho_positions_not_the_real_one():
    """FAQ HD + Holoecho: the three positions are on the table for Bob to
    check; which one is real stays sealed (the same text whatever is real)."""
    lines = {}
    for real in ("model", "marker2"):
        game = hidden_holo_game(real=real)
        report(game, "discovered", "Spectre", by="A")
        line = [
            line
            for line in redact_log(enumerate(game.events, 1), "B")
            if line.kind == "HiddenDeploymentEnded"
        ][-1]
        text = line.message % line.params
        for where in ("HEMODELCANARY roof", "HEONECANARY street", "HETWOCANARY tower"):
            assert where in text
        assert "real" not in line.params.get("positions", {})
        lines[real] = text
        assert not secret(game, "Spectre", HOLOECHO).revealed
    assert lines["model"] == lines["marker2"]


def test_hidden_holoecho_trooper_that_becomes_impetuous_ends_both_in_order():
    game = hidden_holo_game()
    events = report(game, "impetuous", "Spectre", by="A")
    rules = [e.rule for e in of_kind(events, "SecretRevealed")]
    assert rules == ["HD-C4", "HE-C6"]


def test_retreat_ends_hd_then_holoecho_hd_c4_he_c6():
    """HD-C4, HE-C6."""
    game = hidden_holo_game()
    run_retreat_hooks(game, "A")
    rules = [e.rule for e in game.events if e.kind == "SecretRevealed"]
    assert rules == ["HD-C4", "HE-C6"]
    assert not game.trooper("Spectre").hidden and game.trooper("Spectre").holoechoes == ()


def test_events_about_a_hidden_trooper_stay_private_until_the_reveal():
    game = started()
    to_phase(game, STATES)
    for event in game.events:
        if "Ninja" in repr(event) or game.id("Ninja") in repr(event):
            assert event.private_to == "A", event
    assert "NINJACANARY" not in repr(player_view(game.state, "B"))


def test_a_marker_left_by_hd_c3_that_attacks_is_replaced_by_its_model():
    """HD-C3: only its listed declarations keep the marker; a BS Attack puts
    the model on the table, with the replacement explained (RP-1/RP-2)."""
    from tracker.rules.orders import DeclareSkill, EndOrder
    from tracker.rules.state import CAMOUFLAGE, HIDDEN_DEPLOYMENT, ORDERS

    from .game import Game, trooper

    game = Game.started(
        [
            trooper("Ninja", 30, traits=[HIDDEN_DEPLOYMENT, CAMOUFLAGE]),
            trooper("Kaplan", 20),
            trooper("Khawarij", 25),
        ],
        [trooper("Fusilier", 10)],
        seal_a={"lieutenant": "Kaplan", "hd": {"Ninja": "roof"}},
    )
    to_phase(game, ORDERS)
    game.do("A", DeclareSkill(trooper_id=game.id("Ninja"), skill="cautious_move", as_marker=True))
    game.do("A", EndOrder())
    assert game.trooper("Ninja").marker
    game.do("A", DeclareSkill(trooper_id=game.id("Ninja"), skill="move"))
    assert game.trooper("Ninja").marker  # movement without a roll keeps it
    game.do("A", EndOrder())
    events = game.do("A", DeclareSkill(trooper_id=game.id("Ninja"), skill="bs_attack"))
    assert not game.trooper("Ninja").marker
    assert "MarkerRevealed" in game.kinds(events) and "ElementReplaced" in game.kinds(events)


def test_successfully_discovered_needs_something_to_discover_hd_c1_he_5():
    """HD-C1, HE-5: a Discover finds a hidden trooper, a marker or a Holoecho;
    a report on a plain model is refused with a reason, and nothing is logged."""
    game = started()
    to_phase(game, ORDERS)
    before = len(game.events)
    with pytest.raises(NotAllowed) as refused:
        report(game, "discovered", "Kaplan", by="B")
    assert "nothing to Discover" in str(refused.value) and refused.value.rule == "HE-5"
    assert len(game.events) == before
    # The same report on a Holoecho, or by its owner on a hidden trooper, stands.
    report(game, "discovered", "Hassassin", element="marker2", by="B")
    report(game, "discovered", "Ninja", by="A")
    assert not game.trooper("Ninja").hidden
