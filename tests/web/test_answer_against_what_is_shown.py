"""A tap's answer carries what the tapping phone lacks, judged by the block
digests the phone says it shows (X-Tracker-Shown, as app.js sends them),
never by what this viewer was rendered last (rendering.changed_frame): a
block goes as its changed parts only against the version the phone shows.

Alice's phone shows the page from before Bob's State tap; her other tab
(or a page load she never saw) has had the newer render since. Her own tap
is answered with Bob's seat block whole, Bolt's Prone badge in it, not as
the parts that changed since that newer render (none), which would leave
her phone without Bob's tap until the next push."""

from __future__ import annotations

import pytest
from bs4 import BeautifulSoup

from tests.web.test_render_once import _tap_unreloaded

pytestmark = pytest.mark.django_db(transaction=True)


def test_an_answer_sends_a_block_whole_when_the_phone_shows_an_older_one():
    from tests.web.phone_flows import started

    a, b, _ids = started()
    kaplan, bolt = a.trooper_id("Kaplan"), b.trooper_id("Bolt")
    a.open()  # what Alice's phone shows, and taps from
    b.open()
    b.submit("SetTrooperState", trooper_id=bolt, condition="normal", tokens=["prone"])
    assert b.error is None
    a.app.get(f"/m/{a.code}/")  # her other tab: rendered after Bob's tap

    answer = _tap_unreloaded(
        a, "SetTrooperState", trooper_id=kaplan, condition="normal", tokens=["prone"]
    )
    assert a.error is None
    soup = BeautifulSoup(answer.text, "lxml")
    row = soup.select_one(f"#trooper-{bolt}")
    assert row is not None, "Bob's seat block is missing from the answer"
    assert "Prone" in [badge.get_text() for badge in row.select(".badge")]
