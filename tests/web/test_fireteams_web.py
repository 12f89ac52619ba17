"""Fireteams on two phones: Alice forms one from her page, Bob sees it; a
trooper in Holoecho is never offered (HE-10)."""

from __future__ import annotations

import pytest

from .phone_flows import ALICE_LIST, BOB_LIST, lists_locked, ok, seal_both, seated, to_orders
from .table import error_of, raw_post_as
from .test_i18n import _spanish as spanish

pytestmark = pytest.mark.django_db


def started_with_a_spare_trooper(language_a: str | None = None):
    a, b = seated(language_a=language_a)
    lists_locked(a, b, alice_list=(*ALICE_LIST, ("Ghulam", 15, 1, 2, [])), bob_list=BOB_LIST)
    ok(a, a.submit("SetInitiative", first_turn="Alice", deploys_first="Alice"))
    b.open()
    seal_both(a, b)
    to_orders(a, b)
    return a, b


def test_alice_forms_a_fireteam_bob_sees_it_and_a_holoecho_trooper_is_not_offered_he_10():
    a, b = started_with_a_spare_trooper()
    offered = a.form("FormFireteam").text
    assert "Kaplan" in offered and "Ghulam" in offered
    assert "Hassassin Ayyar" not in offered  # in Holoecho (HE-10)
    assert "Ninja" not in offered  # hidden: a public Fireteam would name it
    ok(a, a.submit("FormFireteam", name="Core", trooper_ids=["Kaplan", "Ghulam"]))
    b.open()
    seat_a = b.soup.select_one("#blk-seat_A").get_text(" ")
    assert seat_a.count("Fireteam Core") == 2
    assert "formed the Fireteam Core: Kaplan, Ghulam" in b.text
    assert not b.forms("FormFireteam")  # only its owner forms them
    ok(a, a.submit("DissolveFireteam", name="Core"))
    b.open()
    assert "Fireteam Core" not in b.soup.select_one("#blk-seat_A").get_text(" ")


def test_a_too_long_fireteam_name_is_refused_in_spanish_label_included():
    """Issue 22: the field's label ("The Fireteam's name", a param the rules
    mark with `_`) reached a Spanish phone in English. The page caps the
    name at 30 characters, so only a forged post sends a longer one."""
    a, _b = started_with_a_spare_trooper(language_a="es")
    response = raw_post_as(a, "FormFireteam", name="N" * 31, trooper_ids=["Kaplan", "Ghulam"])
    expected = spanish("%(what)s is too long (at most %(max)s characters).") % {
        "what": spanish("The Fireteam's name"),
        "max": 30,
    }
    assert spanish("The Fireteam's name") != "The Fireteam's name"
    assert error_of(response) == expected


@pytest.mark.parametrize("language", ["en", "es"])
def test_no_fireteams_card_when_there_is_nothing_to_form_or_dissolve(language):
    """Alice's only trooper that may join is Kaplan (Hassassin Ayyar is in
    Holoecho, the Ninja hidden): her seat showed a "Fireteams" card that
    opened onto nothing. No card now; with a second trooper it is there."""
    a, b = seated(language_a=language)
    lists_locked(a, b)
    ok(a, a.submit("SetInitiative", first_turn="Alice", deploys_first="Alice"))
    b.open()
    seal_both(a, b)
    to_orders(a, b)
    assert not a.soup.select("#blk-seat_A details.fireteams")
    spare = started_with_a_spare_trooper(language_a=language)[0]
    assert spare.soup.select("#blk-seat_A details.fireteams")
