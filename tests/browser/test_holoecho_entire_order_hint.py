"""HE-8 on two phones, in Spanish and English: an ARO against a Holoecho may
wait "hasta que éste declare su segunda Habilidad Corta". After a Short
Skill the opponent's phone offers "Delay the ARO" and says so; after an
Entire Order (Cautious Movement keeps the Holoecho, HE-C2) there is no second
Short Skill, the phone offers no delay, and no line on it says "you may delay
it until its second Short Skill" (it did, the delay itself gone). The
Holoecho's own player reads what the opponent may do, not "you may"."""

import pytest
from playwright.sync_api import expect

from .pages import declare, open_phone
from .test_holoecho_state_form import holoecho_in_play

pytestmark = pytest.mark.browser

NARROW = {"width": 360, "height": 740}
IN_HOLOECHO = {
    "en": "Hassassin Ayyar is in Holoecho: an ARO picks one of what you see",
    "es": "Hassassin Ayyar está en estado Holoeco: una ORA elige uno de los que ves",
}
MAY_DELAY = {
    "en": "you may delay it until its second Short Skill (HE-8)",
    "es": "puedes retrasarla hasta su segunda Habilidad Corta (HE-8)",
}
OWNER_IN_HOLOECHO = {
    "en": "Hassassin Ayyar is in Holoecho: your opponent's ARO picks one of what they see",
    "es": "Hassassin Ayyar está en estado Holoeco: la ORA de tu rival elige uno de los que ve",
}
OPPONENT_MAY_DELAY = {
    "en": "they may delay it until its second Short Skill (HE-8)",
    "es": "puede retrasarla hasta su segunda Habilidad Corta (HE-8)",
}


def to_orders(alice, bob) -> None:
    """Alice ends her Tactical Phase (Bob lets TM-S2 pass) and her
    Impetuous Phase over HTTP: her Orders Phase."""
    for step, phase in enumerate(("tactical", "tactical", "impetuous")):
        if "DeclineStrategicUse" in bob.page():
            reply = bob.act("DeclineStrategicUse", f"s2-{bob.code}")
            assert reply.status == 200 and reply.error is None, reply.error
        if f'name="expected" value="{phase}"' in alice.page():
            reply = alice.act("AdvancePhase", f"phase-{step}-{alice.code}", expected=phase)
            assert reply.status == 200 and reply.error is None, reply.error


@pytest.mark.parametrize("lang", ["es", "en"])
@pytest.mark.parametrize(("skill", "may_delay"), [("move", True), ("cautious_move", False)])
def test_he_8_a_delay_is_offered_and_said_only_when_a_second_short_skill_can_come(
    server, phone, lang, skill, may_delay
):
    alice_http, bob_http, _hassassin = holoecho_in_play(server.url)
    to_orders(alice_http, bob_http)
    alice = open_phone(phone, alice_http, server.url, lang, viewport=NARROW)
    bob = open_phone(phone, bob_http, server.url, lang, viewport=NARROW)
    declare(alice, "Hassassin Ayyar", skill)
    expect(bob.locator(".rulings")).to_contain_text(IN_HOLOECHO[lang])
    expect(alice.locator(".rulings")).to_contain_text(OWNER_IN_HOLOECHO[lang])
    expect(alice.locator(".rulings")).not_to_contain_text(IN_HOLOECHO[lang])
    delay = bob.locator("select[name=skill] option[value=delay_aro]")
    if may_delay:
        expect(delay).to_have_count(1)
        expect(bob.locator(".rulings")).to_contain_text(MAY_DELAY[lang])
        expect(alice.locator(".rulings")).to_contain_text(OPPONENT_MAY_DELAY[lang])
    else:
        expect(delay).to_have_count(0)
        for page in (alice, bob):
            expect(page.locator(".rulings")).not_to_contain_text(MAY_DELAY[lang])
            expect(page.locator(".rulings")).not_to_contain_text(OPPONENT_MAY_DELAY[lang])
