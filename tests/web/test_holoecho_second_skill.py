"""HE-8 and HE-1 played on two phones, against the Spanish original.

"Si la Tropa reactiva retrasa su ORA, entonces sólo podrá declararla si el
Holoeco se revela con su segunda Habilidad Corta de la Orden." An Activate
reveals the bearer only if it needs a roll (HE-C1), which its player says
after declaring it (HE-1): until that answer, the delayed ARO is neither
lost nor free.
"""

from __future__ import annotations

import pytest

from tracker.models import Match
from tracker.reading import load_state

from .phone_flows import ok, started

pytestmark = pytest.mark.django_db


def _aro_lost() -> list:
    order = load_state(Match.objects.get()).turn.order
    return list(order.extra.get("aro_lost", ()))


def _delay_then_activate(a, b, ids):
    """Alice moves the Hassassin, Bob delays his ARO against it, Alice
    declares Activate as the second Short Skill."""
    hassassin = ids["Hassassin Ayyar"]
    ok(a, a.submit("DeclareSkill", trooper_id=hassassin, skill="Move"))
    b.open()
    ok(b, b.submit("DeclareAro", trooper_id="Fusilier", skill="delay_aro", target_id=hassassin))
    a.open()
    ok(a, a.submit("DeclareSkill", trooper_id=hassassin, skill="Activate"))
    b.open()
    return hassassin


def test_an_activate_that_needs_a_roll_as_second_skill_frees_the_delayed_aro_he_8_he_c1():
    a, b, ids = started(holoecho="marker1")
    hassassin = _delay_then_activate(a, b, ids)
    # Nothing is lost while Alice has yet to say whether it needs a roll.
    assert "loses it (HE-8)" not in b.text and _aro_lost() == []
    assert not b.can("DeclareAro", trooper_id="Fusilier", skill="bs_attack")
    a.open()
    ok(a, a.submit("AnswerActivateRoll", shows="It needs a roll", answer="roll"))
    # It did: the Holoecho revealed itself with its second Short Skill.
    b.open()
    assert "loses it (HE-8)" not in b.text
    ok(
        b,
        b.submit(
            "DeclareAro",
            trooper_id="Fusilier",
            skill="bs_attack",
            target_id=hassassin,
            target_element="marker1",
        ),
    )


def test_an_activate_without_a_roll_as_second_skill_loses_the_delayed_aro_he_8_he_1():
    a, b, ids = started(holoecho="marker1")
    _delay_then_activate(a, b, ids)
    assert _aro_lost() == []  # not before the answer...
    a.open()
    ok(a, a.submit("AnswerActivateRoll", shows="No roll", answer="no_roll"))
    # ...which says it did not reveal itself: the delayed ARO is lost.
    b.open()
    assert "Fusilier delayed its ARO and loses it (HE-8)" in b.text
    assert _aro_lost() == [ids["Fusilier"]]
    assert not b.can("DeclareAro", trooper_id="Fusilier", skill="bs_attack")


IDLE = {
    "en": "for the decoys it is Idle (HE-1)",
    "es": "para los señuelos cuenta como Inacción (HE-1)",
}
NO_ROLL = {"en": "No roll", "es": "Sin tirada"}


@pytest.mark.parametrize("language", ["en", "es"])
def test_an_activate_without_a_roll_is_idle_for_the_decoys_in_each_language_he_1(language):
    """HE-1: "considerando cualquier declaración de Activar o Alertar como una
    Inacción" — a Spanish phone reads Inacción, as the original says."""
    a, b, ids = started(holoecho="marker2", language_a=language, language_b=language)
    ok(a, a.submit("DeclareSkill", trooper_id=ids["Hassassin Ayyar"], skill="activate"))
    ok(a, a.submit("AnswerActivateRoll", shows=NO_ROLL[language], answer="no_roll"))
    for phone in (a, b):
        phone.open()
        assert IDLE[language] in phone.text
        if language == "es":
            assert "Idle" not in phone.text
