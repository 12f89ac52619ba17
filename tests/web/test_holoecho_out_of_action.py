"""A trooper in Holoecho goes out of action only through a Saving Roll, which
ends its Holoecho and reveals the real one (HE-C4).

Found playing a casual match on two phones: a player set a Holoecho trooper
Dead from its State form, and both phones went on showing it as "Holoecho:
the model, Holoecho marker 1, Holoecho marker 2 — Dead", its real one still
sealed: three elements of a dead trooper on the table, which no table has.
The State form no longer offers Unconscious, Dead or Sepsitorized for a row
in Holoecho, the server refuses them with what to report first (in the
player's language), and once the hit is reported on the real one the state
is set.
"""

from __future__ import annotations

import pytest

from .phone import PhoneError
from .phone_flows import ok, started
from .table import error_of, raw_post_as

pytestmark = pytest.mark.django_db

REFUSED = {
    "en": "Hassassin Ayyar is in Holoecho: first report the hit that forced its Saving Roll",
    "es": "Hassassin Ayyar está en estado Holoeco: anota primero el impacto que le obligó",
}


def _row(phone, name: str) -> str:
    phone.open()
    row = phone.soup.select_one(f"li#trooper-{phone.trooper_id(name)}")
    return " ".join(row.get_text(" ").split())


def test_the_state_form_offers_no_out_of_action_condition_for_a_row_in_holoecho():
    a, _b, _ids = started(holoecho="marker1")
    a.open()
    hassassin = a.trooper_id("Hassassin Ayyar")
    for condition in ("unconscious", "dead", "sepsitorized"):
        with pytest.raises(PhoneError):
            a.form("SetTrooperState", trooper_id=hassassin, condition=condition)
    # Its other states, and every state of a trooper not in Holoecho, are offered.
    a.form("SetTrooperState", trooper_id=hassassin, condition="normal", tokens=["prone"])
    a.form("SetTrooperState", trooper_id=a.trooper_id("Kaplan"), condition="dead")


@pytest.mark.parametrize("language", ["en", "es"])
def test_attack_a_trooper_in_holoecho_is_not_set_dead_until_its_hit_is_reported(language):
    a, b, _ids = started(holoecho="marker1", language_a=language, language_b="en")
    a.open()
    hassassin = a.trooper_id("Hassassin Ayyar")
    before = _row(b, "Hassassin Ayyar")

    # Posted anyway (an old page, a script): refused, said why, nothing changed.
    answer = raw_post_as(a, "SetTrooperState", trooper_id=hassassin, condition="dead")
    refusal = error_of(answer)
    assert refusal is not None and REFUSED[language] in refusal, refusal
    assert "HE-C4" in refusal
    assert _row(b, "Hassassin Ayyar") == before
    assert "Dead" not in before

    # The hit reported on the real one ends its Holoecho (HE-C4); then the
    # state is offered and set.
    b.open()
    ok(
        b,
        b.submit("ReportOutcome", outcome="saving_roll", trooper_id=hassassin, element="marker1"),
    )
    a.open()
    ok(a, a.submit("SetTrooperState", trooper_id=hassassin, condition="dead", tokens=[]))
    shown = _row(b, "Hassassin Ayyar")
    assert "Dead" in shown and "Holoecho marker 2" not in shown, shown
