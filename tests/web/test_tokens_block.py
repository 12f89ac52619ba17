"""The Command Tokens / Retreat! block (templates/tracker/blocks/tokens.html):
each phone is offered only the uses open to it, every form posts the fields of
its command, and the opponent's phone never names a hidden trooper."""

import re
import typing
from dataclasses import fields
from types import SimpleNamespace

import pytest
from bs4 import BeautifulSoup
from django.http import QueryDict
from django.template.loader import render_to_string
from django.utils import translation

from tests.rules.game import Game, trooper
from tests.rules.steps import count_orders, set_state, to_phase, to_turn
from tracker import rules
from tracker.forms import generic_command
from tracker.rules.orders import DeclareSkill
from tracker.rules.state import (
    CUBE,
    DEAD,
    DOCTOR,
    HIDDEN_DEPLOYMENT,
    IRREGULAR,
    ORDERS,
    POSSESSED,
    VETERAN,
)
from tracker.rules.token_uses import CancelOpponentOrders

MATCH = SimpleNamespace(code="tokens1")


def game():
    a = [
        trooper("Kaplan", 20),
        trooper("Fusilier", 10),
        trooper("Zhanshi", 10, traits=[IRREGULAR]),
        trooper("Trauma Doc", 15, traits=[DOCTOR, VETERAN]),
        trooper("Cubed", 10, traits=[CUBE]),
        trooper("Big", 200, group=2),
    ]
    b = [trooper("Alguacil", 10), trooper("Ninja", 30, traits=[HIDDEN_DEPLOYMENT])]
    return Game.started(a, b, first="A", seal_b={"hd": {"Ninja": "roof"}})


def render(g, seat):
    view = g.view(seat)
    return render_to_string(
        "tracker/blocks/tokens.html", {"view": view, "me": view.me, "match": MATCH}
    )


def forms(html):
    """{command: [field names]} for each form in the block."""
    found = {}
    for match in re.finditer(r'<form hx-post="/m/tokens1/act/(\w+)/".*?</form>', html, re.S):
        found[match.group(1)] = sorted(set(re.findall(r'name="(\w+)"', match.group(0))))
    return found


def test_the_active_player_is_offered_executive_and_tactical_uses_with_rule_ids():
    g = game()
    html = render(g, "A")
    assert set(forms(html)) == {
        "ChangeCombatGroup",
        "ForceGutsRoll",
        "MakeOrderRegular",
        "IgnoreRetreat",
    }
    for rule in ("TM-E1", "TM-T2", "TM-T3", "TM-T4"):
        assert rule in html
    assert "TM-E2" not in html  # nobody is Possessed
    set_state(g, "Fusilier", tokens=[POSSESSED], by="B")
    assert "CancelPossessed" in forms(render(g, "A"))


def test_the_second_player_is_offered_tm_s2_at_the_end_of_the_opponents_order_count():
    g = game()
    assert forms(render(g, "B")) == {}  # Executive Use first: not yet (TM-S2)
    count_orders(g)
    html = render(g, "B")
    assert set(forms(html)) == {
        "CancelOpponentOrders",
        "LimitOpponentTokens",
        "StrategicSuppressiveFire",
        "DeclineStrategicUse",
    }
    assert "TM-S2" in html
    to_phase(g, ORDERS)
    assert forms(render(g, "B")) == {}


@pytest.mark.parametrize("language", ["en", "es"])
def test_orders_cancelled_in_two_groups_read_as_two_sentences(language):
    """TM-S2: each Combat Group's cancelled Orders are a sentence of their
    own; they ran together ("...this Turn.TM-S2: ...") when read aloud or copied."""
    g = game()
    count_orders(g)
    g.do("B", CancelOpponentOrders(groups=["1", "2"]))
    to_phase(g, ORDERS)
    with translation.override(language):
        text = " ".join(BeautifulSoup(render(g, "A"), "lxml").get_text().split())
    assert text.count("TM-S2:") == 2
    assert re.search(r"\.TM-S2", text) is None, text


def test_the_opponents_phone_never_names_a_hidden_trooper():
    g = game()
    to_turn(g, 1, "B")
    ninja = g.id("Ninja")
    bob = render(g, "B")
    assert ninja in bob  # his own phone may move it (HD-5)
    for html in (render(g, "A"), render(g, None)):
        assert ninja not in html and "Ninja" not in html


def test_orders_phase_offers_coordinated_orders_and_rerolls_of_the_current_order():
    g = game()
    to_phase(g, ORDERS)
    assert "CoordinatedOrder" in forms(render(g, "A"))
    g.do("A", DeclareSkill(trooper_id=g.id("Trauma Doc"), skill="roll_skill"))
    found = forms(render(g, "A"))
    assert "CoordinatedOrder" not in found  # an Order is in progress
    assert found["RerollDoctorWip"] == ["target_id", "trooper_id"]
    assert "TM-T5" in render(g, "A")


def test_retreat_block_offers_evacuation_and_lists_markers():
    g = game()
    set_state(g, "Big", DEAD, by="B")
    to_turn(g, 2, "A")
    html = render(g, "A")
    assert "EvacuateTrooper" in forms(html) and "RT-6" in html
    assert 'id="retreat"' not in render(g, "B")


def test_every_form_posts_the_fields_of_its_command_and_no_inline_script():
    g = game()
    set_state(g, "Big", DEAD, by="B")
    to_turn(g, 2, "A")
    to_phase(g, ORDERS)
    g.do("A", DeclareSkill(trooper_id=g.id("Trauma Doc"), skill="roll_skill"))
    at_s2 = game()
    count_orders(at_s2)
    pages = [render(g, "A"), render(at_s2, "B")]
    seen = {}
    for html in pages:
        assert "<script" not in html and "style=" not in html and "hx-on" not in html
        seen.update(forms(html))
    assert len(seen) >= 6
    for command, names in seen.items():
        expected = sorted(f.name for f in fields(rules.COMMAND_TYPES[command]))
        assert names == expected, command


def test_a_posted_guts_roll_form_decides_through_the_generic_builder():
    g = game()
    to_phase(g, ORDERS)
    post = QueryDict(mutable=True)
    post.update({"trooper_id": g.id("Fusilier"), "passed": "0"})
    command = generic_command(rules.COMMAND_TYPES["ForceGutsRoll"], post)
    assert typing.get_type_hints(type(command))["passed"] is bool
    events = g.do("A", command)
    assert events[-1].passed is False
