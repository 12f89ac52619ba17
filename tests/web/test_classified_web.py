"""Classified Objectives end to end on two phones, through the forms each
page rendered (CL-1..CL-6): created with the match, drawn by the server,
kept sealed, one accomplished and revealed with its proof on both phones and
counted in the result, one never accomplished and still sealed from the
opponent at the end, and the organizer's audit showing the draw verified."""

from __future__ import annotations

import json
import re

import pytest
from bs4 import BeautifulSoup

from tests.web.organizer_table import audit_page, fresh, rewrite_log, text_of
from tests.web.rendered_forms import FormNotOnPage, submit
from tests.web.table import error_of
from tracker.models import Match
from tracker.reading import load_state
from tracker.rules.classified import DEFAULT_DECK, draw, hand_of
from tracker.rules.command_tokens import s2_deciding
from tracker.rules.state import FINISHED, PLAYING

pytestmark = pytest.mark.django_db

PROOF = "Kaplan held the console at the end of Round 1"


def page(client, match) -> str:
    response = client.get(f"/m/{match.code}/")
    assert response.status_code == 200
    return response.content.decode()


def ok(response):
    assert response.status_code in (200, 302), response.status_code
    assert error_of(response) is None, error_of(response)
    return response


def create_with_classified(alice) -> Match:
    home = alice.get("/").content.decode()
    response = submit(
        alice,
        home,
        "/new/",
        name="League night",
        points_limit=300,
        rounds=1,
        classified_drawn=3,
        classified_kept=2,
    )
    assert response.status_code == 302, response.content.decode()[:800]
    return Match.objects.get(code=response["Location"].split("/")[2])


def claim(client, match, letter, name):
    seat = match.seats.get(letter=letter)
    link = f"/m/{match.code}/s/{seat.token}/"
    form_page = client.get(link).content.decode()
    response = submit(client, form_page, link, htmx=False, at=link, name=name, pin="246813")
    assert response.status_code == 302


def lock_a_list(client, match, trooper, cost):
    ok(submit(client, page(client, match), "/draft/add/", name=trooper, cost=cost))
    ok(submit(client, page(client, match), "/act/LockArmyList/"))


def play_to_the_end(phones, match, limit=40):
    while limit:
        limit -= 1
        state = load_state(fresh(match))
        if state.phase != PLAYING:
            return
        deciding = s2_deciding(state)
        if deciding is not None:  # TM-S2's moment after the first Order Count: it passes
            client = phones[deciding]
            ok(submit(client, page(client, match), "/act/DeclineStrategicUse/"))
            continue
        client = phones[state.turn.seat]
        ok(submit(client, page(client, match), "/act/AdvancePhase/"))
    raise AssertionError("the match did not end")


def drawn_by_alice(alice, bob) -> Match:
    """A match with Classified Objectives, both lists locked, and Alice's
    draw tapped on her phone (CL-2)."""
    match = create_with_classified(alice)
    claim(alice, match, "A", "Alice")
    claim(bob, match, "B", "Bob")
    lock_a_list(alice, match, "Kaplan", 20)
    lock_a_list(bob, match, "Fusilier", 10)
    ok(submit(alice, page(alice, match), "/act/DrawClassified/"))
    return match


def test_classified_story_on_two_phones(alice, bob, carol):
    # CL-2: the server draws; Bob sees that Alice drew, not what.
    match = drawn_by_alice(alice, bob)
    state = load_state(fresh(match))
    draw_secret = state.secrets[hand_of(state, "A")["draw"]]
    drawn = list(draw_secret.payload["drawn"])
    assert drawn == draw(DEFAULT_DECK, draw_secret.payload["seed"], 3)
    alice_page = page(alice, match)
    assert all(card in alice_page for card in drawn)
    bob_page = page(bob, match)
    assert not any(card in bob_page for card in drawn)
    assert draw_secret.payload["seed"] not in bob_page and draw_secret.nonce not in bob_page

    # CL-3: Alice keeps two; Bob's phone says she holds 2.
    ok(submit(alice, alice_page, "/act/KeepClassified/", keep=["0", "2"]))
    accomplished_card, never_card = drawn[0], drawn[2]
    assert "2 Classified Objectives held" in text_of(page(bob, match))

    ok(submit(alice, page(alice, match), "/act/SetInitiative/"))
    ok(submit(alice, page(alice, match), "/act/SealDeployment/"))
    ok(submit(bob, page(bob, match), "/act/SealDeployment/"))
    assert load_state(fresh(match)).phase == PLAYING

    # CL-5: Alice accomplishes one; both phones show it with its proof.
    state = load_state(fresh(match))
    held = {state.secrets[i].payload["card"]: i for i in hand_of(state, "A")["held"]}
    response = submit(
        alice,
        page(alice, match),
        "/act/AccomplishClassified/",
        within=f"#held-{held[accomplished_card]}",
        proof=PROOF,
    )
    ok(response)
    for client in (alice, bob):
        shown = page(client, match)
        secret_li = re.search(
            rf'<li class="secret revealed" id="secret-{held[accomplished_card]}">(.*?)</li>',
            shown,
            re.S,
        )
        assert secret_li, "the accomplished card is shown as revealed"
        assert accomplished_card in secret_li.group(1)
        assert "Matches what was sealed" in secret_li.group(1)
        assert PROOF in shown
    assert "1 Classified Objective held" in text_of(page(bob, match))

    # The points flow into the result proposal; Bob confirms.
    play_to_the_end({"A": alice, "B": bob}, match)
    result_page = page(alice, match)
    assert re.search(r'name="objective_a"[^>]*value="1"', result_page)
    ok(submit(alice, result_page, "/act/ProposeResult/", army_a=20, army_b=10))
    ok(submit(bob, page(bob, match), "/act/ConfirmResult/"))
    final = fresh(match)
    assert final.result["objective_points"]["A"] == 1
    assert load_state(final).phase == FINISHED

    # CL-6: the other card is still sealed from Bob at the end...
    never_id = held[never_card]
    never = load_state(final).secrets[never_id]
    bob_page = page(bob, match)
    assert never_card not in bob_page and never.nonce not in bob_page
    assert f'id="secret-{never_id}"' in bob_page  # ...but he sees it is held
    assert never_card in page(alice, match)  # (the check can fail)
    export = bob.get(f"/m/{match.code}/export.json").content.decode()
    assert never.nonce not in export  # (the deck itself is public: CL-1)
    (entry,) = [
        s
        for seat in json.loads(export)["view"]["seats"]
        for s in seat["secrets"]
        if s["id"] == never_id
    ]
    assert entry["payload"] is None and entry["nonce"] is None

    # ...and open to the organizer, with the draw verified.
    audit = audit_page(carol, final)
    assert never_card in audit
    block = re.search(r'id="classified-draw-A">(.*?)</li>', audit, re.S).group(1)
    assert "draw verified" in block and all(card in block for card in drawn)


def test_a_match_created_without_classified_offers_no_draw(alice, bob):
    home = alice.get("/").content.decode()
    response = submit(alice, home, "/new/", name="Casual", classified_drawn=0)
    match = Match.objects.get(code=response["Location"].split("/")[2])
    claim(alice, match, "A", "Alice")
    lock_a_list(alice, match, "Kaplan", 20)
    with pytest.raises(FormNotOnPage):
        submit(alice, page(alice, match), "/act/DrawClassified/")


def test_attack_a_forged_seed_is_ignored(alice, bob):
    """CL-2: the seed is chosen by the server; a seed in the post is not read."""
    match = create_with_classified(alice)
    claim(alice, match, "A", "Alice")
    lock_a_list(alice, match, "Kaplan", 20)
    forged = "00" * 32
    alice.post(
        f"/m/{match.code}/act/DrawClassified/",
        {"action_id": "forge-seed-0001", "seed": forged, "nonce": "00" * 16, "secret_id": "aaaa"},
        HTTP_HX_REQUEST="true",
    )
    state = load_state(fresh(match))
    payload = state.secrets[hand_of(state, "A")["draw"]].payload
    assert payload["seed"] != forged and len(payload["seed"]) == 64
    assert "aaaa" not in state.secrets


def test_bad_settings_are_explained_on_the_form(alice):
    home = alice.get("/").content.decode()
    response = submit(alice, home, "/new/", name="Odd", classified_drawn=3, classified_kept=5)
    assert response.status_code == 400
    assert "Cards kept must be between 1 and the cards drawn" in response.content.decode()


def test_verify_matches_names_a_draw_rewritten_with_its_commitment(alice, bob):
    """A database editor who swaps the cards drawn and recomputes the
    commitment and the whole hash chain is still caught: the seed does not
    draw those cards (CL-2)."""

    from tracker import audit
    from tracker.models import MatchEvent
    from tracker.rules.commitments import canonical_json, commit

    match = create_with_classified(alice)
    claim(alice, match, "A", "Alice")
    lock_a_list(alice, match, "Kaplan", 20)
    ok(submit(alice, page(alice, match), "/act/DrawClassified/"))
    rows = list(MatchEvent.objects.filter(match=match).order_by("seq"))
    assert audit.verify_rows(rows).ok

    def reorder_the_draw(row):
        if row.kind != "SecretsSealed" or "classified_draw" not in row.data:
            return row.data
        data = json.loads(row.data)
        secret = data["secrets"][0]
        secret["payload"]["drawn"] = list(reversed(secret["payload"]["drawn"]))
        secret["commitment"] = commit(secret["nonce"], secret["payload"])
        return canonical_json(data)

    rewrite_log(match, None, edit=reorder_the_draw)
    check = audit.verify_rows(list(MatchEvent.objects.filter(match=match).order_by("seq")))
    assert check.chain_ok and not check.ok
    assert [p.code for p in check.problems] == ["draw"]
    # The export's verification says which proof failed: the draw is one of
    # the commitments, not a chain fault.
    assert not check.commitments_ok and check.as_dict()["commitments_ok"] is False


def test_an_exchange_deals_an_unseen_card_and_the_audit_verifies_it(alice, bob, carol):
    """CL-4 through the forms: the exchanged card comes from the cards not yet
    seen, Bob still sees one held, and the organizer's draw check covers it."""
    home = alice.get("/").content.decode()
    response = submit(
        alice,
        home,
        "/new/",
        name="Exchange night",
        classified_drawn=2,
        classified_kept=1,
        classified_exchanges=1,
    )
    match = Match.objects.get(code=response["Location"].split("/")[2])
    claim(alice, match, "A", "Alice")
    claim(bob, match, "B", "Bob")
    lock_a_list(alice, match, "Kaplan", 20)
    ok(submit(alice, page(alice, match), "/act/DrawClassified/"))
    ok(submit(alice, page(alice, match), "/act/KeepClassified/", keep=["1"]))
    state = load_state(fresh(match))
    drawn = list(state.secrets[hand_of(state, "A")["draw"]].payload["drawn"])
    (old,) = hand_of(state, "A")["held"]
    ok(submit(alice, page(alice, match), "/act/ExchangeClassified/", within=f"#held-{old}"))
    state = load_state(fresh(match))
    (new,) = hand_of(state, "A")["held"]
    card = state.secrets[new].payload["card"]
    assert new != old and card not in drawn
    assert "1 Classified Objective held" in text_of(page(bob, match))
    assert card not in page(bob, match)
    # Both phones mark the seal exchanged away, and only that one: Bob's
    # listed two Classified seals, unmarked, beside "1 held".
    for client in (alice, bob):
        seals = BeautifulSoup(page(client, match), "lxml")
        assert seals.select_one(f"#secret-{old} .badge").get_text() == "exchanged"
        assert seals.select_one(f"#secret-{new} .badge") is None
    with pytest.raises(FormNotOnPage):  # one exchange allowed
        submit(alice, page(alice, match), "/act/ExchangeClassified/")
    audit = audit_page(carol, match)
    seed = state.secrets[new].payload["seed"]
    assert "sealed (still in play)" in audit and seed not in audit
    # The organizer opens the sealed information (recorded, both phones told).
    opened = submit(carol, audit, "/open/", htmx=False)
    assert opened.status_code == 302
    block = re.search(r'id="classified-draw-A">(.*?)</li>', audit_page(carol, match), re.S)
    assert "draw verified" in block.group(1) and all(c in block.group(1) for c in drawn)


def test_a_card_shows_its_name_and_no_stray_number(alice, bob):
    """A Classified seal's payload keeps the card's place in the draw
    ("position": 2) for the proof; the payload template read it as a Hidden
    Deployment's written position and put a bare "2" before the card's name,
    "2 HVT: Espionage", on both phones (a number a player takes for the
    card's points). Each phone shows the card's name alone."""
    match = drawn_by_alice(alice, bob)
    state = load_state(fresh(match))
    drawn = list(state.secrets[hand_of(state, "A")["draw"]].payload["drawn"])
    ok(submit(alice, page(alice, match), "/act/KeepClassified/", keep=["1", "2"]))
    ok(submit(alice, page(alice, match), "/act/SetInitiative/"))
    ok(submit(alice, page(alice, match), "/act/SealDeployment/"))
    ok(submit(bob, page(bob, match), "/act/SealDeployment/"))
    state = load_state(fresh(match))
    held = {state.secrets[i].payload["card"]: i for i in hand_of(state, "A")["held"]}
    card = drawn[2]
    ok(
        submit(
            alice,
            page(alice, match),
            "/act/AccomplishClassified/",
            within=f"#held-{held[card]}",
            proof=PROOF,
        )
    )
    for client in (alice, bob):
        shown = page(client, match)
        payload = re.search(
            rf'id="secret-{held[card]}">.*?<div class="payload">(.*?)</div>', shown, re.S
        ).group(1)
        assert " ".join(re.sub(r"<[^>]+>", " ", payload).split()) == card
