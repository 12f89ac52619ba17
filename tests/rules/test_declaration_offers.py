"""What the Order, ARO, report and TM-E1 forms offer (issue 19): every
trooper × choice pair offered is one the server accepts, and the four cases
the phones used to offer and then refuse are not offered: a lost delayed ARO
(HE-8), BS Attack with a Retreat! marker (RT-3), a full Combat Group (TM-E1).
(RP-3: tests/web/test_declarations_web.py.)"""

from __future__ import annotations

from tracker import rules
from tracker.rules.declaration_offers import aro_offers, order_offers, report_offers
from tracker.rules.errors import RuleViolation
from tracker.rules.orders import DeclareAro, DeclareSkill, ReportOutcome
from tracker.rules.state import ORDERS
from tracker.rules.token_uses import ChangeCombatGroup

from .game import Game, trooper
from .hidden_games import aro, declare
from .steps import end_turn, to_phase
from .test_holoecho import delayed_game, in_orders
from .test_retreat import in_retreat


def accepted(game, seat, command) -> bool:
    try:
        rules.decide(game.state, seat, command)
    except RuleViolation:
        return False
    return True


def every_order_pair_is_accepted(game, seat):
    for offer in order_offers(game.state, seat):
        for trooper_id in offer.trooper_ids:
            for skill in offer.skills:
                assert accepted(game, seat, DeclareSkill(trooper_id=trooper_id, skill=skill))


def test_he_8_a_trooper_whose_delayed_aro_is_lost_is_not_offered_an_aro():
    game = in_orders(real="marker1")
    declare(game, "Hassassin", "move")
    fusilier = game.id("Fusilier")
    [offer] = [o for o in aro_offers(game.state, "B") if fusilier in o.trooper_ids]
    assert "delay_aro" in offer.skills  # against a Holoecho (HE-8)
    aro(game, "Fusilier", "delay_aro", target="Hassassin")
    declare_second = DeclareSkill(trooper_id=game.id("Hassassin"), skill="move")
    game.do("A", declare_second)  # HE-8: not revealed by the second Short Skill
    assert all(fusilier not in o.trooper_ids for o in aro_offers(game.state, "B"))
    target = game.id("Hassassin")
    for offer in aro_offers(game.state, "B"):
        for trooper_id in offer.trooper_ids:
            for skill in offer.skills:
                command = DeclareAro(
                    trooper_id=trooper_id, skill=skill, target_id=target, target_element="model"
                )
                assert accepted(game, "B", command)


def test_rt_3_a_trooper_with_a_retreat_marker_is_offered_no_bs_attack():
    game = in_retreat()
    to_phase(game, ORDERS)
    offers = order_offers(game.state, "A")
    lieutenant = game.id("Lieutenant")
    [mine] = [o for o in offers if lieutenant in o.trooper_ids]
    assert "bs_attack" not in mine.skills
    assert {"move", "dodge", "cautious_move", "reset"} <= set(mine.skills)
    every_order_pair_is_accepted(game, "A")


def test_rt_3_the_aro_card_offers_no_bs_attack_to_a_trooper_in_retreat():
    game = in_retreat()
    end_turn(game)
    to_phase(game, ORDERS)
    game.do("B", DeclareSkill(trooper_id=game.id("Alguacil"), skill="move"))
    offers = aro_offers(game.state, "A")
    assert offers and all("bs_attack" not in o.skills for o in offers)
    assert any("dodge" in o.skills for o in offers)


def test_tm_e1_a_full_combat_group_is_not_offered():
    army = [trooper(f"Fusilier {i}", 10) for i in range(10)] + [trooper("Bolt", 20, group=2)]
    game = Game.started(army, [trooper("Alguacil", 10)], first="A")
    moves = game.view("A").token_offers.e1_moves
    bolt = game.id("Bolt")
    [(ids, groups)] = [(ids, groups) for ids, groups in moves if bolt in ids]
    assert 1 not in groups and 2 not in groups  # group 1 is full; 2 is its own
    assert groups == (3, 4, 5)
    for ids, groups in moves:
        for trooper_id in ids:
            for group in groups:
                command = ChangeCombatGroup(trooper_id=trooper_id, group=group)
                assert accepted(game, "A", command)


def test_reports_offer_only_outcomes_the_server_takes_for_each_trooper():
    game = delayed_game()
    offers = report_offers(game.state, "B")
    assert offers
    for offer in offers:
        for trooper_id in offer.trooper_ids:
            for outcome in offer.outcomes:
                for element in offer.elements or ("",):
                    command = ReportOutcome(outcome=outcome, trooper_id=trooper_id, element=element)
                    assert accepted(game, "B", command)
    hassassin = game.id("Hassassin")
    [his] = [o for o in offers if hassassin in o.trooper_ids]
    assert his.elements and "saving_roll" in his.outcomes
