"""Declarations through the phones: the tracker, not the owner, ends secrets."""

import pytest

from tracker.models import Match
from tracker.reading import load_state

from .flows import CANARY_NINJA, CANARY_POSITION, seal_both, set_up
from .table import error_of

pytestmark = pytest.mark.django_db


def to_orders(a, b):
    """The Order Count (Bob lets TM-S2 pass), then the rest of the Tactical
    and Impetuous Phases."""
    assert error_of(a.act("AdvancePhase", expected="tactical")) is None
    assert error_of(b.act("DeclineStrategicUse")) is None
    for phase in ("tactical", "impetuous"):
        if load_state(Match.objects.get()).turn.phase == phase:
            assert error_of(a.act("AdvancePhase", expected=phase)) is None


def started(alice, bob, holoecho="marker1"):
    a, b = set_up(alice, bob)
    ids = seal_both(a, b, load_state(Match.objects.get()), holoecho=holoecho)
    to_orders(a, b)
    return a, b, ids


def test_camouflaged_hidden_trooper_moving_cautiously_appears_as_a_marker_hd_c3(alice, bob):
    a, b, ids = started(alice, bob)
    assert CANARY_NINJA not in b.page()
    response = a.act(
        "DeclareSkill", trooper_id=ids[CANARY_NINJA], skill="cautious_move", as_marker="1"
    )
    assert error_of(response) is None, error_of(response)
    page = b.page()
    assert CANARY_NINJA in page and CANARY_POSITION in page
    assert "Matches what was sealed at" in page
    assert load_state(Match.objects.get()).troopers[ids[CANARY_NINJA]].marker


def test_attacking_hidden_trooper_is_placed_as_the_model_hd_c2(alice, bob):
    a, b, ids = started(alice, bob)
    response = a.act("DeclareSkill", trooper_id=ids[CANARY_NINJA], skill="bs_attack", as_marker="1")
    assert "HD-C3" in (error_of(response) or "")
    assert error_of(a.act("DeclareSkill", trooper_id=ids[CANARY_NINJA], skill="bs_attack")) is None
    ninja = load_state(Match.objects.get()).troopers[ids[CANARY_NINJA]]
    assert not ninja.hidden and not ninja.marker
    assert CANARY_POSITION in b.page()


def test_the_owner_can_no_longer_reveal_a_holoecho_by_hand(alice, bob):
    a, _b, _ids = started(alice, bob)
    secret = next(
        s for s in load_state(Match.objects.get()).secrets.values() if s.kind == "holoecho"
    )
    response = a.act("RevealSecret", secret_id=secret.id)
    assert error_of(response) == "Only the rules can reveal this secret."


def test_decoy_hit_on_bobs_phone_says_removed_without_saving_roll_he_d3(alice, bob):
    a, b, ids = started(alice, bob, holoecho="marker1")
    a.act("DeclareSkill", trooper_id=ids["Hassassin Ayyar"], skill="move")
    response = b.act(
        "ReportOutcome", outcome="saving_roll", trooper_id=ids["Hassassin Ayyar"], element="marker2"
    )
    assert error_of(response) is None, error_of(response)
    page = b.page()
    assert "HE-D3" in page
    assert "The real one is" not in page  # still sealed: only a decoy is gone


def test_a_new_holoecho_seal_uses_a_server_chosen_nonce_he_a2(alice, bob):
    a, b, ids = started(alice, bob, holoecho="model")
    hassassin = ids["Hassassin Ayyar"]
    a.act("DeclareSkill", trooper_id=hassassin, skill="bs_attack")
    a.act("EndOrder")
    assert not load_state(Match.objects.get()).troopers[hassassin].holoechoes
    a.act("AdvancePhase", expected="orders")
    response = a.act(
        "ActivateHoloecho", trooper_id=hassassin, real="marker2", nonce="00" * 16, secret_id="mine1"
    )
    assert error_of(response) is None, error_of(response)
    state = load_state(Match.objects.get())
    fresh = [s for s in state.secrets.values() if s.kind == "holoecho" and not s.revealed]
    assert len(fresh) == 1
    assert fresh[0].nonce != "00" * 16 and fresh[0].id != "mine1"
    page = b.page()
    assert "The real one is the model." in page  # the first seal, revealed by HE-C1
    assert "The real one is Holoecho marker 2." not in page  # the new one stays sealed


def test_immobilized_a_for_lack_of_room_cannot_be_cleared_by_hand_rp_3(alice, bob):
    a, b, ids = started(alice, bob)
    ninja = ids[CANARY_NINJA]
    a.act("DeclareSkill", trooper_id=ninja, skill="bs_attack")  # HD-C2: placed as the model
    assert error_of(a.act("ReportNoRoom", trooper_id=ninja)) is None
    response = b.act("SetTrooperState", trooper_id=ninja, condition="normal", tokens=[])
    assert "RP-3" in (error_of(response) or "")
    assert "immobilized_a" in load_state(Match.objects.get()).troopers[ninja].tokens
