"""RT-7 at a glance (issue 19), on two 360 px phones in Spanish and English:
once the army in Retreat! has lost its last trooper, the End the match card
is each phone's decision, so it comes before the last things that happened
and ends within the first screen (a banner strip cleared with one tap), as
every decision card does."""

import re

import pytest
from playwright.sync_api import expect

from tests.scale.servers import seat_players

from .pages import open_phone

pytestmark = pytest.mark.browser

NARROW = {"width": 360, "height": 740}
# Alice's list is 100 points; losing Big leaves 25 (exactly 25%: Retreat!).
LISTS = {
    "A": [
        ("Kaplan", 10, ["lieutenant_candidate"]),
        ("Veteran Sergeant", 15, ["veteran"]),
        ("Big", 75, []),
    ],
    "B": [("Fusilier", 10, ["lieutenant_candidate"]), ("Bolt", 15, [])],
}
BATTLE_OVER = {
    "en": "has no troopers left on the table: the battle is over (RT-7)",
    "es": "tropas en la mesa: la batalla ha concluido (RT-7)",
}
FIRST_SCREEN_JS = """(selector) => {
  window.scrollTo(0, 0);
  const shown = [...document.querySelectorAll(selector)].filter(n => n.getClientRects().length);
  if (!shown.length) { return null; }
  return shown[0].getBoundingClientRect().bottom;
}"""


def _ok(reply) -> None:
    assert reply.status == 200 and reply.error is None, reply.error


def _end_turn(player, other, turn: str) -> None:
    """`player` ends every phase of its Player Turn over HTTP (`other` lets
    the TM-S2 moment pass when it comes)."""
    for step, phase in enumerate(("tactical", "tactical", "impetuous", "orders", "states")):
        if "DeclineStrategicUse" in other.page():
            _ok(other.act("DeclineStrategicUse", f"s2-{turn}-{other.code}"))
        if f'name="expected" value="{phase}"' in player.page():
            _ok(player.act("AdvancePhase", f"{turn}-{step}-{player.code}", expected=phase))


def alice_s_army_lost(url):
    """Big goes Unconscious in Round 1; Alice's Round 2 Turn starts in
    Retreat!, and Bob sets her last two troopers Dead."""
    alice, bob = seat_players(url)
    for player in (alice, bob):
        for name, cost, traits in LISTS[player.letter]:
            _ok(player.add_trooper(name, cost, traits))
        player.act("LockArmyList", f"lock-{player.letter}-{player.code}")
    alice.act("SetInitiative", f"init-{alice.code}", first_turn="A", deploys_first="A")
    ids = {
        name: found
        for found, name in re.findall(
            r'id="trooper-([a-f0-9]+)">\s*<span class="name">([^<]+)</span>',
            alice.page() + bob.page(),
        )
    }
    _ok(alice.act("SealDeployment", "seal-A", lieutenant=ids["Kaplan"]))
    _ok(bob.act("SealDeployment", "seal-B", lieutenant=ids["Fusilier"]))
    _end_turn(alice, bob, "r1a")
    _ok(bob.act("SetTrooperState", "big", trooper_id=ids["Big"], condition="unconscious"))
    _end_turn(bob, alice, "r1b")
    for name in ("Kaplan", "Veteran Sergeant"):
        _ok(bob.act("SetTrooperState", f"dead-{name}", trooper_id=ids[name], condition="dead"))
    return alice, bob


@pytest.mark.parametrize("lang", ["es", "en"])
def test_rt_7_the_end_the_match_card_is_within_the_first_screen(server, phone, lang):
    alice_http, bob_http = alice_s_army_lost(server.url)
    for player in (alice_http, bob_http):
        page = open_phone(phone, player, server.url, lang, viewport=NARROW)
        card = page.locator("#battle-over")
        expect(card).to_contain_text(BATTLE_OVER[lang])
        page.wait_for_function("() => !document.querySelector('.htmx-request')")
        strip = page.locator(".banners [data-banner-bar]:not([hidden])")
        if strip.count():
            strip.locator("button[data-ack]").click()
            expect(strip).to_have_count(0)
        bottom = page.evaluate(FIRST_SCREEN_JS, "#battle-over")
        assert bottom is not None and bottom <= NARROW["height"], bottom
        recent = page.evaluate(FIRST_SCREEN_JS, "#recent")
        assert recent is None or recent > bottom, (recent, bottom)
