"""HE — Holoecho: AROs of a Holoecho trooper (HE-2, HE-C6), delayed AROs
against a marker (HE-8), and a Veteran in Retreat! (RT-X1, HE-A2)."""

import pytest

from tracker.rules.errors import NotAllowed
from tracker.rules.holoecho import ActivateHoloecho, AnswerActivateRoll
from tracker.rules.orders import DeclareAro, EndOrder, ReportOutcome
from tracker.rules.state import (
    HOLOECHO,
    HOLOPROJECTOR,
    IMPETUOUS,
    IMPETUOUS_PHASE,
    ORDERS,
    STATES,
    UNCONSCIOUS,
    VETERAN,
)

from .game import Game, nonce, trooper
from .hidden_games import (
    army_b,
    aro,
    declare,
    end_order,
    of_kind,
    secret,
    started,
    to_phase,
)
from .steps import set_state, to_turn


def test_an_aro_in_the_opponents_impetuous_phase_keeps_holoecho_he_c6():
    """HE-C6 ends Holoecho when its bearer is Impetuous, acting on its own
    Impetuous Order; reacting without a roll in the opponent's Impetuous Phase
    keeps it (the decoys are not revealed)."""
    game = Game.started(
        [trooper("Kaplan", 20), trooper("Hassassin", 40, traits=[HOLOPROJECTOR])],
        [*army_b(), trooper("Morat", 20, traits=[IMPETUOUS])],
        first="B",
        seal_a={"lieutenant": "Kaplan", "holoecho": {"Hassassin": "marker1"}},
    )
    to_phase(game, IMPETUOUS_PHASE)
    declare(game, "Morat", "move", seat="B")
    events = aro(game, "Hassassin", "idle")
    assert not of_kind(events, "HoloechoCancelled")
    events = game.do("B", EndOrder())
    assert not of_kind(events, "SecretRevealed")
    assert not secret(game, "Hassassin", HOLOECHO).revealed
    assert game.trooper("Hassassin").holoechoes == ("model", "marker1", "marker2")


def test_an_aro_to_the_second_short_skill_asks_for_coherency_checks_he_2():
    """HE-2: every activation of the Holoechoes, an ARO included, has its
    Initial and Final Coherency checks, whichever Short Skill it answers."""
    game = started(first="B")
    to_phase(game, ORDERS)
    declare(game, "Bolt", "move", seat="B")
    declare(game, "Bolt", "move", seat="B")
    events = aro(game, "Hassassin", "idle")
    due = of_kind(events, "CoherencyChecksDue")
    assert len(due) == 1 and due[0].aro and due[0].rule == "HE-2"


def test_a_delayed_aro_against_a_marker_is_not_lost_by_he_8():
    """HE-8 loses a delayed ARO when a Holoecho is not revealed by its second
    Short Skill; delaying against a Camouflage marker (HD-C3) loses nothing."""
    game = started()
    to_phase(game, ORDERS)
    declare(game, "Ninja", "move", as_marker=True)
    game.do(
        "B", DeclareAro(trooper_id=game.id("Fusilier"), skill="delay_aro", target_id="markerA1")
    )
    events = declare(game, "Ninja", "move")
    assert game.trooper("Ninja").marker
    assert not of_kind(events, "DelayedAroLost")
    events = game.do(
        "B", DeclareAro(trooper_id=game.id("Fusilier"), skill="bs_attack", target_id="markerA1")
    )
    assert of_kind(events, "SkillDeclared")[-1].aro


def test_a_veteran_in_retreat_may_activate_holoecho_again_rt_x1_he_a2():
    """RT-X1: a Veteran ignores Retreat!, so HE-C6 does not stop it from
    bringing its Holoechoes back in the States Phase (HE-A2)."""
    a = [
        trooper("Lieutenant", 10),
        trooper("Hassassin", 15, traits=[HOLOPROJECTOR, VETERAN]),
        trooper("Big", 75),
    ]
    game = Game.started(a, army_b(), first="A", seal_a={"holoecho": {"Hassassin": "marker1"}})
    to_phase(game, ORDERS)
    declare(game, "Hassassin", "move")
    game.do(
        "B",
        ReportOutcome(outcome="saving_roll", trooper_id=game.id("Hassassin"), element="marker1"),
    )
    end_order(game)
    assert not game.trooper("Hassassin").holoechoes
    set_state(game, "Big", UNCONSCIOUS, by="B")
    to_turn(game, 2, "A")
    assert game.state.seat("A").retreat
    to_phase(game, STATES)
    events = game.do(
        "A",
        ActivateHoloecho(
            trooper_id=game.id("Hassassin"), real="model", secret_id="re000001", nonce=nonce(901)
        ),
    )
    assert of_kind(events, "HoloechoActivated")[0].rule == "HE-A2"
    assert game.trooper("Hassassin").holoechoes == ("model", "marker1", "marker2")


def test_a_delayed_aro_waits_for_the_answer_on_a_second_skill_activate_he_8_he_1():
    """HE-8: declared before the Holoecho's player says whether its second
    Short Skill, an Activate, needs a roll, the delayed ARO is refused with
    why; neither lost nor free yet."""
    game = started(real="marker1")
    to_phase(game, ORDERS)
    declare(game, "Hassassin", "move")
    aro(game, "Fusilier", "delay_aro", target="Hassassin")
    declare(game, "Hassassin", "activate")
    with pytest.raises(NotAllowed, match="has yet to say whether the Activate needs a roll"):
        aro(game, "Fusilier", "bs_attack", target="Hassassin", element="marker1")
    game.do("A", AnswerActivateRoll(trooper_id=game.id("Hassassin"), answer="roll"))
    events = aro(game, "Fusilier", "bs_attack", target="Hassassin", element="marker1")
    assert of_kind(events, "SkillDeclared")[0].skill == "bs_attack"


def test_an_activate_as_first_short_skill_leaves_the_delayed_aro_waiting_he_8_he_1():
    """HE-8 waits "hasta que éste declare su segunda Habilidad Corta": the
    answer to a first Short Skill Activate (no roll, HE-1) loses nothing;
    the delayed ARO waits for the second one."""
    game = started(real="marker1")
    to_phase(game, ORDERS)
    declare(game, "Hassassin", "activate")
    aro(game, "Fusilier", "delay_aro", target="Hassassin")
    events = game.do("A", AnswerActivateRoll(trooper_id=game.id("Hassassin"), answer="no_roll"))
    assert not of_kind(events, "DelayedAroLost")
    with pytest.raises(NotAllowed, match="declare it after the Holoecho's second Short Skill"):
        aro(game, "Fusilier", "bs_attack", target="Hassassin", element="marker1")
    events = declare(game, "Hassassin", "move")
    assert [e.trooper_name for e in of_kind(events, "DelayedAroLost")] == ["Fusilier"]


@pytest.mark.parametrize("skill", ["cautious_move", "suppressive_fire"])
def test_a_delay_against_an_entire_order_is_refused_by_he_8(skill):
    """HE-8: "hasta que éste declare su segunda Habilidad Corta"; an Entire
    Order has none, so the delay is refused and cites HE-8 alone (the phone
    adds the refusal's rule when its text does not cite it)."""
    game = started(real="marker1")
    to_phase(game, ORDERS)
    declare(game, "Hassassin", skill)
    with pytest.raises(NotAllowed, match="an Entire Order has no second Short Skill") as refused:
        aro(game, "Fusilier", "delay_aro", target="Hassassin")
    assert refused.value.rule == "HE-8"


def test_no_roll_for_a_second_skill_activate_loses_the_delayed_aro_he_8_he_1():
    """HE-8 with HE-1: the Holoecho's player says its second Short Skill, an
    Activate, needs no roll; it is not revealed, so the delayed ARO is lost
    at that answer."""
    game = started(real="marker1")
    to_phase(game, ORDERS)
    declare(game, "Hassassin", "move")
    aro(game, "Fusilier", "delay_aro", target="Hassassin")
    declare(game, "Hassassin", "activate")
    events = game.do("A", AnswerActivateRoll(trooper_id=game.id("Hassassin"), answer="no_roll"))
    assert [e.trooper_name for e in of_kind(events, "DelayedAroLost")] == ["Fusilier"]
    with pytest.raises(NotAllowed, match="this ARO is lost") as refused:
        aro(game, "Fusilier", "bs_attack", target="Hassassin", element="marker1")
    assert refused.value.rule == "HE-8"
