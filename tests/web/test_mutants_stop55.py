"""What planted faults showed untested on two phones, every tap a form the
page rendered (tests/web/phone.py):

- HE-3 on the active player's Order card (blocks/orders.html): an ARO that
  names no Holoecho keeps its "ARO" badge, and the line of an ARO against one
  Holoecho ("ARO of Fusilier against ...") reads without a second one.
- RT-7's card (blocks/battle_over.html) names the army in Retreat! that has
  no troopers left, not the active player's, when the last loss falls in the
  other player's Turn; it is each player's decision, not a spectator's.
"""

import pytest

from .phone import Phone
from .phone_flows import ok, seal_both, set_up, to_orders
from .test_retreat_on_phones import alice_in_retreat, card_text, end_turn

pytestmark = pytest.mark.django_db

ARO_BADGE = {"en": "ARO", "es": "ORA"}
PLAIN_ARO = {"en": "Fusilier declares BS Attack.", "es": "Fusilier declara Ataque CD."}
HOLOECHO_ARO = {
    "en": "ARO of Bolt against Holoecho marker 2 of Hassassin Ayyar: BS Attack.",
    # ORA, as every Spanish word of the page says (it read "ARO de ...").
    "es": "ORA de Bolt contra Marcador de Holoeco 2 de Hassassin Ayyar: Ataque CD.",
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


OVER_FOR = {
    "en": (
        "Alice's army is in Retreat! and has no troopers left on the table",
        "Your army is in Retreat! and has no troopers left on the table",
        "Bob's army",
    ),
    "es": (
        "El ejército de Alice está en ¡¡¡Retirada!!! y no le quedan tropas en la mesa",
        "Tu ejército está en ¡¡¡Retirada!!! y no te quedan tropas en la mesa",
        "El ejército de Bob",
    ),
}


@pytest.mark.parametrize("language", ["en", "es"])
def test_rt_7_a_last_loss_in_the_opponent_s_turn_names_the_army_in_retreat(language):
    """Alice's army is in Retreat! (her Round 2 Turn); she ends her Turn,
    and in Bob's Round 2 Turn his troopers take her last two on the table.
    Bob, the active player, and a spectator read that Alice's army has no
    troopers left (never Bob's); Alice reads it of her own army. The card is
    a decision on the players' phones (issue 19: first), not on a
    spectator's screen, which has nothing to decide."""
    a, b = alice_in_retreat(language)
    end_turn(a, b)
    b.open()
    assert b.can("AdvancePhase")  # Bob's Player Turn
    ok(b, b.submit("SetTrooperState", trooper_id="Kaplan", condition="dead"))
    b.open()
    ok(b, b.submit("SetTrooperState", trooper_id="Veteran Sergeant", condition="dead"))
    alices, own, bobs = OVER_FOR[language]
    watcher = Phone(language)
    watcher.open(a.code)
    a.open()
    for phone in (b, watcher):
        assert alices in card_text(phone) and bobs not in card_text(phone), card_text(phone)
    assert own in card_text(a) and bobs not in card_text(a), card_text(a)
    for phone, decides in ((a, True), (b, True), (watcher, False)):
        card = phone.soup.select_one("#battle-over")
        assert card.has_attr("data-decision") is decides
    ok(b, b.submit("EndBattle"))
