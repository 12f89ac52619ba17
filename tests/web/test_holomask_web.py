"""HoloMask on two phones (HE-9, RT-5): Bob's page, frames and export name
Alice's masked trooper by the troop type she sealed, never the true one,
until HoloMask ends; her phone asks for the Holoecho token (HE-9)."""

from __future__ import annotations

import pytest

from tracker.models import Match
from tracker.reading import load_state
from tracker.rendering import blocks_for, oob_frame

from .phone_flows import BOB_LIST, ok, seated, to_orders, trooper_ids
from .table import error_of, raw_post_as

pytestmark = pytest.mark.django_db

TRUE_TYPE = "Hassassin Ayyar"
SHOWN = "Ghulam Sniper"
ALICE = (
    (TRUE_TYPE, 40, 1, 2, ["holoprojector", "holomask"]),
    ("Kaplan", 20, 1, 2, ["lieutenant_candidate"]),
)


def bobs_bytes(b) -> str:
    match = Match.objects.get()
    seq, blocks = blocks_for(match, match.seats.get(letter="B"))
    export = b.app.get(f"/m/{match.code}/export.json").text
    return b.open().text + b.html + oob_frame(blocks, seq) + export


def masked_match():
    from .phone_flows import lists_locked

    a, b = seated()
    lists_locked(a, b, alice_list=ALICE, bob_list=BOB_LIST)
    ok(a, a.submit("SetInitiative", first_turn="Alice", deploys_first="Alice"))
    assert TRUE_TYPE not in bobs_bytes(b)  # listed, not yet deployed: no type at all
    hassassin = trooper_ids()[TRUE_TYPE]
    a.open()
    ok(
        a,
        a.submit(
            "SealDeployment",
            lieutenant="Kaplan",
            **{
                f"holoecho_{hassassin}": "marker1",
                f"holomask_{hassassin}": SHOWN,
                f"holomask_cost_{hassassin}": "17",
            },
        ),
    )
    b.open()
    ok(b, b.submit("SealDeployment", lieutenant="Fusilier"))
    to_orders(a, b)
    return a, b, hassassin


def test_bob_reads_the_masked_type_and_alice_is_asked_for_the_holoecho_token():
    a, b, hassassin = masked_match()
    seen = bobs_bytes(b)
    assert SHOWN in seen and TRUE_TYPE not in seen
    line = b.soup.select_one(f"#trooper-{hassassin}")
    assert line.select_one("small").get_text() == "17 G1"  # the masked points, not 40
    ok(a, a.submit("DeclareSkill", trooper_id=TRUE_TYPE, skill="Move"))
    assert "place the Holoecho token" in a.text
    # HE-9: the Order cannot end before the token is down, so her page does
    # not offer to end it (a forged post is refused: below).
    assert not a.forms("EndOrder")
    # HE-9: with HoloMask the markers are models: three models, on her phone
    # and in both logs.
    [token_form] = a.forms("PlaceHoloechoToken")
    options = [o.get_text() for o in token_form.node.select("select[name=element] option")]
    assert options == ["Model 1", "Model 2", "Model 3"]
    ok(a, a.submit("PlaceHoloechoToken", element="Model 3"))
    assert a.forms("EndOrder")
    ok(a, a.submit("EndOrder"))
    seen = bobs_bytes(b)
    assert SHOWN in seen and TRUE_TYPE not in seen
    assert "A Holoecho token is placed beside Model 3" in b.text
    assert "Holoecho marker 2" not in b.text


def test_a_forged_end_of_the_order_before_the_token_is_refused_he_9():
    """The page offers no End the Order before the token; a hand-built post
    is refused with the rule, and the Order goes on."""
    a, b, hassassin = masked_match()
    ok(a, a.submit("DeclareSkill", trooper_id=TRUE_TYPE, skill="Move"))
    refused = error_of(raw_post_as(a, "EndOrder"))
    assert refused is not None and "HE-9" in refused
    a.open()
    assert a.forms("PlaceHoloechoToken") and not a.forms("EndOrder")


def test_when_alice_ends_holomask_bob_reads_the_true_type_with_its_proof():
    a, b, hassassin = masked_match()
    mask = next(
        s for s in load_state(Match.objects.get()).secrets.values() if s.kind == "holomask_type"
    )
    a.open()
    assert "True troop type (HoloMask)" in a.text
    # Alice taps "Reveal" on the line of that seal (the form carries its id).
    ok(a, a.submit("RevealSecret", secret_id=mask.id))
    b.open()
    assert TRUE_TYPE in b.text and "HoloMask ends" in b.text
    assert "Matches what was sealed" in b.soup.select_one("#blk-seat_A").get_text()


def test_lines_shown_under_holomask_read_the_same_after_it_ends(monkeypatch):
    """HE-9: a Holoecho line names models ("Model 3") while HoloMask is on,
    and still does once it ends (the trooper keeps HoloMask: its markers are
    still models). The log's lines are memoized on what they read
    (tracker_tags.line_reads: masked, or the holomask trait); across the end
    of the mask every render that keeps a line or a block is checked against
    a render from scratch (rendering.CHECK raises StaleBlock)."""
    from tracker import rendering

    monkeypatch.setattr(rendering, "CHECK", True)
    checked = rendering.stats["reused"]
    a, b, hassassin = masked_match()
    ok(a, a.submit("DeclareSkill", trooper_id=TRUE_TYPE, skill="Move"))
    ok(a, a.submit("PlaceHoloechoToken", element="Model 3"))
    ok(a, a.submit("EndOrder"))
    b.open()
    assert "beside Model 3" in b.soup.select_one("#blk-log").get_text(" ", strip=True)
    mask = next(
        s for s in load_state(Match.objects.get()).secrets.values() if s.kind == "holomask_type"
    )
    a.open()
    ok(a, a.submit("RevealSecret", secret_id=mask.id))
    for phone in (a, b):
        phone.open()
        log = phone.soup.select_one("#blk-log").get_text(" ", strip=True)
        assert "HoloMask ends" in log and "beside Model 3 of Hassassin Ayyar" in log, log
    assert rendering.stats["reused"] > checked  # blocks were kept, and so checked
