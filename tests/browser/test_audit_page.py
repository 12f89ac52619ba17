"""An organizer sets up a table from pairings, two phones play into Round 1,
and the organizer audits the match: opening its sealed information mid-game
shows on both phones, live.

The browser tests share one server: this test names its own event and
organizer and reaches its match from its event's page, so whatever matches
earlier tests left (players called Alice too) it audits its own."""

import os
import re
import uuid

import pytest
from playwright.sync_api import expect

from .pages import confirm_next_dialog, lieutenants_listed

pytestmark = pytest.mark.browser

CREATE_ORGANIZER = """
from django.contrib.auth.models import Group, User
carol = User.objects.create_user({name!r}, password="carol-organizes-2026")
carol.groups.add(Group.objects.get(name="organizers"))
"""


def csp_errors(page) -> list[str]:
    errors: list[str] = []
    page.on(
        "console",
        lambda message: (
            errors.append(message.text)
            if message.type == "error" and "Content Security Policy" in message.text
            else None
        ),
    )
    return errors


def test_the_organizer_audits_a_match_and_both_phones_see_the_view(server, phone, tmp_path):
    unique = uuid.uuid4().hex[:8]
    username, event_name = f"carol-{unique}", f"Spring Open {unique}"
    server.shell(CREATE_ORGANIZER.format(name=username))
    carol = phone()
    carol_csp = csp_errors(carol)
    carol.goto(server.url + "/organizer/")
    expect(carol.locator("h1")).to_have_text("Organizer login")
    carol.fill("input[name=username]", username)
    carol.fill("input[name=password]", "carol-organizes-2026")
    carol.click("button.primary")
    expect(carol.locator("h1")).to_have_text("Match history")

    # An event, its pairings, and the printed sheet for table 1.
    carol.click("nav.orgnav >> text=Events")
    carol.fill("input[name=name]", event_name)
    carol.fill("input[name=date]", "2026-04-18")
    carol.click("text=Create event")
    carol.fill("textarea[name=pairings]", "1, Alice Arroyo, Bob Bravo")
    carol.click("text=Create the matches")
    expect(carol.locator(".messages")).to_contain_text("1 match created")
    event_page = carol.url
    carol.click("text=Print seat sheets")
    expect(carol.locator("article.sheet")).to_have_count(1)
    expect(carol.locator("article.sheet img.qr")).to_have_count(2)
    links = carol.locator("article.sheet .seaturl").all_inner_texts()

    alice, bob = lieutenants_listed(phone, links)
    expect(alice.locator("select[name=first_turn]")).to_be_visible()
    alice.click("text=Start deployment")
    for page, lieutenant in ((alice, "Kaplan"), (bob, "Fusilier")):
        page.select_option("select[name=lieutenant]", label=lieutenant)
        confirm_next_dialog(page)
        page.click("text=Seal my deployment")
    expect(alice.locator("#blk-header")).to_contain_text("Round 1 of 3")

    # The audit page: the match is in play, its secrets are sealed.
    carol.goto(event_page)
    expect(carol.locator("h1")).to_contain_text(event_name)
    carol.locator("table.history a", has_text="Alice").click()
    expect(carol.locator("#verification")).to_contain_text("verifies")
    expect(carol.locator("#secrets")).to_contain_text("sealed (still in play)")
    assert "Kaplan" not in carol.locator("#secrets").inner_text()
    expect(carol.locator("#timeline")).to_contain_text("Alice took seat A.")

    # Opening is recorded and told to both phones: the page asks first, and
    # declined, nothing is opened.
    asked = []
    carol.once("dialog", lambda dialog: (asked.append(dialog.message), dialog.dismiss()))
    carol.click("#open-sealed")
    assert asked and "Both players' phones will say that you viewed it" in asked[0]
    assert "Kaplan" not in carol.locator("#secrets").inner_text()
    confirm_next_dialog(carol)
    carol.click("#open-sealed")
    expect(carol.locator("#secrets")).to_contain_text("Kaplan")
    expect(carol.locator("#secrets")).to_contain_text("never revealed in play")
    expect(carol.locator("#secrets")).to_contain_text("matches ✓")
    opened = carol.locator(".sealed-notice").inner_text()
    at = re.search(r"at (\d\d:\d\d)", opened).group(1)

    # Both phones are told, without a reload.
    for page in (alice, bob):
        expect(page.locator("#blk-header .organizer-viewed")).to_have_text(
            f"The organizer viewed the sealed information at {at}."
        )
    expect(bob.locator("#blk-log")).to_contain_text("The organizer viewed the sealed information.")

    if os.environ.get("SCREENSHOTS"):
        carol.screenshot(path=str(tmp_path / "audit-open.png"), full_page=True)
    # Replay: the match after event 2 had one seat taken and nothing else.
    carol.locator("#event-2 a", has_text="state after").click()
    expect(carol.locator("#state h2")).to_have_text("The match after event #2")
    expect(carol.locator("#state")).to_contain_text("Setting up")
    if os.environ.get("SCREENSHOTS"):
        carol.screenshot(path=str(tmp_path / "audit.png"), full_page=True)
    assert carol_csp == []
