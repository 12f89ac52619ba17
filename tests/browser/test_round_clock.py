"""The round clock (issue 21): the organizer starts the clock and calls
time on a round of her event; both phones of the round's table, one in
Spanish and one in English, show the time left and then "time is called"
live, each in its own language, without reloading."""

import re

import pytest
from playwright.sync_api import expect

pytestmark = pytest.mark.browser

CREATE_CAROL = """
from django.contrib.auth.models import Group, User
carol = User.objects.create_user("carol-clock", password="carol-organizes-2026")
carol.groups.add(Group.objects.get(name="organizers"))
"""


def test_time_is_called_on_both_phones_of_the_round_in_their_languages(server, phone, browser):
    server.shell(CREATE_CAROL)
    # The organizer runs the event from a laptop.
    laptop = browser.new_context(viewport={"width": 1280, "height": 900}, locale="en-GB")
    carol = laptop.new_page()
    carol.goto(server.url + "/organizer/")
    carol.fill("input[name=username]", "carol-clock")
    carol.fill("input[name=password]", "carol-organizes-2026")
    carol.click("button.primary")
    carol.click("nav.orgnav >> text=Events")
    carol.fill("input[name=name]", "Clock Open")
    carol.fill("input[name=date]", "2026-06-13")
    carol.click("text=Create event")
    carol.click("text=Run the event")
    carol.fill("textarea[name=players]", "Alicia Alba, PanOceania\nBen Brown, Nomads")
    carol.click("text=Add these players")
    expect(carol.locator("#roster tbody tr")).to_have_count(2)
    carol.click("text=Draw the next round")
    expect(carol.locator("#drawn")).to_contain_text("Table 1:")
    carol.click("text=Publish the round")
    expect(carol.locator("#round-1")).to_contain_text("not started")
    carol.locator("#round-1 a", has_text="Seat sheets").click()
    links = carol.locator("article.sheet .seaturl").all_inner_texts()
    names = carol.locator("article.sheet").inner_text()
    first_a = names.find("Alicia Alba")
    first_b = names.find("Ben Brown")
    order = ["Alicia Alba", "Ben Brown"] if first_a < first_b else ["Ben Brown", "Alicia Alba"]

    spanish, english = phone("es-ES"), phone("en-GB")
    for page, link, name, live in (
        (spanish, links[0], order[0], "En directo"),
        (english, links[1], order[1], "Live"),
    ):
        page.goto(link)
        page.fill("input[name=name]", name)
        page.fill("input[name=pin]", "246813")
        page.click("button.primary")
        expect(page.locator("#connection")).to_have_text(live)
    expect(english.locator("#round-clock")).to_contain_text("clock not started")
    expect(spanish.locator("#round-clock")).to_contain_text("reloj sin empezar")

    carol.go_back()
    carol.locator("#round-1 button", has_text="Start the clock").click()
    expect(carol.locator(".messages")).to_contain_text("runs")
    # Live, no reload: the time left counts down on both phones.
    expect(english.locator("#round-clock")).to_contain_text(re.compile(r"Time left (119|120):\d\d"))
    expect(spanish.locator("#round-clock")).to_contain_text(
        re.compile(r"Tiempo restante (119|120):\d\d")
    )

    # Calling time cannot be undone: the laptop asks first, and a "Cancel"
    # leaves every table's clock running.
    asked = []
    carol.once("dialog", lambda dialog: (asked.append(dialog.message), dialog.dismiss()))
    carol.locator("#round-1 button", has_text="Call time").click()
    assert asked == ["Call time for every table of round 1? It cannot be undone."]
    expect(carol.locator("#round-1")).to_contain_text("running")
    expect(english.locator("#round-clock")).to_contain_text("Time left")
    carol.once("dialog", lambda dialog: dialog.accept())
    carol.locator("#round-1 button", has_text="Call time").click()
    expect(english.locator("#round-clock")).to_contain_text(
        "Round 1: time is called. Finish the current Order and report the result.", timeout=5_000
    )
    expect(spanish.locator("#round-clock")).to_contain_text(
        "Ronda 1: se acabó el tiempo. Terminad la Orden en curso y anotad el resultado.",
        timeout=5_000,
    )
    laptop.close()
