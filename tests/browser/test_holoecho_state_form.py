"""The State form of a trooper in Holoecho offers no Unconscious, Dead or
Sepsitorized (HE-C4): found playing a casual match on two phones, where the
host set her Holoprojector trooper Dead from it and both phones went on
showing a dead trooper with its three Holoechoes on the table, its real one
still sealed. A trooper in Holoecho falls by the Saving Roll reported on the
Holoecho hit, which ends it; then the form offers them. Spanish and English.
"""

import re

import pytest
from playwright.sync_api import expect

from tests.scale.servers import seat_players

from .pages import LIVE, open_phone, open_state

pytestmark = pytest.mark.browser

LISTS = {
    "A": [("Kaplan", 20, ["lieutenant_candidate"]), ("Hassassin Ayyar", 40, ["holoprojector"])],
    "B": [("Fusilier", 10, ["lieutenant_candidate"])],
}


def holoecho_in_play(url):
    """Alice's Hassassin in Holoecho, its real one marker 1: both
    deployments sealed over HTTP. Returns the players and the Hassassin's id."""
    alice, bob = seat_players(url)
    for player in (alice, bob):
        for name, cost, traits in LISTS[player.letter]:
            reply = player.add_trooper(name, cost, traits)
            assert reply.status == 200 and reply.error is None, reply.error
        player.act("LockArmyList", f"lock-{player.letter}-{player.code}")
    alice.act("SetInitiative", f"init-{alice.code}", first_turn="A", deploys_first="A")
    ids = dict(
        (name, found)
        for found, name in re.findall(
            r'id="trooper-([a-f0-9]+)">\s*<span class="name">([^<]+)</span>',
            alice.page() + bob.page(),
        )
    )
    hassassin = ids["Hassassin Ayyar"]
    seals = (
        (alice, {"lieutenant": ids["Kaplan"], f"holoecho_{hassassin}": "marker1"}),
        (bob, {"lieutenant": ids["Fusilier"]}),
    )
    for player, fields in seals:
        reply = player.act("SealDeployment", f"seal-{player.letter}", **fields)
        assert reply.status == 200 and reply.error is None, reply.error
    return alice, bob, hassassin


@pytest.mark.parametrize("lang", ["es", "en"])
def test_a_trooper_in_holoecho_is_not_offered_out_of_action_until_its_hit_is_reported(
    server, phone, lang
):
    alice_http, bob_http, hassassin = holoecho_in_play(server.url)
    alice = open_phone(phone, alice_http, server.url, lang, viewport={"width": 360, "height": 740})
    row = f"#trooper-{hassassin}"
    dialog = open_state(alice, row)
    out_of_action = dialog.locator("select[name=condition] option[data-out]")
    expect(out_of_action).to_have_count(3)
    for option in out_of_action.all():
        expect(option).to_be_disabled()
    dialog.locator("button[data-close]").click()
    # Kaplan is in no Holoecho: every state is offered for him.
    kaplan = open_state(alice, alice.locator("#blk-seat_A li.trooper", has_text="Kaplan"))
    expect(kaplan.locator("select[name=condition] option[disabled]")).to_have_count(0)
    kaplan.locator("button[data-close]").click()

    # The hit on the real one reported (HE-C4): its Holoecho ends, the row
    # says so, and the form offers Dead.
    reply = bob_http.act(
        "ReportOutcome",
        f"hit-{bob_http.code}",
        outcome="saving_roll",
        trooper_id=hassassin,
        element="marker1",
    )
    assert reply.status == 200 and reply.error is None, reply.error
    expect(alice.locator(f"{row}[data-holoecho]")).to_have_count(0)
    expect(alice.locator("#connection")).to_have_text(LIVE[lang])
    dialog = open_state(alice, row)
    dialog.locator("select[name=condition]").select_option("dead")
    dialog.locator("button.primary").click()
    expect(alice.locator(f"{row} .badge.cond")).to_be_visible()
