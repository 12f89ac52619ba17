"""Two laptops of the same organizer at the venue (the app as `make run`
serves it, opened at this machine's LAN address through the tests' TCP
proxy, tests/browser/netfault.py), one of them behind the event (issue 21).

Both show round 1 drawn; the first publishes it, then the second taps
"Publish the round": the answer said "Draw the round before publishing
it.", as if round 1 had never been drawn; it now says round 1 is already
published, under the round as it is. And the second, loaded before the
first dropped a player, taps "Drop" for the same player: that brought the
player back into the event; it now says they already dropped. In Spanish
and in English."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

pytestmark = pytest.mark.browser

SETUP = """
from django.contrib.auth.models import Group, User
from tracker.event_running import player_key
from tracker.models import EventPlayer, TournamentEvent
user = User.objects.create_user("{user}", password="carol-organizes-2026")
user.groups.add(Group.objects.get(name="organizers"))
event = TournamentEvent.objects.create(name="{user} open")
for name in ("Ana Alba", "Bea Blanco", "Cai Cano", "Dan Diez"):
    EventPlayer.objects.create(event=event, name=name, key=player_key(name))
print(event.pk)
"""
TABLES = """
from tracker.models import Match
print(Match.objects.filter(event_id={pk}).count())
"""
ALREADY_PUBLISHED = {"en": "Round 1 is already published.", "es": "La ronda 1 ya está publicada."}
NOT_STARTED = {"en": "not started", "es": "sin empezar"}
DROPPED = {
    "en": "Bea Blanco has already dropped: not paired from round 1 on.",
    "es": "Bea Blanco ya se ha retirado: no se le empareja desde la ronda 1.",
}
LOCALE = {"en": "en-GB", "es": "es-ES"}


def shell(served, code: str) -> str:
    """What `code` prints last (the shell prints its auto-imports first)."""
    return served.manage("shell", "-c", code).strip().splitlines()[-1]


def laptop(browser, link, user: str, lang: str, pk: int):
    context = browser.new_context(viewport={"width": 1280, "height": 900}, locale=LOCALE[lang])
    page = context.new_page()
    page.goto(link.url + "/organizer/login/")
    page.fill("input[name=username]", user)
    page.fill("input[name=password]", "carol-organizes-2026")
    page.click("button.primary")
    page.goto(f"{link.url}/organizer/events/{pk}/run/")
    return page


def button(page, action: str):
    return page.locator(f"form[action$='{action}'] button")


@pytest.mark.parametrize("lang", ["es", "en"])
def test_publish_on_a_second_laptop_after_the_first_published_says_it_is_published(
    served, venue_link, browser, lang
):
    user = f"carol-publish-{lang}"
    pk = int(shell(served, SETUP.format(user=user)))
    first = laptop(browser, venue_link, user, lang, pk)
    button(first, "/rounds/draw/").click()
    expect(first.locator("#drawn")).to_be_visible()
    second = laptop(browser, venue_link, user, lang, pk)  # the drawn round, too
    button(first, "/rounds/publish/").click()
    expect(first.locator("#round-1 .round-clock")).to_contain_text(NOT_STARTED[lang])
    button(second, "/rounds/publish/").click()
    expect(second.locator(".messages")).to_contain_text(ALREADY_PUBLISHED[lang])
    expect(second.locator("#round-1 .round-clock")).to_contain_text(NOT_STARTED[lang])
    expect(second.locator("#drawn")).to_have_count(0)
    assert shell(served, TABLES.format(pk=pk)) == "2"
    assert served.errors_logged() == []


@pytest.mark.parametrize("lang", ["es", "en"])
def test_drop_from_a_second_laptop_leaves_the_player_dropped(served, venue_link, browser, lang):
    user = f"carol-drop-{lang}"
    pk = int(shell(served, SETUP.format(user=user)))
    first = laptop(browser, venue_link, user, lang, pk)
    second = laptop(browser, venue_link, user, lang, pk)  # loaded before the drop
    row = "#roster tbody tr:has-text('Bea Blanco')"
    first.locator(f"{row} form[action$='/drop/'] button").click()
    expect(first.locator(row)).to_contain_text(
        re.compile("dropped before round 1|baja antes de la ronda 1")
    )
    second.locator(f"{row} form[action$='/drop/'] button").click()
    expect(second.locator(".messages")).to_contain_text(DROPPED[lang])
    expect(second.locator(f"{row} form[action$='/drop/'] input[name=dropped]")).to_have_value("1")
