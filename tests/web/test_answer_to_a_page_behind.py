"""A tap's answer sends a block as its changed rows only against a version
of the block the phone says it shows (X-Tracker-Shown). A phone whose page
is behind what its viewer was last rendered (its push was lost while the
player's other tab, or its socket, rendered the newer seq) is sent the
block whole: rows computed against a version it never showed would leave
the opponent's earlier change off its screen (rendering.changed_frame)."""

from __future__ import annotations

import pytest
from bs4 import BeautifulSoup

from .phone import Phone
from .phone_flows import ok, started

pytestmark = pytest.mark.django_db


def _badges(html: str, trooper: str) -> list[str] | None:
    row = BeautifulSoup(html, "lxml").select_one(f"#trooper-{trooper}")
    return None if row is None else [badge.get_text() for badge in row.select(".badge")]


def test_a_phone_behind_its_other_tab_is_answered_with_the_opponents_change():
    a, b, _ids = started()
    b.open()  # Bob's phone shows the match now, and keeps showing it
    kaplan = b.trooper_id("Kaplan")
    assert "Prone" not in _badges(b.html, kaplan)
    a.open()
    ok(a, a.submit("SetTrooperState", trooper_id=kaplan, condition="normal", tokens=["prone"]))
    # The push to Bob's phone is lost; Bob's other tab (same session) loads
    # the page at the new seq, as his socket's push would have rendered it.
    other = Phone(app=None)
    other.app.set_cookie("sessionid", b.app.cookies["sessionid"])
    other.open(b.code)
    assert "Prone" in _badges(other.html, kaplan)
    # Bob taps on the page he still shows.
    tapped = b.form("ReportOutcome", outcome="saving_roll", trooper_id="Bolt")
    tapped.fill({"outcome": "saving_roll", "trooper_id": "Bolt"})
    answer = b.send(tapped, reload=False)
    assert b.error is None
    assert "X-Tracker-Shown" in answer.request.headers
    # What his phone swaps in from the answer shows Kaplan prone.
    assert _badges(answer.text, kaplan) is not None, "the answer left Kaplan's row out"
    assert "Prone" in _badges(answer.text, kaplan)
