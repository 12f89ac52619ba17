"""One ARO per trooper per Order (N4). Played on two phones, a reactive
trooper declared Dodge, and its ARO card still offered the same trooper:
a second tap (the card left as it was, or a second tab) declared BS Attack
for it too, and both phones' logs read two AROs of one trooper against one
Order. Now the card no longer offers a trooper that has declared its ARO,
the server refuses a second one with why (in Spanish and English), and the
trooper is offered again against the next Order.

Every tap is a form the page rendered (tests/web/phone.py); the second
tab's form is one that page rendered before the first ARO.
"""

import pytest

from .phone_flows import ok, started
from .test_draft_rows_from_two_screens import second_screen

pytestmark = pytest.mark.django_db

REFUSED = {
    "en": "Fusilier has already declared an ARO against this Order: one ARO per Order.",
    "es": "Fusilier ya ha declarado una ORA contra esta Orden: una ORA por Orden.",
}


def aro_troopers(phone) -> set[str]:
    return {
        option.get_text(strip=True)
        for form in phone.forms("DeclareAro")
        for option in form.node.select("select[name=trooper_id] option")
    }


@pytest.mark.parametrize("language", ["en", "es"])
def test_a_trooper_declares_one_aro_against_an_order(language):
    a, b, _ids = started(language_a=language, language_b=language)
    a.open()
    ok(a, a.submit("DeclareSkill", trooper_id="Kaplan", skill="move"))
    b.open()
    tab = second_screen(b, language)
    assert aro_troopers(b) == {"Fusilier", "Bolt"}
    ok(b, b.submit("DeclareAro", trooper_id="Fusilier", skill="dodge"))
    assert aro_troopers(b) == {"Bolt"}

    tab.submit("DeclareAro", trooper_id="Fusilier", skill="bs_attack")
    assert tab.error == REFUSED[language]

    # Its second Short Skill: still no second ARO for Fusilier.
    a.open()
    ok(a, a.submit("DeclareSkill", skill="bs_attack"))
    b.open()
    assert aro_troopers(b) == {"Bolt"}

    # The next Order: Fusilier may declare an ARO again.
    a.open()
    ok(a, a.submit("EndOrder"))
    ok(a, a.submit("DeclareSkill", trooper_id="Kaplan", skill="move"))
    b.open()
    assert aro_troopers(b) == {"Fusilier", "Bolt"}
