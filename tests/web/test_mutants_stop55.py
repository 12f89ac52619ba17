"""What planted faults showed untested on two phones, every tap a form the
page rendered (tests/web/phone.py):

- HE-3 on the active player's Order card (blocks/orders.html): an ARO that
  names no Holoecho keeps its "ARO" badge, and the line of an ARO against one
  Holoecho ("ARO of Fusilier against ...") reads without a second one.
"""

import pytest

from .phone import Phone
from .phone_flows import ok, seal_both, set_up, to_orders

pytestmark = pytest.mark.django_db

ARO_BADGE = {"en": "ARO", "es": "ORA"}
PLAIN_ARO = {"en": "Fusilier declares BS Attack.", "es": "Fusilier declara Ataque CD."}
HOLOECHO_ARO = {
    "en": "Bolt against Holoecho marker 2 of Hassassin Ayyar: BS Attack.",
    "es": "Bolt contra Marcador de Holoeco 2 de Hassassin Ayyar: Ataque CD.",
}


def aros_on_the_order_card(phone: Phone) -> list[tuple[list[str], str]]:
    """Each line of the active player's "ARO against" list: its badges, its text."""
    return [
        (
            [badge.get_text(strip=True) for badge in li.select(".badge")],
            " ".join(li.get_text(" ").split()),
        )
        for li in phone.soup.select("#aros-against li")
    ]


@pytest.mark.parametrize("language", ["en", "es"])
def test_he_3_only_an_aro_naming_no_holoecho_wears_the_aro_badge_on_the_order_card(language):
    """Alice's Kaplan moves and Bob's Fusilier shoots it: a plain line, whose
    badge says it is an ARO. Then her Hassassin (Holoecho) moves and Bob's
    Bolt shoots at Holoecho marker 2: HE-3's line itself says "ARO of", and
    wears no second badge."""
    a, b = set_up(language_a=language, language_b=language)
    seal_both(a, b, holoecho="marker1")
    to_orders(a, b)
    ok(a, a.submit("DeclareSkill", trooper_id="Kaplan", skill="move"))
    b.open()
    ok(b, b.submit("DeclareAro", trooper_id="Fusilier", skill="bs_attack"))
    a.open()
    [(badges, text)] = aros_on_the_order_card(a)
    assert badges == [ARO_BADGE[language]] and PLAIN_ARO[language] in text, (badges, text)
    ok(a, a.submit("EndOrder"))
    ok(a, a.submit("DeclareSkill", trooper_id="Hassassin Ayyar", skill="move"))
    b.open()
    ok(b, b.submit("DeclareAro", trooper_id="Bolt", skill="bs_attack", target_element="marker2"))
    a.open()
    [(badges, text)] = aros_on_the_order_card(a)
    assert badges == [] and HOLOECHO_ARO[language] in text, (badges, text)
