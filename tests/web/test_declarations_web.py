"""Declarations through the phones: the tracker, not the owner, ends secrets.

Every action is a form found on the page that phone was just sent
(tests/web/phone.py); the one forged field is named as such."""

import pytest

from tracker.models import Match
from tracker.reading import load_state

from .phone_flows import CANARY_NINJA, CANARY_POSITION, ok, started
from .table import error_of, raw_post_as

pytestmark = pytest.mark.django_db


def test_camouflaged_hidden_trooper_moving_cautiously_appears_as_a_marker_hd_c3():
    a, b, ids = started()
    assert CANARY_NINJA not in b.html
    ok(a, a.submit("DeclareSkill", trooper_id=CANARY_NINJA, skill="cautious_move", as_marker=True))
    b.open()
    # HD-C3 + RT-5: Bob sees a marker, not which trooper (tests/web/test_markers_web.py).
    assert CANARY_NINJA not in b.text and CANARY_POSITION not in b.text
    assert "Camouflage marker 1" in b.text
    assert load_state(Match.objects.get()).troopers[ids[CANARY_NINJA]].marker
    # Cautious Movement is an Entire Order: no second Short Skill is offered.
    assert not a.can("DeclareSkill")
    assert a.can("EndOrder")


def test_attacking_hidden_trooper_is_placed_as_the_model_hd_c2():
    a, b, ids = started()
    a.submit("DeclareSkill", trooper_id=CANARY_NINJA, skill="bs_attack", as_marker=True)
    assert "HD-C3" in (a.error or "")
    ok(a, a.submit("DeclareSkill", trooper_id=CANARY_NINJA, skill="bs_attack"))
    ninja = load_state(Match.objects.get()).troopers[ids[CANARY_NINJA]]
    assert not ninja.hidden and not ninja.marker
    b.open()
    assert CANARY_POSITION in b.text


def test_the_owner_can_no_longer_reveal_a_holoecho_by_hand_forged():
    a, _b, _ids = started()
    secrets = load_state(Match.objects.get()).secrets.values()
    holoecho = next(s for s in secrets if s.kind == "holoecho")
    lieutenant = next(s for s in secrets if s.kind == "lieutenant" and s.seat == "A")
    # The page offers Reveal only where the owner may reveal.
    assert not a.can("RevealSecret", secret_id=holoecho.id)
    assert a.can("RevealSecret", secret_id=lieutenant.id)
    response = raw_post_as(a, "RevealSecret", secret_id=holoecho.id)
    assert error_of(response) == "Only the rules can reveal this secret."


def test_decoy_hit_on_bobs_phone_says_removed_without_saving_roll_he_d3():
    a, b, _ids = started(holoecho="marker1")
    ok(a, a.submit("DeclareSkill", trooper_id="Hassassin Ayyar", skill="move"))
    b.open()
    ok(
        b,
        b.submit(
            "ReportOutcome", outcome="saving_roll", trooper_id="Hassassin Ayyar", element="marker2"
        ),
    )
    assert "HE-D3" in b.text
    assert "The real one is" not in b.text  # still sealed: only a decoy is gone


def test_a_new_holoecho_seal_ignores_a_forged_nonce_he_a2():
    """The page renders no nonce or secret id; a forged post that adds them
    still gets server-chosen ones."""
    a, b, ids = started(holoecho="model")
    hassassin = ids["Hassassin Ayyar"]
    ok(a, a.submit("DeclareSkill", trooper_id="Hassassin Ayyar", skill="bs_attack"))
    ok(a, a.submit("EndOrder"))
    assert not load_state(Match.objects.get()).troopers[hassassin].holoechoes
    ok(a, a.submit("AdvancePhase", expected="orders"))
    assert {"nonce", "secret_id"}.isdisjoint(a.form("ActivateHoloecho").names())
    response = raw_post_as(
        a,
        "ActivateHoloecho",
        trooper_id=hassassin,
        real="marker2",
        nonce="00" * 16,
        secret_id="mine1",
    )
    assert response.status_code == 200
    state = load_state(Match.objects.get())
    fresh = [s for s in state.secrets.values() if s.kind == "holoecho" and not s.revealed]
    assert len(fresh) == 1
    assert fresh[0].nonce != "00" * 16 and fresh[0].id != "mine1"
    b.open()
    assert "The real one is the model." in b.text  # the first seal, revealed by HE-C1
    assert "The real one is Holoecho marker 2." not in b.text  # the new one stays sealed


def test_activate_holoecho_from_its_rendered_form_he_a2():
    a, b, ids = started(holoecho="model")
    hassassin = ids["Hassassin Ayyar"]
    ok(a, a.submit("DeclareSkill", trooper_id="Hassassin Ayyar", skill="bs_attack"))
    ok(a, a.submit("EndOrder"))
    ok(a, a.submit("AdvancePhase", expected="orders"))
    ok(a, a.submit("ActivateHoloecho", trooper_id="Hassassin Ayyar", real="marker2"))
    assert load_state(Match.objects.get()).troopers[hassassin].holoechoes
    b.open()
    assert "The real one is Holoecho marker 2." not in b.text


def test_immobilized_a_for_lack_of_room_cannot_be_cleared_by_hand_rp_3():
    a, b, ids = started()
    ninja = ids[CANARY_NINJA]
    ok(a, a.submit("DeclareSkill", trooper_id=CANARY_NINJA, skill="bs_attack"))  # HD-C2
    ok(a, a.submit("ReportNoRoom", trooper_id=ninja))
    b.open()
    # Issue 19: the page offers no box to untick: the token is sent as it
    # stands, shown ticked and disabled, with why (RP-3). Issue 18: in the
    # page's one State form, as a tap on the Ninja's row prefills it.
    form = b.form("SetTrooperState", trooper_id=ninja)
    sent = form.node.select("input[name=tokens][value=immobilized_a]:not([disabled])")
    assert [box.get("type") for box in sent] == ["hidden"]
    assert form.node.select_one("input[type=checkbox][value=immobilized_a][disabled][checked]")
    hint = form.node.select_one(".hint[data-rp3]")
    assert not hint.has_attr("hidden") and "RP-3" in hint.get_text()
    # Another state change from that form keeps it.
    ok(b, b.submit("SetTrooperState", trooper_id=ninja, condition="unconscious"))
    assert "immobilized_a" in load_state(Match.objects.get()).troopers[ninja].tokens
