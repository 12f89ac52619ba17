"""A Camouflage marker on two phones (HD-C3, RT-5): Bob's page, its frames
and his export say "Camouflage marker 1", never which trooper it is, until
the marker state ends; he targets it from the forms his page rendered."""

from __future__ import annotations

import json

import pytest

from tracker.models import Match
from tracker.rendering import blocks_for, oob_frame

from .phone_flows import CANARY_NINJA, CANARY_POSITION, ok, started

pytestmark = pytest.mark.django_db


def ninja_goes_down_as_a_marker():
    a, b, ids = started()
    ok(a, a.submit("DeclareSkill", trooper_id=CANARY_NINJA, skill="Move", as_marker=True))
    b.open()
    return a, b, ids


def bobs_bytes(b, ids) -> str:
    """Bob's page, the frame a push sends his socket, and his export."""
    match = Match.objects.get()
    seat = match.seats.get(letter="B")
    seq, blocks = blocks_for(match, seat)
    export = b.app.get(f"/m/{match.code}/export.json").text
    return b.html + oob_frame(blocks, seq) + export


def test_bob_reads_camouflage_marker_1_not_the_trooper_hd_c3():
    a, b, ids = ninja_goes_down_as_a_marker()
    seen = bobs_bytes(b, ids)
    assert CANARY_NINJA not in seen and ids[CANARY_NINJA] not in seen
    assert "canary-hd-position" not in seen
    assert "ARO against Camouflage marker 1" in b.text
    assert "Camouflage marker 1" in b.soup.select_one("#blk-seat_A").get_text()
    assert "Camouflage marker 1" in " ".join(
        line["text"] for line in json.loads(b.app.get(f"/m/{b.code}/export.json").text)["log"]
    )
    # Alice still sees her Ninja, and what Bob sees of it.
    assert CANARY_NINJA in a.open().text
    assert "your opponent sees Camouflage marker 1" in a.text


def test_bob_declares_an_aro_against_the_marker_from_his_page_and_still_reads_no_name():
    a, b, ids = ninja_goes_down_as_a_marker()
    ok(b, b.submit("DeclareAro", trooper_id="Fusilier", skill="BS Attack"))
    assert "Fusilier declares BS Attack" in b.text
    seen = bobs_bytes(b, ids)
    assert CANARY_NINJA not in seen and ids[CANARY_NINJA] not in seen


def test_discovering_the_marker_reveals_the_trooper_and_its_sealed_position():
    """HD-C1 on a marker: Bob learns which trooper it was, with the proof."""
    a, b, ids = ninja_goes_down_as_a_marker()
    ok(a, a.submit("EndOrder"))
    b.open()
    ok(
        b,
        b.submit(
            "ReportOutcome", outcome="Successfully Discovered", trooper_id="Camouflage marker 1"
        ),
    )
    assert CANARY_NINJA in b.text and CANARY_POSITION in b.text
    assert "Matches what was sealed" in b.text
    assert "Camouflage marker 1" not in b.soup.select_one("#blk-seat_A").get_text()
    # The line that ends the marker names the Discover and its rule, on both phones.
    a.open()
    for phone in (b, a):
        log = " ".join(phone.soup.select_one("#blk-log").get_text().split())
        assert f"{CANARY_NINJA} was Discovered: its marker state ends" in log
        assert "cannot keep" not in log


def test_in_spanish_bob_reads_marcador_de_camuflaje_1():
    a, b, ids = started(language_b="es")
    ok(a, a.submit("DeclareSkill", trooper_id=CANARY_NINJA, skill="Move", as_marker=True))
    b.open()
    assert "Marcador de Camuflaje 1" in b.soup.select_one("#blk-seat_A").get_text()
    assert "Marcador de Camuflaje 1" in b.soup.select_one("#blk-log").get_text()
    assert CANARY_NINJA not in b.html and ids[CANARY_NINJA] not in b.html


def test_in_spanish_the_discovered_marker_line_says_descubierto():
    a, b, ids = started(language_b="es")
    ok(a, a.submit("DeclareSkill", trooper_id=CANARY_NINJA, skill="Move", as_marker=True))
    ok(a, a.submit("EndOrder"))
    b.open()
    ok(
        b,
        b.submit(
            "ReportOutcome", outcome="Descubierto con éxito", trooper_id="Marcador de Camuflaje 1"
        ),
    )
    log = " ".join(b.soup.select_one("#blk-log").get_text().split())
    assert f"{CANARY_NINJA} ha sido Descubierto" in log and "HD-C1" in log
