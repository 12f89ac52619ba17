"""Issue 21 with issue 17: the round clock on a phone's kept offline copy.

The copy is the page as it was when it was kept, its time left included:
counting that down from when the copy is opened (as a live page counts
from when the clock reached it) would show the time left at keeping,
however long ago. The copy counts to the round's end time instead
(data-ends-at). Here the clock runs, the phone's seat page is kept, ten
minutes pass by the phone's clock, and the server is gone (a real fault,
the phone's TCP proxy refusing: tests/browser/make_run.py): the copy shows
about ten minutes less than the round's two hours."""

from __future__ import annotations

import re
from datetime import datetime, timedelta

import pytest
from playwright.sync_api import expect

from .make_run import RefusingProxy
from .test_offline_copy import controlled_and_kept
from .test_round_clock import CREATE_ORGANIZER, log_in, published_round, seconds_left

pytestmark = pytest.mark.browser


@pytest.fixture
def proxy(server):
    through = RefusingProxy(int(server.url.rsplit(":", 1)[1]))
    yield through
    through.close()


def test_a_kept_copy_counts_the_round_clock_to_the_round_s_end(server, phone, browser, proxy):
    server.shell(CREATE_ORGANIZER.format(user="carol-kept"))
    laptop = browser.new_context(viewport={"width": 1280, "height": 900}, locale="en-GB")
    carol = laptop.new_page()
    log_in(carol, server, "carol-kept")
    published_round(carol, "Kept Open")
    carol.locator("#round-1 a", has_text="Seat sheets").click()
    # The table's sheet: its first seat's link, for the player named first.
    sheet = carol.locator("article.sheet").first
    seat = sheet.locator(".seaturl").first.inner_text()
    text = sheet.inner_text()
    name = min(("Alicia Alba", "Ben Brown"), key=text.find)
    carol.go_back()
    carol.locator("#round-1 button", has_text="Start the clock").click()
    expect(carol.locator(".messages")).to_contain_text("runs")

    page = phone("es-ES")
    page.goto(re.sub(r"^https?://[^/]+", proxy.url, seat))
    page.fill("input[name=name]", name)
    page.fill("input[name=pin]", "246813")
    page.click("button.primary")
    expect(page.locator("#connection")).to_have_text("En directo")
    expect(page.locator("#round-clock")).to_contain_text(re.compile(r"(119|120):\d\d"))
    match_url = page.url
    controlled_and_kept(page)

    page.clock.set_system_time(datetime.now() + timedelta(minutes=10))
    proxy.refuse()
    page.goto(match_url)
    expect(page.locator(".offline-copy")).to_be_visible()
    # Rendered with the time left at keeping; counted from its first tick
    # on to the round's end: ten minutes less, give or take the test's own.
    page.wait_for_function(
        """() => {
            const [m, s] = document.querySelector("#round-clock .left").textContent.split(":");
            return Number(m) * 60 + Number(s) <= 110 * 60 + 30;
        }"""
    )
    assert seconds_left(page, "#round-clock .left") >= 108 * 60
    laptop.close()
