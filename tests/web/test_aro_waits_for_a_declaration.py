"""A Coordinated Order (TM-T1) starts before its carrier declares anything;
the reactive phone showed its ARO card at once ("Kaplan declared:" and
nothing after it) and the server took an ARO answering nothing. An ARO
answers what an Order declared: until the first Short Skill the reactive
phone says so and offers none, the server refuses one with why, and once
the skill is declared the card offers the AROs as for any Order.

Every tap is a form the page rendered (tests/web/phone.py), in Spanish and
English; the refused post is the attack test's forged one.
"""

import pytest

from .phone_flows import ok, started
from .test_rules_on_phones import forge

pytestmark = pytest.mark.django_db

WAITING = {
    "en": "Nothing declared yet: your ARO card comes up here once this Order declares its "
    "first Short Skill.",
    "es": "Aún no se ha declarado nada: tu tarjeta de ORA aparece aquí cuando esta Orden "
    "declare su primera Habilidad Corta.",
}
REFUSED = {
    "en": "Nothing has been declared in this Order yet: AROs come once it declares its first "
    "Short Skill.",
    "es": "Aún no se ha declarado nada en esta Orden: las ORAs llegan cuando declare su primera "
    "Habilidad Corta.",
}


def coordinated(language):
    a, b, ids = started(language_a=language, language_b=language)
    a.open()
    ok(a, a.submit("CoordinatedOrder", trooper_ids=["Kaplan", "Hassassin Ayyar"]))
    b.open()
    return a, b, ids


@pytest.mark.parametrize("language", ["en", "es"])
def test_the_reactive_phone_waits_for_the_coordinated_order_s_first_skill(language):
    a, b, ids = coordinated(language)
    assert not b.can("DeclareAro")
    assert WAITING[language] in b.text

    a.open()
    ok(a, a.submit("DeclareSkill", skill="move"))  # the carrier's, for all
    b.open()
    assert WAITING[language] not in b.text
    ok(b, b.submit("DeclareAro", trooper_id="Fusilier", skill="dodge"))


@pytest.mark.parametrize("language", ["en", "es"])
def test_an_aro_posted_before_the_first_skill_is_refused_with_why(language):
    _a, b, ids = coordinated(language)
    forge(b, "DeclareAro", trooper_id=ids["Fusilier"], skill="dodge", target_id=ids["Kaplan"])
    assert REFUSED[language] in b.last.text
