"""HD-C3 + HE-C7 on two phones: Alice's hidden Spectre (Camouflage and a
Holoprojector) moves as "Camouflage marker 1" with its Holoechoes, and Bob
reports that its real Holoecho failed its Final Coherency check. Bob is
told which Holoecho was real, by the marker's name; not which trooper the
marker is, in his page, the frame a push sends him or his export, until
the marker state ends (docs/rules.md: the trooper under a marker is
private until then). Then both seals show, with their proofs."""

from __future__ import annotations

import pytest

from tracker.models import Match
from tracker.rendering import blocks_for, oob_frame

from .phone_flows import (
    BOB_LIST,
    CANARY_POSITION,
    lists_locked,
    ok,
    seal,
    seated,
    to_orders,
    trooper_ids,
)

pytestmark = pytest.mark.django_db

SPECTRE = "Spectre-canary-9d4e"
ALICE_LIST = (
    (SPECTRE, 40, 1, 2, ["hidden_deployment", "camouflage", "holoprojector"]),
    ("Kaplan", 20, 1, 2, ["lieutenant_candidate"]),
)
HOLOECHO_SPOTS = {
    "model": "canary-roof-31",
    "marker1": "canary-street-32",
    "marker2": "canary-tower-33",
}


def spectre_moves_as_a_marker(language=None):
    a, b = seated(language, language)
    lists_locked(a, b, alice_list=ALICE_LIST, bob_list=BOB_LIST)
    ok(a, a.submit("SetInitiative", first_turn="Alice", deploys_first="Alice"))
    ids = trooper_ids(a.code)
    spectre = ids[SPECTRE]
    seal(
        a,
        lieutenant="Kaplan",
        map_taps={f"hd_x_{spectre}": (300, 1000)},
        **{
            f"hd_position_{spectre}": CANARY_POSITION,
            f"holoecho_{spectre}": "marker2",
            **{f"he_pos_{code}_{spectre}": spot for code, spot in HOLOECHO_SPOTS.items()},
        },
    )
    seal(b, lieutenant="Fusilier")
    to_orders(a, b)
    ok(a, a.submit("DeclareSkill", trooper_id=SPECTRE, skill="move", as_marker=True))
    b.open()
    return a, b, spectre


def bobs_bytes(b) -> str:
    match = Match.objects.get()
    seq, blocks = blocks_for(match, match.seats.get(letter="B"))
    export = b.app.get(f"/m/{match.code}/export.json").text
    return b.html + oob_frame(blocks, seq) + export


def secrets_of(phone) -> str:
    return " ".join(phone.soup.select_one("#blk-seat_A").get_text(" ").split())


# What Bob's reveal banner says of a seal he cannot open yet.
WITHHELD = {
    None: "its seal and its proof show here once the marker state ends (HD-C3)",
    "es": "su sello y su prueba se muestran aquí cuando acabe el estado Marcador (HD-C3)",
}
MARKER_1 = {None: "Camouflage marker 1", "es": "Marcador de Camuflaje 1"}


@pytest.mark.parametrize("language", [None, "es"])
def test_the_real_holoecho_failing_coherency_under_a_marker_does_not_name_the_trooper(language):
    a, b, spectre = spectre_moves_as_a_marker(language)
    ok(
        b,
        b.submit(
            "ReportOutcome", outcome="coherency_final", trooper_id="markerA1", element="marker2"
        ),
    )
    ok(a, a.open() and a.submit("EndOrder"))
    b.open()
    seen = bobs_bytes(b)
    assert SPECTRE not in seen and spectre not in seen
    assert CANARY_POSITION not in seen
    assert not any(spot in seen for spot in HOLOECHO_SPOTS.values())
    # He was told the answer, by the marker's name, and why he sees no proof.
    assert MARKER_1[language] in secrets_of(b)
    assert WITHHELD[language] in b.text
    # Alice reads her own seal, and that the rule revealed it.
    a.open()
    assert SPECTRE in a.text


def test_once_the_marker_is_discovered_bob_reads_both_seals_with_their_proofs(monkeypatch):
    """Across the marker's end every render that keeps a block or a line is
    checked against one from scratch (rendering.CHECK raises StaleBlock):
    the reveal line, kept without its payload, must not stay so."""
    from tracker import rendering

    monkeypatch.setattr(rendering, "CHECK", True)
    checked = rendering.stats["reused"]
    a, b, spectre = spectre_moves_as_a_marker()
    ok(
        b,
        b.submit(
            "ReportOutcome",
            outcome="Failed Final Coherency check",
            trooper_id="Camouflage marker 1",
            element="marker2",
        ),
    )
    ok(a, a.open() and a.submit("EndOrder"))
    b.open()
    ok(
        b,
        b.submit(
            "ReportOutcome", outcome="Successfully Discovered", trooper_id="Camouflage marker 1"
        ),
    )
    assert SPECTRE in b.text and CANARY_POSITION in b.text
    assert WITHHELD[None] not in b.text
    assert HOLOECHO_SPOTS["marker2"] in b.text
    assert "Matches what was sealed" in b.text
    a.open()
    assert "Matches what was sealed" in a.text
    assert rendering.stats["reused"] > checked  # blocks were kept, and so checked
