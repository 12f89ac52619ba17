"""HE-D2 on two phones, in Spanish and English: a Holoecho decoy that
touches one of its own side's models leaves the table ("Entre en contacto de
Silueta con una Miniatura"); the real one touching it stays in Holoecho
(HE-C3 needs "una Miniatura enemiga"), and the opponent's phone never reads
which one that was."""

import pytest
from playwright.sync_api import expect

from .pages import open_phone, report
from .test_holoecho_state_form import holoecho_in_play

pytestmark = pytest.mark.browser

DECOY_GONE = {
    "en": "Holoecho marker 2 was a decoy — it touched a model and is removed (HE-D2)",
    "es": "Marcador de Holoeco 2 era un señuelo — ha tocado una miniatura y se retira (HE-D2)",
}
REAL_STAYS = {
    "en": "touching one of your own models does not end its Holoecho",
    "es": "tocar una de tus propias Miniaturas no cancela su Holoeco",
}


@pytest.mark.parametrize("lang", ["es", "en"])
def test_a_holoecho_touching_its_own_side_removes_a_decoy_not_the_real_one(server, phone, lang):
    alice_http, bob_http, hassassin = holoecho_in_play(server.url)
    alice = open_phone(phone, alice_http, server.url, lang)
    bob = open_phone(phone, bob_http, server.url, lang)
    row = f"#trooper-{hassassin}"
    expect(bob.locator(f"{row}[data-holoecho]")).to_have_count(1)
    # Bob is not offered it: only its player says it touched its own side.
    expect(bob.locator("select[name=outcome] option[value=own_contact]")).to_have_count(0)

    report(alice, "own_contact", "Hassassin Ayyar (Alice)", "marker2")
    for page in (alice, bob):
        expect(page.locator(".rulings")).to_contain_text(DECOY_GONE[lang])

    report(alice, "own_contact", "Hassassin Ayyar (Alice)", "marker1")
    expect(alice.locator("body")).to_contain_text(REAL_STAYS[lang])
    # Bob's phone: still in Holoecho, the real one unread.
    expect(bob.locator(f"{row}[data-holoecho]")).to_have_count(1)
    expect(bob.locator("body")).not_to_contain_text(REAL_STAYS[lang])
    expect(bob.locator(row)).to_contain_text(
        {"en": "Holoecho marker 1", "es": "Marcador de Holoeco 1"}[lang]
    )
