"""HE — Holoecho: HE-A1..A3, HE-1..10, HE-C1..C7, HE-D1..D5, HE-T."""

import pytest

from tracker.rules.conditions import SetTrooperState
from tracker.rules.errors import InvalidInput, NotAllowed
from tracker.rules.holoecho import (
    ActivateHoloecho,
    AnswerActivateRoll,
    PlaceHoloechoToken,
    refuse_fireteam,
)
from tracker.rules.orders import ARO_AGAINST_ELEMENT, DeclareSkill
from tracker.rules.retreat import RETREAT_ENTERED
from tracker.rules.sealing import RevealSecret
from tracker.rules.state import HOLOECHO, ORDERS, STATES

from .game import nonce
from .hidden_games import (
    aro,
    declare,
    end_order,
    end_turn,
    of_kind,
    report,
    secret,
    started,
    to_phase,
)

ALL = ("model", "marker1", "marker2")


def in_orders(real="marker1", first="A"):
    game = started(real=real, first=first)
    to_phase(game, ORDERS)
    return game


def bob_sees_real(game):
    seen = {s.id: s for s in game.view("B").seat("A").secrets}
    payload = seen[secret(game, "Hassassin", HOLOECHO).id].payload
    return payload["real"] if payload else None


def activate(game, real="model", n=1, seat="A"):
    return game.do(
        seat,
        ActivateHoloecho(
            trooper_id=game.id("Hassassin"), real=real, secret_id=f"re{n:06d}", nonce=nonce(900 + n)
        ),
    )


def end_holoecho_by_hit(game):
    """Bob hits the real one (marker1 by default) in Alice's Orders Phase."""
    declare(game, "Hassassin", "move")
    report(game, "saving_roll", "Hassassin", element=game_real(game))
    end_order(game)


def game_real(game):
    return secret(game, "Hassassin", HOLOECHO).payload["real"]


# ------------------------------------------------------------ activation


def test_bearer_deploys_with_three_holoechoes_and_a_sealed_choice_he_a1():
    """HE-A1."""
    game = started(real="marker2")
    assert game.trooper("Hassassin").holoechoes == ALL
    bob = game.view("B")
    assert bob.trooper(game.id("Hassassin")).holoechoes == ALL
    seen = [s for s in bob.seat("A").secrets if s.kind == HOLOECHO][0]
    assert seen.payload is None and seen.nonce is None and seen.fingerprint
    assert bob_sees_real(game) is None


def test_holoecho_comes_back_in_the_states_phase_with_a_new_sealed_choice_he_a2():
    """HE-A2."""
    game = in_orders()
    end_holoecho_by_hit(game)
    to_phase(game, STATES)
    events = activate(game, real="marker2")
    sealed = of_kind(events, "SecretsSealed")[0]
    assert sealed.private_to == "A"
    activated = of_kind(events, "HoloechoActivated")[0]
    assert activated.rule == "HE-A2" and activated.private_to is None
    assert "marker2" not in repr(activated)
    assert game.trooper("Hassassin").holoechoes == ALL
    assert bob_sees_real(game) is None
    assert game_real(game) == "marker2"


def test_holoecho_comes_back_with_an_entire_order_in_the_active_turn_he_a3():
    """HE-A3."""
    game = in_orders()
    end_holoecho_by_hit(game)
    events = activate(game, real="model")
    kinds = [e.kind for e in events]
    assert kinds[:2] == ["OrderStarted", "SkillDeclared"]
    assert of_kind(events, "SkillDeclared")[0].skill == "holoecho_activate"
    assert of_kind(events, "HoloechoActivated")[0].rule == "HE-A3"
    end_order(game)  # the new Holoecho is not cancelled by its own Entire Order
    assert game.trooper("Hassassin").holoechoes == ALL and bob_sees_real(game) is None


def test_declaring_holoecho_activation_without_a_sealed_choice_is_refused_he_a3():
    """HE-A3."""
    game = in_orders()
    with pytest.raises(InvalidInput) as refused:
        declare(game, "Hassassin", "holoecho_activate")
    assert refused.value.rule == "HE-A3"


def test_activation_is_refused_while_in_holoecho_or_outside_its_phases_he_a2_he_a3():
    """HE-A2, HE-A3."""
    game = started()
    with pytest.raises(NotAllowed):
        activate(game)  # already in Holoecho
    to_phase(game, ORDERS)
    end_holoecho_by_hit(game)
    end_turn(game)  # Bob's Tactical Phase: neither HE-A2 nor HE-A3
    with pytest.raises(NotAllowed) as refused:
        activate(game)
    assert refused.value.rule == "HE-A3"


def test_activation_needs_a_well_formed_seal():
    game = in_orders()
    end_holoecho_by_hit(game)
    with pytest.raises(InvalidInput):
        game.do(
            "A",
            ActivateHoloecho(
                trooper_id=game.id("Hassassin"), real="model", secret_id="x", nonce="1"
            ),
        )
    with pytest.raises(InvalidInput):
        activate(game, real="marker3")


# --------------------------------------------------------------- effects


def test_decoys_are_idle_on_activate_and_nothing_is_revealed_he_1():
    """HE-1: an Activate that needs no roll keeps Holoecho."""
    game = in_orders()
    events = declare(game, "Hassassin", "activate")
    assert of_kind(events, "DecoysIdle")[0].rule == "HE-1"
    game.do("A", AnswerActivateRoll(trooper_id=game.id("Hassassin"), answer="no_roll"))
    end_order(game)
    assert not secret(game, "Hassassin", HOLOECHO).revealed


def test_activate_by_a_holoecho_asks_its_player_whether_it_needs_a_roll_he_1_he_c1():
    """HE-1, then HE-C1 when the Activate needs a roll: the question is a
    choice kept for its owner, and the Order cannot end before the answer."""
    game = in_orders(real="marker2")
    hassassin = game.id("Hassassin")
    events = declare(game, "Hassassin", "activate")
    asked = of_kind(events, "ActivateRollAsked")
    assert asked and asked[0].rule == "HE-1" and asked[0].private_to is None
    assert [(c.kind, c.rule) for c in game.view("A").my_choices] == [("activate_roll", "HE-1")]
    assert game.view("B").my_choices == ()
    with pytest.raises(NotAllowed) as too_early:
        end_order(game)
    assert too_early.value.rule == "HE-1"
    with pytest.raises(NotAllowed):
        game.do("B", AnswerActivateRoll(trooper_id=hassassin, answer="roll"))
    with pytest.raises(InvalidInput):
        game.do("A", AnswerActivateRoll(trooper_id=hassassin, answer=""))
    events = game.do("A", AnswerActivateRoll(trooper_id=hassassin, answer="roll"))
    assert of_kind(events, "HoloechoCancelled")[0].rule == "HE-C1"
    assert game.view("A").choices == ()
    end_order(game)
    revealed = secret(game, "Hassassin", HOLOECHO)
    assert revealed.revealed and revealed.revealed_rule == "HE-C1"


def test_activate_of_a_trooper_without_holoecho_asks_nothing():
    game = in_orders()
    events = declare(game, "Kaplan", "activate")
    assert not of_kind(events, "ActivateRollAsked") and game.view("A").choices == ()
    end_order(game)


def test_cautious_movement_keeps_holoecho_and_says_why_he_c2():
    """HE-C2: the one Entire Order that does not end Holoecho."""
    game = in_orders()
    events = declare(game, "Hassassin", "cautious_move")
    kept = of_kind(events, "HoloechoKept")
    assert kept and kept[0].rule == "HE-C2" and kept[0].private_to is None
    assert "Cautious Movement" in kept[0].describe()[0]
    assert not of_kind(events, "HoloechoCancelled")
    end_order(game)
    assert not secret(game, "Hassassin", HOLOECHO).revealed


def test_alert_idles_the_decoys_and_ends_holoecho_he_1_he_c1():
    """HE-1, HE-C1."""
    game = in_orders()
    events = declare(game, "Hassassin", "alert")
    assert of_kind(events, "DecoysIdle") and of_kind(events, "HoloechoCancelled")[0].rule == "HE-C1"


def test_each_activation_asks_for_initial_and_final_coherency_checks_he_2():
    """HE-2."""
    game = in_orders()
    events = declare(game, "Hassassin", "move")
    assert of_kind(events, "CoherencyChecksDue")[0].rule == "HE-2"
    assert not of_kind(declare(game, "Hassassin", "move"), "CoherencyChecksDue")


def test_optional_coherency_check_in_the_deployment_phase_he_2():
    """HE-2."""
    from tracker.rules.setup import SetInitiative

    from .game import Game
    from .hidden_games import army_a, army_b

    game = Game.listed(army_a(), army_b())
    game.do("A", SetInitiative(first_turn="A", deploys_first="A"))
    game.seal(
        "A", lieutenant="Kaplan", hd={"Ninja": "a", "Yaogat": "b"}, holoecho={"Hassassin": "model"}
    )
    events = report(game, "coherency", "Hassassin", element="marker1", by="A")
    assert of_kind(events, "DecoyRemoved")[0].rule == "HE-D4"
    with pytest.raises(InvalidInput) as refused:
        report(game, "coherency", "Kaplan", by="A")
    assert refused.value.rule == "HE-2"


def test_an_aro_against_a_holoecho_trooper_picks_one_of_the_three_he_3():
    """HE-3."""
    game = in_orders()
    declare(game, "Hassassin", "move")
    with pytest.raises(InvalidInput) as refused:
        aro(game, "Fusilier", "bs_attack", target="Hassassin")
    assert refused.value.rule == "HE-3"
    events = aro(game, "Fusilier", "bs_attack", target="Hassassin", element="marker2")
    assert of_kind(events, "SkillDeclared")[0].target_element == "marker2"
    with pytest.raises(InvalidInput):
        aro(game, "Bolt", "bs_attack", target="Hassassin", element="marker3")


def test_the_line_of_an_aro_against_a_holoecho_names_which_one_he_3():
    """HE-3: the line says which Holoecho was picked (the target renamed per
    viewer by its id); an ARO with no Holoecho picked keeps no target name
    and reads as before."""
    game = in_orders()
    declare(game, "Hassassin", "move")
    [picked] = of_kind(
        aro(game, "Fusilier", "bs_attack", target="Hassassin", element="marker2"), "SkillDeclared"
    )
    message, params = picked.describe()
    assert message == ARO_AGAINST_ELEMENT
    assert params["target_name"] == "Hassassin" and params["target_element"] == "marker2"
    game = in_orders()
    declare(game, "Kaplan", "move")
    [plain] = of_kind(aro(game, "Fusilier", "bs_attack", target="Kaplan"), "SkillDeclared")
    assert "target_name" not in plain.to_data()
    assert plain.describe()[0] == "%(trooper_name)s declares %(skill)s."


def test_a_holoecho_aro_reminds_the_180_degree_arc_he_4():
    """HE-4."""
    game = in_orders(first="B")
    declare(game, "Fusilier", "move", seat="B")
    events = aro(game, "Hassassin", "dodge")
    due = of_kind(events, "CoherencyChecksDue")[0]
    assert due.aro and "HE-4" in due.describe()[0]


@pytest.mark.parametrize("element", ALL)
def test_discover_can_target_the_model_or_either_marker_he_5(element):
    """HE-5."""
    game = started(real="marker1")
    events = report(game, "discovered", "Hassassin", element=element)
    expected = "HE-C5" if element == "marker1" else "HE-D1"
    assert expected in [e.rule for e in events]


def test_discover_must_say_which_holoecho_he_5():
    """HE-5."""
    game = started()
    with pytest.raises(InvalidInput) as refused:
        report(game, "discovered", "Hassassin")
    assert refused.value.rule == "HE-5"


def test_surprise_attack_only_in_the_active_turn_he_6():
    """HE-6."""
    game = in_orders(first="B")
    declare(game, "Fusilier", "move", seat="B")
    with pytest.raises(NotAllowed) as refused:
        aro(game, "Hassassin", "surprise_attack", target="Fusilier")
    assert refused.value.rule == "HE-6"
    end_order(game)
    end_turn(game)
    to_phase(game, ORDERS)
    events = declare(game, "Hassassin", "surprise_attack")
    assert of_kind(events, "HoloechoCancelled")[0].rule == "HE-C1"


def test_decoys_copy_state_tokens_without_revealing_anything_he_7():
    """HE-7."""
    game = in_orders()
    game.do(
        "A", SetTrooperState(trooper_id=game.id("Hassassin"), condition="normal", tokens=["prone"])
    )
    seen = game.view("B").trooper(game.id("Hassassin"))
    assert seen.tokens == ("prone",) and seen.holoechoes == ALL
    assert not secret(game, "Hassassin", HOLOECHO).revealed


# ----------------------------------------------------------------- HE-8


def delayed_game():
    game = in_orders(real="marker1")
    declare(game, "Hassassin", "move")
    aro(game, "Fusilier", "delay_aro", target="Hassassin")
    return game


def test_delayed_aro_is_lost_when_the_second_skill_does_not_reveal_he_8():
    """HE-8."""
    game = delayed_game()
    events = declare(game, "Hassassin", "move")
    lost = of_kind(events, "DelayedAroLost")[0]
    assert lost.rule == "HE-8" and lost.trooper_id == game.id("Fusilier")
    with pytest.raises(NotAllowed) as refused:
        aro(game, "Fusilier", "bs_attack", target="Hassassin", element="model")
    assert refused.value.rule == "HE-8"


def test_delayed_aro_may_be_declared_when_the_second_skill_reveals_he_8():
    """HE-8."""
    game = delayed_game()
    events = declare(game, "Hassassin", "bs_attack")
    assert not of_kind(events, "DelayedAroLost")
    events = aro(game, "Fusilier", "bs_attack", target="Hassassin", element="marker2")
    assert of_kind(events, "SkillDeclared")[0].aro


def test_delayed_aro_waits_for_the_second_short_skill_he_8():
    """HE-8."""
    game = delayed_game()
    with pytest.raises(NotAllowed) as refused:
        aro(game, "Fusilier", "bs_attack", target="Hassassin", element="model")
    assert refused.value.rule == "HE-8"


def test_delay_only_against_a_holoecho_or_a_marker_he_8():
    """HE-8."""
    game = in_orders()
    declare(game, "Kaplan", "move")
    with pytest.raises(InvalidInput) as refused:
        aro(game, "Fusilier", "delay_aro", target="Kaplan")
    assert refused.value.rule == "HE-8"
    with pytest.raises(InvalidInput):
        declare(game, "Kaplan", "delay_aro")  # an ARO, never an active skill


def test_delay_is_too_late_after_the_second_short_skill_he_8():
    """HE-8."""
    game = in_orders()
    declare(game, "Hassassin", "move")
    declare(game, "Hassassin", "move")
    with pytest.raises(NotAllowed) as refused:
        aro(game, "Fusilier", "delay_aro", target="Hassassin")
    assert refused.value.rule == "HE-8"


# ------------------------------------------------------------ HE-9, HE-10


def test_holomask_token_is_placed_once_at_the_first_activation_he_9():
    """HE-9."""
    game = started()
    with pytest.raises(NotAllowed) as early:
        game.do("A", PlaceHoloechoToken(trooper_id=game.id("Hassassin"), element="marker2"))
    assert early.value.rule == "HE-9"
    to_phase(game, ORDERS)
    declare(game, "Hassassin", "move")
    events = game.do("A", PlaceHoloechoToken(trooper_id=game.id("Hassassin"), element="marker2"))
    placed = of_kind(events, "HoloechoTokenPlaced")[0]
    assert placed.private_to is None and placed.rule == "HE-9"
    assert game.view("B").trooper(game.id("Hassassin")).holoecho_token == "marker2"
    assert not secret(game, "Hassassin", HOLOECHO).revealed
    with pytest.raises(NotAllowed):
        game.do("A", PlaceHoloechoToken(trooper_id=game.id("Hassassin"), element="model"))


def test_holoecho_trooper_cannot_be_in_a_fireteam_he_10():
    """HE-10."""
    game = in_orders()
    with pytest.raises(NotAllowed) as refused:
        refuse_fireteam(game.trooper("Hassassin"))
    assert refused.value.rule == "HE-10"
    refuse_fireteam(game.trooper("Kaplan"))  # no Holoecho: fine


def test_activating_holoecho_leaves_the_fireteam_he_10():
    """HE-10."""
    game = in_orders()
    end_holoecho_by_hit(game)
    game.state = game.state.with_trooper(game.id("Hassassin"), fireteam="core")
    events = activate(game)
    assert of_kind(events, "HoloechoActivated")[0].left_fireteam
    assert game.trooper("Hassassin").fireteam == ""


# ---------------------------------------------------- HE-C1..C7 (real one)


def _attack(game):
    declare(game, "Hassassin", "bs_attack")


def _alert(game):
    declare(game, "Hassassin", "alert")


def _roll_skill(game):
    declare(game, "Hassassin", "discover")


def _entire_order(game):
    declare(game, "Hassassin", "suppressive_fire")


def _contact(game):
    declare(game, "Hassassin", "move")
    report(game, "contact", "Hassassin", element="marker1")


def _saving_roll(game):
    declare(game, "Kaplan", "move")
    report(game, "saving_roll", "Hassassin", element="marker1")


def _discovered(game):
    declare(game, "Kaplan", "move")
    report(game, "discovered", "Hassassin", element="marker1")


def _impetuous(game):
    declare(game, "Hassassin", "move")
    report(game, "impetuous", "Hassassin", by="A")


def _retreat(game):
    for hook in RETREAT_ENTERED:
        game.apply(hook(game.state, "A"))


def _coherency_final(game):
    declare(game, "Hassassin", "move")
    report(game, "coherency_final", "Hassassin", element="marker1")


def _coherency_initial(game):
    declare(game, "Hassassin", "move")
    report(game, "coherency_initial", "Hassassin", element="marker1")


@pytest.mark.parametrize(
    ("trigger", "rule"),
    [
        (_attack, "HE-C1"),
        (_alert, "HE-C1"),
        (_roll_skill, "HE-C1"),
        (_entire_order, "HE-C2"),
        (_contact, "HE-C3"),
        (_saving_roll, "HE-C4"),
        (_discovered, "HE-C5"),
        (_impetuous, "HE-C6"),
        (_retreat, "HE-C6"),
        (_coherency_final, "HE-C7"),
        (_coherency_initial, "HE-C7"),
    ],
)
def test_real_bearer_cancellations_reveal_and_remove_every_decoy(trigger, rule):
    game = in_orders(real="marker1")
    trigger(game)
    if game.state.turn.order is not None:
        end_order(game)
    reveal = [e for e in game.events if e.kind == "SecretRevealed" and e.secret_kind == HOLOECHO]
    assert [e.rule for e in reveal] == [rule]
    assert bob_sees_real(game) == "marker1"
    assert game.trooper("Hassassin").holoechoes == ()
    ended = of_kind(game.events, "HoloechoEnded")[-1]
    assert sorted(ended.removed) == ["marker2", "model"]  # HE-D5


def test_cautious_movement_keeps_holoecho_he_c2():
    """HE-C2."""
    game = in_orders()
    declare(game, "Hassassin", "cautious_move")
    end_order(game)
    assert not secret(game, "Hassassin", HOLOECHO).revealed


def test_a_hit_on_the_real_one_says_make_the_saving_roll_he_c4():
    """HE-C4."""
    game = in_orders(real="marker1")
    declare(game, "Kaplan", "move")
    events = report(game, "saving_roll", "Hassassin", element="marker1")
    ending = of_kind(events, "HoloechoEnding")[0]
    message, params = ending.describe()
    assert "make the Saving Roll" in message and "HE-C4" in message
    assert params["real"] == "marker1"


# ------------------------------------------------------ HE-D1..D5 (decoys)


@pytest.mark.parametrize(
    ("outcome", "rule"),
    [
        ("discovered", "HE-D1"),
        ("contact", "HE-D2"),
        ("saving_roll", "HE-D3"),
        ("coherency_final", "HE-D4"),
        ("coherency_initial", "HE-D4"),
    ],
)
def test_a_decoy_leaves_the_table_and_the_secret_stays_sealed(outcome, rule):
    game = in_orders(real="marker1")
    declare(game, "Hassassin", "move")
    events = report(game, outcome, "Hassassin", element="marker2")
    removed = of_kind(events, "DecoyRemoved")[0]
    assert removed.rule == rule and removed.element == "marker2" and removed.private_to is None
    assert game.trooper("Hassassin").holoechoes == ("model", "marker1")
    assert not of_kind(events, "SecretRevealed") and bob_sees_real(game) is None


def test_decoy_hit_is_removed_without_saving_roll_he_d3():
    """HE-D3."""
    game = in_orders(real="model")
    events = report(game, "saving_roll", "Hassassin", element="marker1")
    message, params = of_kind(events, "DecoyRemoved")[0].describe()
    assert "no Saving Roll" in message and params["element"] == "marker1"


def test_all_decoys_leave_when_the_real_holoecho_ends_he_d5():
    """HE-D5."""
    game = in_orders(real="marker2")
    report(game, "saving_roll", "Hassassin", element="marker2")
    ended = of_kind(game.events, "HoloechoEnded")[-1]
    assert sorted(ended.removed) == ["marker1", "model"] and ended.real == "marker2"


def test_the_last_decoy_gone_leaves_the_real_one_alone_and_holoecho_ends_he_c7():
    """HE-C7."""
    game = in_orders(real="model")
    report(game, "saving_roll", "Hassassin", element="marker1")
    events = report(game, "saving_roll", "Hassassin", element="marker2")
    assert of_kind(events, "SecretRevealed")[0].rule == "HE-C7"
    assert game.trooper("Hassassin").holoechoes == ()


# ------------------------------------------------------------------ HE-T


def test_a_declared_cancellation_reveals_only_at_the_end_of_the_order_he_t():
    """HE-T."""
    game = in_orders(real="marker2")
    declare(game, "Hassassin", "move")
    events = declare(game, "Hassassin", "bs_attack")
    assert of_kind(events, "HoloechoCancelled")[0].rule == "HE-C1"
    assert not secret(game, "Hassassin", HOLOECHO).revealed and bob_sees_real(game) is None
    assert game.trooper("Hassassin").holoechoes == ALL
    events = end_order(game)
    kinds = [e.kind for e in events]
    assert kinds.index("SecretRevealed") < kinds.index("HoloechoEnded") < kinds.index("OrderEnded")
    assert bob_sees_real(game) == "marker2"


def test_the_cancellation_covers_the_whole_order_he_t():
    """A decoy hit after the bearer declared its attack still only removes
    that decoy; the reveal stays at the end of the Order."""
    game = in_orders(real="model")
    declare(game, "Hassassin", "bs_attack")
    report(game, "saving_roll", "Hassassin", element="marker1")
    assert not secret(game, "Hassassin", HOLOECHO).revealed
    end_order(game)
    rules = [e.rule for e in game.events if e.kind == "SecretRevealed"]
    assert rules == ["HE-C1"]


def test_a_hit_reveals_at_once_but_the_decoys_leave_at_the_end_of_the_order_he_t():
    """HE-T."""
    game = in_orders(real="marker1")
    declare(game, "Kaplan", "move")
    report(game, "saving_roll", "Hassassin", element="marker1")
    assert bob_sees_real(game) == "marker1"
    assert game.trooper("Hassassin").holoechoes == ALL
    end_order(game)
    assert game.trooper("Hassassin").holoechoes == ()


def test_failed_initial_coherency_removes_the_decoys_at_once_he_t():
    """HE-T."""
    game = in_orders(real="marker1")
    declare(game, "Hassassin", "move")
    events = report(game, "coherency_initial", "Hassassin", element="marker1")
    assert of_kind(events, "HoloechoEnded") and game.trooper("Hassassin").holoechoes == ()
    assert game.state.turn.order is not None  # the Order goes on, model placed


def test_failed_final_coherency_reveals_at_once_but_the_decoys_leave_at_the_end_he_t():
    """HE-T: only a failed *Initial* check removes the decoys at once. A
    failed Final check of the real one answers at once (HE-C7) but, like any
    other cancellation, its decoys leave at the end of the Order."""
    game = in_orders(real="marker1")
    declare(game, "Hassassin", "move")
    events = report(game, "coherency_final", "Hassassin", element="marker1")
    assert bob_sees_real(game) == "marker1"
    assert not of_kind(events, "HoloechoEnded")
    assert game.trooper("Hassassin").holoechoes == ALL
    end_order(game)
    assert game.trooper("Hassassin").holoechoes == ()


def test_a_seal_revealed_by_a_hit_is_not_revealed_again_at_the_end_of_the_order_he_t():
    """HE-C1 then HE-C4 in one Order: the attack's cancellation waits for the
    end of the Order (HE-T), but the hit on the real one reveals it at once.
    The seal is opened once: the end of the Order does not reveal it again."""
    game = in_orders(real="marker1")
    declare(game, "Hassassin", "bs_attack")
    report(game, "saving_roll", "Hassassin", element="marker1")
    end_order(game)
    sealed = secret(game, "Hassassin", HOLOECHO)
    reveals = [e for e in game.events if e.kind == "SecretRevealed" and e.secret_id == sealed.id]
    assert [e.rule for e in reveals] == ["HE-C4"]
    assert game.state.secrets[sealed.id].revealed_rule == "HE-C4"
    assert game.trooper("Hassassin").holoechoes == ()


# --------------------------------------------------------------- secrecy


def test_the_owner_cannot_reveal_the_real_holoecho_by_hand():
    game = started()
    with pytest.raises(NotAllowed):
        game.do("A", RevealSecret(secret_id=secret(game, "Hassassin", HOLOECHO).id))


@pytest.mark.parametrize("outcome", ["saving_roll", "contact", "coherency_final"])
def test_refusals_never_depend_on_which_holoecho_is_real(outcome):
    messages = set()
    for real in ALL:
        game = in_orders(real=real)
        with pytest.raises(InvalidInput) as refused:
            report(game, outcome, "Hassassin")
        messages.add((refused.value.message, refused.value.rule))
    assert len(messages) == 1


def test_a_holoecho_activation_by_declare_skill_is_not_an_order_skill():
    game = in_orders()
    with pytest.raises(InvalidInput):
        game.do("A", DeclareSkill(trooper_id=game.id("Hassassin"), skill="holoecho_activate"))


def test_a_reactive_holoecho_attack_reveals_at_the_end_of_the_opponents_order_he_c1_he_t():
    """HE-C1, HE-T."""
    game = in_orders(real="marker2", first="B")
    declare(game, "Fusilier", "move", seat="B")
    events = aro(game, "Hassassin", "bs_attack", target="Fusilier")
    assert of_kind(events, "HoloechoCancelled")[0].rule == "HE-C1"
    assert bob_sees_real(game) is None
    end_order(game)  # Bob ends his Order: Alice's Holoecho is revealed
    assert bob_sees_real(game) == "marker2"
    assert game.trooper("Hassassin").holoechoes == ()


def test_a_holoecho_touching_its_own_side_removes_only_a_decoy_he_d2():
    """HE-D2 "con una Miniatura" (any), HE-C3 "con una Miniatura enemiga"."""
    game = in_orders(real="marker1")
    declare(game, "Hassassin", "move")
    events = report(game, "own_contact", "Hassassin", element="marker2", by="A")
    assert of_kind(events, "DecoyRemoved")[0].rule == "HE-D2"
    assert game.trooper("Hassassin").holoechoes == ("model", "marker1")
    events = report(game, "own_contact", "Hassassin", element="marker1", by="A")
    # The real one stays in Holoecho; only Alice reads why, Bob reads nothing.
    assert [e.kind for e in events] == ["OutcomeReported", "OwnContactKept"]
    assert all(e.private_to == "A" for e in events)
    assert not secret(game, "Hassassin", HOLOECHO).revealed and bob_sees_real(game) is None
    assert game.trooper("Hassassin").holoechoes == ("model", "marker1")
    with pytest.raises(NotAllowed):  # only its player says it touched its own side
        report(game, "own_contact", "Hassassin", element="model", by="B")
    with pytest.raises(NotAllowed):  # not in Holoecho: nothing to remove
        report(game, "own_contact", "Kaplan", by="A")
