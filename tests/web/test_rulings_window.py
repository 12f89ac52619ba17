"""The header's rulings (rulings.html) are what the rules just decided about
Hidden Deployment, Holoecho and replacing elements, from the last eight log
lines. A State tap adds a line and nothing the header reads of the view
(block_inputs.header), so the header is kept from the last render unless
its input, the rulings among those same eight lines, changed: a ruling
that leaves the eight lines leaves the header at that tap, on the
opponent's phone too. Here HE-C2 (Cautious Movement keeps Holoecho) and
HE-2 (the Coherency checks of an activation) go in turn as Bob's State
taps push them back."""

from __future__ import annotations

import pytest

from tests.web.phone_flows import ok, started

pytestmark = pytest.mark.django_db


def rulings(phone) -> list[str]:
    phone.open()
    return [" ".join(c.get_text(" ").split()) for c in phone.soup.select("#blk-header .ruling")]


def test_a_ruling_leaves_the_header_once_eight_newer_lines_follow_it():
    a, b, ids = started()
    hassassin = ids["Hassassin Ayyar"]
    ok(a, a.submit("DeclareSkill", trooper_id=hassassin, skill="Cautious Movement"))
    shown = rulings(b)
    assert len(shown) == 2
    assert any("(HE-C2)" in line for line in shown) and any("(HE-2)" in line for line in shown)
    bolt = b.trooper_id("Bolt")
    seen = []
    for tap in range(8):
        tokens = ["prone"] if tap % 2 == 0 else ["stunned"]
        ok(b, b.submit("SetTrooperState", trooper_id=bolt, condition="normal", tokens=tokens))
        seen.append([("HE-C2" in line, "HE-2)" in line) for line in rulings(b)])
    # Six taps: both still among the last eight lines; the seventh pushes
    # HE-C2 out, the eighth HE-2.
    assert len(seen[5]) == 2
    assert seen[6] == [(False, True)]
    assert seen[7] == []
    assert rulings(a) == []
