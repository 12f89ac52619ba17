"""A bidirectional control (U+202A-U+202E, U+2066-U+2069) typed or pasted
into a name turns round what follows it on every screen that shows the name:
a trooper named "\u202eBolt" read "tloB", and the rest of its log line
backwards, on the opponent's phone. Every text a player or an organizer
sends is kept without them (tracker/rules/text.py), through the forms the
pages render."""

from __future__ import annotations

import pytest

from tests.web.phone import Phone, PhoneError
from tests.web.phone_flows import ALICE_LIST, add_trooper, ok, started
from tests.web.rendered_forms import submit
from tests.web.test_event_round_checks import event_of
from tracker.models import Match, TournamentEvent
from tracker.rules.text import BIDI_CONTROLS

pytestmark = pytest.mark.django_db

RLO, LRI, PDI = "\u202e", "\u2066", "\u2069"


def controls_in(text: str) -> list[str]:
    return sorted({f"U+{ord(c):04X}" for c in text if c in BIDI_CONTROLS})


@pytest.mark.parametrize("language", ["en", "es"])
def test_a_name_and_a_trooper_reach_both_phones_without_them(language):
    host = Phone(language)
    links = host.create_match()
    a, b = Phone(language), Phone("es" if language == "en" else "en")
    a.claim(links["A"], f"Ali{RLO}ce")
    b.claim(links["B"], "Bob")
    for row in ALICE_LIST:
        assert add_trooper(a, *row) is None, a.error
    assert add_trooper(a, f"{RLO}Bolt{LRI}", 15) is None, a.error
    assert add_trooper(b, "Fusilier", 10, traits=["lieutenant_candidate"]) is None, b.error
    for phone in (a, b):
        ok(phone, phone.submit("LockArmyList"))

    for phone in (a, b):
        phone.open()
        assert controls_in(phone.html) == [], phone.html
    assert "Alice" in b.text and "Bolt" in b.text
    match = Match.objects.get(code=a.code)
    assert [seat.name for seat in match.seats.order_by("letter")] == ["Alice", "Bob"]


def test_a_note_s_label_and_a_reason_are_kept_without_them():
    a, b, _ids = started()
    ok(a, a.submit("SealNote", label=f"Plan{RLO} A", text=f"the {PDI}antenna"))
    ok(a, a.submit("ProposeResult", objective_a="5", objective_b="3", army_a="90", army_b="80"))
    b.open()
    ok(b, b.submit("DisputeResult", reason=f"{LRI}Three{PDI} objectives, not five"))
    for phone in (a, b):
        phone.open()
        assert controls_in(phone.html) == [], phone.html
    assert "Plan A" in a.text
    assert Match.objects.get(code=a.code).result["reason"] == "Three objectives, not five"


def test_a_roster_and_an_event_name_pasted_with_them_are_kept_without(carol):
    event, org = event_of(carol, f"Ana{RLO}, PanOceania\n{LRI}Bea{PDI}, Yu Jing")
    assert sorted(event.roster.values_list("name", flat=True)) == ["Ana", "Bea"]
    page = carol.get("/organizer/events/").content.decode()
    fill = {"name": f"Liga{RLO} de viernes", "date": "2026-12-11", "location": f"{LRI}Toledo"}
    assert (
        submit(carol, page, "/organizer/events/", at="/organizer/events/", **fill).status_code
        == 302
    )
    assert TournamentEvent.objects.filter(name="Liga de viernes", location="Toledo").exists()
    assert controls_in(org.page()) == []


@pytest.mark.parametrize(
    "language, told", [("en", "Write your name."), ("es", "Escribe tu nombre.")]
)
def test_a_name_of_controls_only_is_asked_for_again_in_the_player_s_language(language, told):
    links = Phone(language).create_match()
    phone = Phone(language)
    with pytest.raises(PhoneError, match=told):
        phone.claim(links["A"], f"{RLO}{LRI} {PDI}")
    assert Match.objects.get().seats.get(letter="A").name == ""
