"""RT-7 on two phones, one in Spanish and one in English: when the army in
Retreat! loses its last trooper, "concluye la batalla". Both phones say so
at once (the match waited for the next Player Turn's start before), and a
tap on either ends the match: both phones then read that it is over. At a
glance (issue 19) the card is each phone's decision: before the last things
that happened, within the first screen of a 360 px phone."""

import re

import pytest
from playwright.sync_api import expect

from tests.scale.servers import seat_players

from .pages import open_phone, open_state

pytestmark = pytest.mark.browser

NARROW = {"width": 360, "height": 740}
# Alice's list is 40 points: with Big lost, Kaplan's 10 are exactly 25%.
LISTS = {
    "A": (("Kaplan", 10, ["lieutenant_candidate"]), ("Big", 30, [])),
    "B": (("Fusilier", 10, ["lieutenant_candidate"]), ("Bolt", 15, [])),
}
PHASES = ("tactical", "tactical", "impetuous", "orders", "states")
OWN_LINE = {
    "en": "Your army is in Retreat! and has no troopers left on the table",
    "es": "Tu ejército está en ¡¡¡Retirada!!! y no te quedan tropas en la mesa",
}
OPPONENT_LINE = {
    "en": "Alice's army is in Retreat! and has no troopers left on the table",
    "es": "El ejército de Alice está en ¡¡¡Retirada!!! y no le quedan tropas en la mesa",
}
END_IT = {"en": "End the match (RT-7)", "es": "Terminar la partida (RT-7)"}
OVER = {"en": "The match is over.", "es": "La partida ha terminado."}
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


def ok(reply) -> None:
    assert reply.status == 200 and reply.error is None, reply.error


def end_turn(player, other) -> None:
    """`player` ends every phase of its Player Turn over HTTP (`other` lets
    the TM-S2 moment pass when it comes)."""
    for step, phase in enumerate(PHASES):
        if "DeclineStrategicUse" in other.page():
            ok(other.act("DeclineStrategicUse", f"s2-{other.letter}-{step}"))
        if f'name="expected" value="{phase}"' in player.page():
            ok(player.act("AdvancePhase", f"end-{player.letter}-{step}-{phase}", expected=phase))


def alice_in_retreat(url):
    """Big falls in Round 1; Alice's Round 2 Turn starts in Retreat! (RT-A):
    set over HTTP, as pages.playing sets a match up. Returns the players and
    Kaplan's id, her last trooper on the table."""
    alice, bob = seat_players(url)
    for player in (alice, bob):
        for name, cost, traits in LISTS[player.letter]:
            ok(player.add_trooper(name, cost, traits))
        ok(player.act("LockArmyList", f"lock-{player.letter}"))
    ok(alice.act("SetInitiative", "init", first_turn="A", deploys_first="A"))
    ids = {
        name: found
        for found, name in re.findall(
            r'id="trooper-([a-f0-9]+)">\s*<span class="name">([^<]+)</span>', alice.page()
        )
    }
    ok(alice.act("SealDeployment", "seal-A", lieutenant=ids["Kaplan"]))
    ok(bob.act("SealDeployment", "seal-B", lieutenant=ids["Fusilier"]))
    ok(bob.act("SetTrooperState", "big-dead", trooper_id=ids["Big"], condition="dead"))
    end_turn(alice, bob)
    end_turn(bob, alice)
    assert 'id="retreat"' in alice.page()
    return alice, bob, ids["Kaplan"]


def takes_the_last_trooper(bob, kaplan) -> None:
    """Bob's ARO takes Kaplan: he sets it Dead from its row on his phone."""
    dialog = open_state(bob, f"#trooper-{kaplan}")
    dialog.locator("select[name=condition]").select_option("dead")
    dialog.locator("button:not([type=button])").click()


@pytest.mark.parametrize("lang", ["es", "en"])
def test_rt_7_both_phones_say_the_battle_is_over_and_a_tap_ends_the_match(server, phone, lang):
    other = "en" if lang == "es" else "es"
    alice_http, bob_http, kaplan = alice_in_retreat(server.url)
    alice = open_phone(phone, alice_http, server.url, lang, viewport=NARROW)
    bob = open_phone(phone, bob_http, server.url, other, viewport=NARROW)
    takes_the_last_trooper(bob, kaplan)
    expect(alice.locator("#battle-over")).to_contain_text(OWN_LINE[lang])
    expect(bob.locator("#battle-over")).to_contain_text(OPPONENT_LINE[other])
    for page in (alice, bob):
        expect(page.locator("#blk-controls")).not_to_contain_text(OVER[lang])
        expect(page.locator("#blk-controls")).not_to_contain_text(OVER[other])
    bob.get_by_role("button", name=END_IT[other]).click()
    for page, language in ((alice, lang), (bob, other)):
        expect(page.locator("#blk-controls")).to_contain_text(OVER[language])
        expect(page.locator("#battle-over")).to_have_count(0)


@pytest.mark.parametrize("lang", ["es", "en"])
def test_rt_7_the_end_the_match_card_is_within_the_first_screen(server, phone, lang):
    alice_http, bob_http, kaplan = alice_in_retreat(server.url)
    takes_the_last_trooper(open_phone(phone, bob_http, server.url, lang, viewport=NARROW), kaplan)
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
