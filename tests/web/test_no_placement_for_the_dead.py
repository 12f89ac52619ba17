"""RP-1..RP-3 after the replaced trooper died: a hidden trooper revealed by
its own ARO (HD-C2) is shot dead in the same Order, as often happens. Its
owner's phone still offered "No room for it (Immobilized-A, RP-3)" for the
dead model, and the opponent's still read that she places a replaced
trooper; an RP-2 choice stayed on her screen for good. A model taken off
the table has nothing left to place: neither phone shows the placement,
and the server refuses one with why.

Every tap is a form the page rendered (tests/web/phone.py), in Spanish and
English; the refused post is the attack test's forged one.
"""

import pytest

from .phone_flows import CANARY_NINJA, ok, started
from .test_rules_on_phones import forge

pytestmark = pytest.mark.django_db

OWNER_LINE = {
    "en": f"{CANARY_NINJA} goes centre on centre",
    "es": f"{CANARY_NINJA} va centro sobre centro",
}
OPPONENT_LINE = {
    "en": "Alice places a replaced trooper centre on centre",
    "es": "Alice coloca una tropa reemplazada centro sobre centro",
}
REFUSED = {
    "en": f"{CANARY_NINJA} is off the table: there is nothing to place (RP-3).",
    "es": f"{CANARY_NINJA} ya no está en la mesa: no hay nada que colocar (RP-3).",
}


def shot_dead_after_its_reveal(language):
    a, b, ids = started(language_a=language, language_b=language)
    ninja = ids[CANARY_NINJA]
    ok(a, a.submit("DeclareSkill", trooper_id=ninja, skill="bs_attack"))  # HD-C2, RP-1
    assert a.can("ReportNoRoom", trooper_id=ninja)
    assert OWNER_LINE[language] in a.text
    b.open()
    assert OPPONENT_LINE[language] in b.text
    ok(a, a.submit("SetTrooperState", trooper_id=ninja, condition="dead"))
    b.open()
    return a, b, ninja


@pytest.mark.parametrize("language", ["en", "es"])
def test_a_dead_trooper_has_no_placement_on_either_phone(language):
    a, b, ninja = shot_dead_after_its_reveal(language)
    assert not a.can("ReportNoRoom", trooper_id=ninja)
    assert OWNER_LINE[language] not in a.text
    assert OPPONENT_LINE[language] not in b.text


@pytest.mark.parametrize("language", ["en", "es"])
def test_no_room_for_a_dead_trooper_is_refused_with_why(language):
    a, _b, ninja = shot_dead_after_its_reveal(language)
    forge(a, "ReportNoRoom", trooper_id=ninja)
    assert REFUSED[language] in a.last.text
