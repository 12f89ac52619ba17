"""Issue 19 on the server side: what each phone is offered and told at a
glance. Every action is a form found on the page that phone was just sent
(tests/web/phone.py)."""

import re

import pytest
from bs4 import BeautifulSoup

from tracker.rules.orders import ARO_SKILLS

from .phone_flows import ok, seal_both, set_up, to_orders, trooper_ids

pytestmark = pytest.mark.django_db


def started_in(language_a, language_b):
    a, b = set_up(language_a=language_a, language_b=language_b)
    seal_both(a, b, holoecho="marker1")
    to_orders(a, b)
    b.open()
    return a, b


def recent_lines(phone) -> list[str]:
    block = BeautifulSoup(phone.html, "lxml").find(id="recent")
    return [li.get_text(" ", strip=True) for li in block.find_all("li")] if block else []


def test_ticking_isolated_logs_isolated_not_normal_in_both_languages():
    a, b = started_in("en", "es")
    ids = trooper_ids()
    ok(
        a,
        a.submit(
            "SetTrooperState", trooper_id=ids["Kaplan"], condition="normal", tokens=["isolated"]
        ),
    )
    assert "Kaplan is now Isolated." in recent_lines(a)[0]
    assert "Kaplan is now Normal." not in a.text
    b.open()
    assert "Kaplan ahora está Aislado." in recent_lines(b)[0]
    ok(a, a.submit("SetTrooperState", trooper_id=ids["Kaplan"], condition="normal", tokens=[]))
    assert "Kaplan is no longer Isolated." in recent_lines(a)[0]


def test_the_aro_card_offers_only_n4_aro_skills_bs_attack_first_and_says_what_was_declared():
    a, b = started_in("en", "es")
    ok(a, a.submit("DeclareSkill", trooper_id="Kaplan", skill="move"))
    b.open()
    form = BeautifulSoup(b.html, "lxml").select_one(".card.aro")
    offered = [o["value"] for o in form.select("select[name=skill] option")]
    # HE-8: an ARO is delayed only against a Holoecho or a marker, and Kaplan
    # is neither.
    assert offered == [s for s in ARO_SKILLS if s != "delay_aro"]
    assert offered[:2] == ["bs_attack", "dodge"]
    for movement in ("move", "jump", "climb", "mount", "dismount"):
        assert movement not in offered
    # The card names the trooper, its skill and the kind of Order, in Spanish.
    declared = form.select_one(".declared").get_text(" ", strip=True)
    assert "Kaplan ha declarado:" in declared and "Mover" in declared
    assert "Orden Regular, Grupo de Combate 1" in declared


def test_the_active_phone_shows_the_aro_against_its_order_and_the_report_takes_its_target():
    a, b = started_in("en", "es")
    ok(a, a.submit("DeclareSkill", trooper_id="Kaplan", skill="move"))
    b.open()
    ok(b, b.submit("DeclareAro", trooper_id="Fusilier", skill="bs_attack"))
    a.open()
    page = BeautifulSoup(a.html, "lxml")
    assert "Fusilier" in page.select_one("#aros-against").get_text()
    # Alice's report is preset on the trooper that shot at her; Bob's on hers.
    target = page.select_one("details.outcome select[name=trooper_id] option[selected]")
    assert target is not None and target.get_text().startswith("Fusilier")
    mine = BeautifulSoup(b.html, "lxml")
    target = mine.select_one("details.outcome select[name=trooper_id] option[selected]")
    assert target is not None and target.get_text().startswith("Kaplan")
    # The Hassassin is in Holoecho: the element is asked; the report goes through.
    assert mine.select_one("details.outcome select[name=element]") is not None
    ok(b, b.submit("ReportOutcome", outcome="saving_roll", trooper_id="Kaplan (Alice)"))


def test_an_aro_with_a_movement_skill_is_refused_forged():
    from .table import error_of, raw_post_as

    a, b = started_in("en", "es")
    ok(a, a.submit("DeclareSkill", trooper_id="Kaplan", skill="move"))
    b.open()
    fusilier = trooper_ids()["Fusilier"]
    response = raw_post_as(b, "DeclareAro", trooper_id=fusilier, skill="move")
    assert re.search(r"Mover no se puede declarar como ORA", error_of(response) or "")


def test_the_default_classified_deck_reads_in_the_phones_language():
    from tracker.rules.classified import DEFAULT_DECK

    from .phone_flows import lists_locked, seated

    spanish = {
        "Data Scan": "Escaneo de Datos",
        "Extreme Prejudice": "Prejuicio Extremo",
        "HVT: Designation": "HVT: Designación",
        "HVT: Espionage": "HVT: Espionaje",
        "HVT: Inoculation": "HVT: Inoculación",
        "HVT: Retroengineering": "HVT: Retroingeniería",
        "Kill the Messenger": "Matar al Mensajero",
        "Sabotage": "Sabotaje",
        "Telemetry": "Telemetría",
        "Test Run": "Prueba de Campo",
        "Follow Up": "Seguimiento",
        "Capture": "Captura",
    }
    assert set(spanish) == set(DEFAULT_DECK)
    a, b = seated("en", "es", classified_drawn="3", classified_kept="2")
    lists_locked(a, b)
    for phone in (a, b):
        phone.open()
        ok(phone, phone.submit("DrawClassified"))
    drawn_en = [" ".join(x.get_text().split()) for x in a.form("KeepClassified").node("label")]
    drawn_es = [" ".join(x.get_text().split()) for x in b.form("KeepClassified").node("label")]
    assert len(drawn_en) == len(drawn_es) == 3
    assert set(drawn_en) <= set(DEFAULT_DECK)
    assert set(drawn_es) <= set(spanish.values())


def test_no_classified_card_once_play_starts_without_a_draw():
    from tracker.models import Match
    from tracker.reading import load_state
    from tracker.rules.classified import config_of

    a, b = started_in("en", "es")  # Classified Objectives on by default, never drawn
    assert config_of(load_state(Match.objects.get())) is not None
    for phone in (a, b):
        phone.open()
        assert phone.soup.select_one("#classified") is None


def test_the_cards_drawn_read_in_the_phones_language_in_the_sealed_draw_too():
    """A Spanish phone's sealed draw line named the cards in English (the
    default deck's stored names) beside the keep form's Spanish ones."""
    from .phone_flows import lists_locked, seated

    a, b = seated("en", "es", classified_drawn="2", classified_kept="1")
    lists_locked(a, b)
    b.open()
    ok(b, b.submit("DrawClassified"))
    b.open()
    offered = [" ".join(x.get_text().split()) for x in b.form("KeepClassified").node("label")]
    drawn = b.soup.find(string=re.compile("Robadas:"))
    assert drawn is not None
    assert " ".join(drawn.split()) == "Robadas: " + ", ".join(offered)
