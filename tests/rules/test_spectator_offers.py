"""The forms' offers (kept_offers.py, token_offers.py) are their seat's
alone: they name the owner's troopers, hidden ones too (HD-3), so a
spectator's view carries none and the opponent's names none of them."""

from tracker.rules.state import ORDERS

from .hidden_games import started, to_phase


def offered_ids(view) -> set[str]:
    return {i for offer in (*view.order_offers, *view.aro_offers) for i in offer.trooper_ids}


def test_a_spectator_is_offered_nothing_of_the_active_players_hd_3():
    """HD-3: the hidden troopers Alice may give an Order appear in her own
    offers; a spectator's view carries no offers at all, and Bob's none of
    her troopers."""
    game = started()
    to_phase(game, ORDERS)
    hidden = {game.id("Ninja"), game.id("Yaogat")}
    assert hidden <= offered_ids(game.view("A"))
    spectator = game.view(None)
    assert spectator.order_offers == () and spectator.aro_offers == ()
    assert spectator.report_offers == () and spectator.second_skill_offers == ()
    assert spectator.token_uses == () and spectator.impetuous_ids == ()
    assert not offered_ids(game.view("B")) & hidden
