"""Sealing a deployment on a venue's Wi-Fi that resets, as a new player does
it: two Lieutenant candidates in her list, she picks the second one, taps
"Seal my deployment", and the tap is given up on ("not saved"). Before, the
form was put back as first sent: the Lieutenant choice showed the first
candidate again (and the real Holoecho no choice), so tapping "Seal" again,
as the bar invites, sealed the wrong Lieutenant, for good. Now the form
keeps what she chose, and tapping again seals it once. Only the forms that
show the server's state (a trooper's State, a list row's traits) are put
back. A real network fault (tests/browser/netfault.py); Spanish and English.
"""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from tests.scale.servers import seat_players

from .pages import LIVE, NOT_SAVED, open_phone

pytestmark = pytest.mark.browser

SEAL = {"en": "Seal my deployment", "es": "Sellar mi despliegue"}
LIEUTENANT = {"en": "Lieutenant", "es": "Teniente"}


def two_candidates_to_deployment(url):
    """Alice lists two Lieutenant candidates (Kaplan first), Bob one; both
    lists locked; Alice deploys first."""
    alice, bob = seat_players(url)
    for player, names in ((alice, ("Kaplan", "Zhanshi")), (bob, ("Fusilier",))):
        for name in names:
            reply = player.add_trooper(name, 10, ["lieutenant_candidate"])
            assert reply.status == 200 and reply.error is None, reply.error
        reply = player.act("LockArmyList", f"lock-{player.letter}-{player.code}")
        assert reply.status == 200 and reply.error is None, reply.error
    reply = alice.act("SetInitiative", f"init-{alice.code}", first_turn="A", deploys_first="A")
    assert reply.status == 200 and reply.error is None, reply.error
    return alice, bob


@pytest.mark.parametrize("lang", ["es", "en"])
def test_a_seal_given_up_on_keeps_the_chosen_lieutenant(served, link, phone, lang):
    alice_http, _bob_http = two_candidates_to_deployment(served.url)
    alice = open_phone(phone, alice_http, link.url, lang, viewport={"width": 360, "height": 740})
    alice.on("dialog", lambda dialog: dialog.accept())  # "Seal your deployment?"
    form = alice.locator("form[hx-post$='/act/SealDeployment/']")
    chosen = form.locator("select[name=lieutenant] option:checked")
    form.locator("select[name=lieutenant]").select_option(label="Zhanshi")

    link.reset()
    form.get_by_role("button", name=SEAL[lang]).click()
    expect(alice.locator("#unsent")).to_be_visible(timeout=30_000)
    expect(alice.locator("#unsent")).to_contain_text(NOT_SAVED[lang])
    link.restore()
    expect(alice.locator("#connection")).to_have_text(LIVE[lang])

    # The form still shows her choice; tapping again seals that one, once.
    expect(chosen).to_have_text("Zhanshi")
    form.get_by_role("button", name=SEAL[lang]).click()
    expect(form).to_have_count(0)
    expect(alice.locator("#unsent")).to_be_hidden()
    sealed = alice.locator("#blk-seat_A li.secret").filter(has_text=LIEUTENANT[lang])
    expect(sealed).to_have_count(1)
    expect(sealed).to_contain_text("Zhanshi")
    expect(sealed).not_to_contain_text("Kaplan")
