"""The organizer's run page at the venue, open on the laptop while players
hand their army lists in from their phones (issue 21): the roster row of a
player who handed one in says so, and the count of players without a list
drops, without a reload (the page's poll, event_run_live), in the page's
language, while the phone speaks its own."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from tests.browser.test_run_page_behind import laptop, shell

pytestmark = pytest.mark.browser

SETUP = """
from django.contrib.auth.models import Group, User
from tracker.event_running import player_key
from tracker.models import EventPlayer, TournamentEvent
user = User.objects.create_user("{user}", password="carol-organizes-2026")
user.groups.add(Group.objects.get(name="organizers"))
event = TournamentEvent.objects.create(name="{user} open")
for name in ("Ana Alba", "Bea Blanco"):
    EventPlayer.objects.create(event=event, name=name, key=player_key(name))
ana = EventPlayer.objects.get(event=event, name="Ana Alba")
print(event.pk, ana.pk, ana.list_token)
"""
ARMY = """PanOceania
Event list

GROUP 1 3 0

FUSILIER (Lieutenant) Combi Rifle / Pistol, Knife. (0 | 10)
BOLT Combi Rifle / Pistol. (0 | 15)
"""


def test_a_list_handed_in_on_a_phone_shows_on_the_open_run_page(served, venue_link, browser):
    user = "carol-lists-live"
    pk, ana, token = shell(served, SETUP.format(user=user)).split()
    page = laptop(browser, venue_link, user, "es", int(pk))
    expect(page.locator(f"#list-{ana}")).to_have_text("sin entregar")
    expect(page.locator("#lists-missing")).to_contain_text("2 jugadores no han entregado su lista.")
    page.fill("input[name=name]", "Cai Cano")  # typed, not yet added: the poll keeps it

    context = browser.new_context(locale="en-GB", viewport={"width": 390, "height": 800})
    phone = context.new_page()
    phone.goto(f"{venue_link.url}/e/list/{token}/")
    phone.fill("textarea[name=text]", ARMY)
    phone.click("button.primary")
    expect(phone.locator(".messages")).to_contain_text("Your list is in: 2 troopers (25 points).")

    # The next poll (every 10 s) brings it.
    expect(page.locator(f"#list-{ana}")).to_have_text("entregada (25 puntos)", timeout=25_000)
    expect(page.locator("#lists-missing")).to_have_text("1 jugador no ha entregado su lista.")
    expect(page.locator("input[name=name]")).to_have_value("Cai Cano")
    context.close()
