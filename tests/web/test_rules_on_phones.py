"""Issue 8, the rules as two phones see them: every tap is a form the page
rendered (tests/web/phone.py); what a phone may not do, it is not shown.

Impetuous Phase; TM-S2 at the end of the Order Count; pending choices (RP-1,
RP-2, RP-3, HE-1) on the owner's phone only, until made; the three Holoecho
positions when Hidden Deployment ends; Discover on nothing refused.
"""

import json

import pytest

from tracker.models import Match
from tracker.reading import load_state
from tracker.rules import player_view

from .phone import Phone, PhoneError
from .phone_flows import (
    CANARY_NINJA,
    let_s2_pass,
    lists_locked,
    ok,
    seated,
    started,
    to_orders,
    trooper_ids,
)

pytestmark = pytest.mark.django_db


def state():
    return load_state(Match.objects.get())


def forge(phone: Phone, command: str, **fields):
    """A raw post a page never rendered, with the phone's own session and
    CSRF token: for attack tests only."""
    body = phone.soup.find("body")
    headers = {"HX-Request": "true", **json.loads(body.get("hx-headers") or "{}")}
    response = phone.app.post(
        f"/m/{phone.code}/act/{command}/",
        {"action_id": "forged-tap-0001", **fields},
        headers=headers,
        expect_errors=True,
    )
    phone.last = response
    return response


def custom_match(alice_list, bob_list):
    a, b = seated()
    lists_locked(a, b, alice_list=alice_list, bob_list=bob_list)
    ok(a, a.submit("SetInitiative", first_turn="Alice", deploys_first="Alice"))
    return a, b


# --------------------------------------------------------- Impetuous Phase


def test_the_impetuous_phase_offers_only_troopers_with_an_impetuous_order():
    a, b = custom_match(
        alice_list=(
            ("Kaplan", 20, 1, 2, ["lieutenant_candidate"]),
            ("Morat", 20, 1, 2, ["impetuous"]),
        ),
        bob_list=(("Fusilier", 10, 1, 2, ["lieutenant_candidate"]),),
    )
    ok(a, a.submit("SealDeployment", lieutenant="Kaplan"))
    b.open()
    ok(b, b.submit("SealDeployment", lieutenant="Fusilier"))
    a.open()
    ok(a, a.submit("AdvancePhase", expected="tactical"))  # the Order Count
    let_s2_pass(b)
    a.open()
    ok(a, a.submit("AdvancePhase", expected="tactical"))
    assert state().turn.phase == "impetuous"
    form = a.form("DeclareSkill")
    offered = {o.get_text(strip=True) for o in form.node.select('select[name="trooper_id"] option')}
    assert offered == {"Morat"}
    with pytest.raises(PhoneError):
        a.submit("DeclareSkill", trooper_id="Kaplan", skill="move")
    before = player_view(state(), "A").orders_left
    ok(a, a.submit("DeclareSkill", trooper_id="Morat", skill="Move"))
    assert player_view(state(), "A").orders_left == before  # not from the Pool
    ok(a, a.submit("EndOrder"))
    assert "No trooper of yours has an Impetuous Order left" in a.text
    assert not a.can("DeclareSkill")


# ------------------------------------------------------------------ TM-S2


def test_tm_s2_is_offered_to_bob_only_at_the_end_of_alices_order_count():
    a, b, _ids = started_in_tactical()
    b.open()
    assert not b.can("LimitOpponentTokens") and not b.can("DeclineStrategicUse")
    assert a.can("AdvancePhase", expected="tactical")
    assert "Order Count done" in a.form("AdvancePhase").text
    ok(a, a.submit("AdvancePhase", expected="tactical"))
    # Alice waits; Bob is the one choosing, Alice the one who may be limited.
    assert not a.can("AdvancePhase")
    assert "Bob decides now whether to use a Command Token strategically" in a.text
    b.open()
    assert b.can("CancelOpponentOrders") and b.can("DeclineStrategicUse")
    card = b.soup.select_one("#tm-s2").get_text(" ")
    assert "You choose" in card and "limits Alice" in card
    ok(b, b.submit("LimitOpponentTokens"))
    assert "you limited Alice to 1 Command Token this Turn" in b.text
    a.open()
    assert "your opponent limited you to 1 Command Token this Turn" in a.text
    ok(a, a.submit("AdvancePhase", expected="tactical"))
    assert state().turn.phase == "impetuous"


def test_bob_lets_tm_s2_pass_from_his_phone_and_alice_goes_on():
    a, b, _ids = started_in_tactical()
    ok(a, a.submit("AdvancePhase", expected="tactical"))
    b.open()
    ok(b, b.submit("DeclineStrategicUse"))
    assert not b.can("LimitOpponentTokens") and state().seat("B").command_tokens == 4
    a.open()
    ok(a, a.submit("AdvancePhase", expected="tactical"))
    assert state().turn.phase == "impetuous"


@pytest.mark.parametrize(
    ("language", "waiting"),
    [
        ("en", "Bob decides now whether to use a Command Token strategically"),
        ("es", "Bob decide ahora si hace Uso Estratégico de un Token de Mando"),
    ],
)
def test_alice_spends_no_token_while_bob_decides_on_tm_s2(language, waiting):
    """TM-S2 comes "al final del Recuento de Órdenes": Alice's phone offers
    her no Tactical Use between her count and Bob's answer (else she could
    spend past the limit he is about to set); then it does again."""
    a, b, _ids = started_in_tactical(language)
    assert a.can("ForceGutsRoll")  # her Active Turn, before the count
    ok(a, a.submit("AdvancePhase", expected="tactical"))  # the Order Count
    assert waiting in a.text
    for tactical in ("ForceGutsRoll", "IgnoreRetreat", "CoordinatedOrder"):
        assert not a.can(tactical), tactical
    b.open()
    ok(b, b.submit("LimitOpponentTokens"))
    a.open()
    ok(a, a.submit("ForceGutsRoll", trooper_id="Kaplan", passed="1"))
    assert state().seat("A").command_tokens == 3
    assert not a.can("ForceGutsRoll")  # TM-S2: 1 this Turn


def started_in_tactical(language: str | None = None):
    from .phone_flows import seal_both, set_up

    a, b = set_up(language_a=language, language_b=language)
    ids = seal_both(a, b, holoecho="marker1")
    a.open()
    return a, b, ids


# ---------------------------------------------------------- placements (RP)


def test_only_the_owner_is_shown_a_same_base_placement_with_no_placed_tap_rp_1_rp_3():
    a, b, ids = started()
    ok(a, a.submit("DeclareSkill", trooper_id=ids[CANARY_NINJA], skill="BS Attack"))  # HD-C2
    b.open()
    assert not b.can("ReportNoRoom") and not b.can("ChooseReplacement")
    # Bob reads what is true: Alice has nothing to answer (RP-1), only the
    # RP-3 way out, which is hers alone.
    assert "Alice places a replaced trooper centre on centre" in b.text
    assert "has yet to say how" not in b.text
    # RP-1: same bases, centre on centre: a line and the RP-3 way out, no
    # "Placed" to tap (issue 19).
    assert not a.can("ChooseReplacement", trooper_id=ids[CANARY_NINJA])
    assert a.can("ReportNoRoom", trooper_id=ids[CANARY_NINJA])
    assert "goes centre on centre" in a.text
    # The next Order starts: the placement stands, nothing left open.
    ok(a, a.submit("EndOrder"))
    assert a.can("ReportNoRoom", trooper_id=ids[CANARY_NINJA])
    ok(a, a.submit("DeclareSkill", trooper_id=ids["Kaplan"], skill="Move"))
    assert not a.can("ReportNoRoom") and state().choices == {}
    b.open()
    assert "has yet to say how" not in b.text


def test_rp_2_centre_or_edge_is_chosen_on_the_owners_phone():
    a, b = custom_match(
        alice_list=(
            ("Hassassin Ayyar", 40, 1, 5, ["holoprojector"]),
            ("Kaplan", 20, 1, 2, ["lieutenant_candidate"]),
        ),
        bob_list=(("Fusilier", 10, 1, 2, ["lieutenant_candidate"]),),
    )
    ids = trooper_ids()
    ok(
        a,
        a.submit(
            "SealDeployment",
            lieutenant="Kaplan",
            **{f"holoecho_{ids['Hassassin Ayyar']}": "marker1"},
        ),
    )
    b.open()
    ok(b, b.submit("SealDeployment", lieutenant="Fusilier"))
    to_orders(a, b)
    ok(a, a.submit("DeclareSkill", trooper_id=ids["Kaplan"], skill="Move"))
    b.open()
    ok(
        b,
        b.submit(
            "ReportOutcome",
            outcome="saving_roll",
            trooper_id=ids["Hassassin Ayyar"],
            element="marker1",
        ),
    )
    a.open()
    ok(a, a.submit("EndOrder"))
    b.open()
    assert not b.can("ChooseReplacement") and not b.can("ReportNoRoom")
    ok(a, a.submit("ChooseReplacement", trooper_id=ids["Hassassin Ayyar"], how="edge"))
    assert state().troopers[ids["Hassassin Ayyar"]].replacement_choice == "edge"


def test_attack_the_opponent_cannot_resolve_a_placement_by_a_raw_post_rp_3():
    a, b, ids = started()
    ok(a, a.submit("DeclareSkill", trooper_id=ids[CANARY_NINJA], skill="BS Attack"))
    b.open()
    forge(b, "ReportNoRoom", trooper_id=ids[CANARY_NINJA])
    assert "RP-3" in (b.error or "")
    forge(b, "ChooseReplacement", trooper_id=ids[CANARY_NINJA], how="centre")
    assert "RP-2" in (b.error or "")
    assert "immobilized_a" not in state().troopers[ids[CANARY_NINJA]].tokens
    assert state().choices


# ------------------------------------------------------------ HE-1 / HE-C1


def test_activate_by_a_holoecho_asks_its_owner_on_her_phone_he_1_he_c1():
    a, b, ids = started(holoecho="marker2")
    hassassin = ids["Hassassin Ayyar"]
    ok(a, a.submit("DeclareSkill", trooper_id=hassassin, skill="Activate"))
    b.open()
    assert not b.can("AnswerActivateRoll")
    assert "Alice has yet to say whether an Activate of this Order needs a roll" in b.text
    a.submit("EndOrder")
    assert "HE-1" in (a.error or "")
    ok(a, a.submit("AnswerActivateRoll", shows="needs a roll", answer="roll"))
    ok(a, a.submit("EndOrder"))
    b.open()
    assert "HE-C1" in b.text and not state().troopers[hassassin].holoechoes


def test_cautious_movement_says_why_holoecho_stays_he_c2():
    a, b, ids = started()
    ok(a, a.submit("DeclareSkill", trooper_id=ids["Hassassin Ayyar"], skill="Cautious Movement"))
    b.open()
    assert "Cautious Movement is the one Entire Order that does not end it" in b.text


# ------------------------------------------------- HD + Holoecho, Discover


def test_bob_reads_the_three_written_holoecho_positions_when_hd_ends():
    a, b = custom_match(
        alice_list=(
            ("Spectre", 40, 1, 2, ["hidden_deployment", "holoprojector"]),
            ("Kaplan", 20, 1, 2, ["lieutenant_candidate"]),
        ),
        bob_list=(("Fusilier", 10, 1, 2, ["lieutenant_candidate"]),),
    )
    ids = trooper_ids()
    spectre = ids["Spectre"]
    where = {"model": "MODELROOF-1", "marker1": "ONESTREET-2", "marker2": "TWOTOWER-3"}
    ok(
        a,
        a.submit(
            "SealDeployment",
            lieutenant="Kaplan",
            **{
                f"hd_position_{spectre}": "north ruins",
                f"holoecho_{spectre}": "marker1",
                **{f"he_pos_{e}_{spectre}": text for e, text in where.items()},
            },
        ),
    )
    b.open()
    ok(b, b.submit("SealDeployment", lieutenant="Fusilier"))
    to_orders(a, b)
    b.open()
    assert not any(text in b.html for text in where.values())
    ok(a, a.submit("DeclareSkill", trooper_id=spectre, skill="Move"))  # HD-C2
    b.open()
    for text in where.values():
        assert text in b.text
    # Which one is real stays sealed: Bob's page says no more than that.
    assert "The real one" not in b.text


def test_successfully_discovered_on_a_plain_trooper_is_not_offered_and_refused():
    a, b, ids = started()
    b.open()
    # Issue 19: the page offers Discovered only on a marker, a Holoecho or a
    # trooper in Hidden Deployment (HD-C1, HE-5)...
    assert not b.can("ReportOutcome", outcome="Successfully Discovered", trooper_id=ids["Kaplan"])
    assert b.can("ReportOutcome", outcome="Hit that forces a Saving Roll", trooper_id=ids["Kaplan"])
    # ...and the server still refuses it with why (attack: a raw post).
    forge(b, "ReportOutcome", outcome="discovered", trooper_id=ids["Kaplan"])
    assert "nothing to Discover" in (b.error or "")
