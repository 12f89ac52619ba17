"""TM-S2 on two phones 360 px wide, in Spanish and English: between the
first player's Order Count and the second player's answer her phone offers
no Command Token (its card is gone, the server refuses one). Her waiting line
said only that he decides, so a player looking for her Command Tokens card
read nowhere why it was gone; it now says she cannot spend one until then,
and the card is back once he has answered."""

import pytest
from playwright.sync_api import expect

from .pages import open_phone, playing

pytestmark = pytest.mark.browser

NARROW = {"width": 360, "height": 740}
COUNT_DONE = {"en": "Order Count done", "es": "Recuento de Órdenes hecho"}
LET_IT_PASS = {"en": "No Strategic Use", "es": "Sin Uso Estratégico"}
NO_TOKENS_MEANWHILE = {
    "en": "Until then you cannot spend Command Tokens (TM-S2).",
    "es": "Hasta entonces no puedes gastar Tokens de Mando (TM-S2).",
}


@pytest.mark.parametrize("lang", ["es", "en"])
def test_tm_s2_the_first_player_reads_why_her_command_tokens_are_gone(server, phone, lang):
    alice_http, bob_http, _ids = playing(server.url)
    alice = open_phone(phone, alice_http, server.url, lang, viewport=NARROW)
    bob = open_phone(phone, bob_http, server.url, lang, viewport=NARROW)
    tokens = alice.locator("#command-tokens")
    expect(tokens).to_be_visible()  # her Active Turn, before the count

    alice.click(f"button:has-text('{COUNT_DONE[lang]}')")
    waiting = alice.locator("#s2-waiting")
    expect(waiting).to_contain_text(NO_TOKENS_MEANWHILE[lang])
    expect(tokens).to_have_count(0)
    # Bob is the one deciding: his phone shows his TM-S2 card, not her line.
    expect(bob.locator("#tm-s2")).to_be_visible()
    expect(bob.locator("body")).not_to_contain_text(NO_TOKENS_MEANWHILE[lang])

    bob.click(f"button:has-text('{LET_IT_PASS[lang]}')")
    expect(waiting).to_have_count(0)
    expect(tokens).to_be_visible()
    expect(alice.locator("body")).not_to_contain_text(NO_TOKENS_MEANWHILE[lang])
