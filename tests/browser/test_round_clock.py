"""The round clock (issue 21): the organizer starts the clock and calls
time on a round of her event; both phones of the round's table, one in
Spanish and one in English, show the time left and then "time is called"
live, each in its own language, without reloading. The organizer's run page
counts the same clock down in the browser (app.js, data-ends-at), and a
countdown that reaches zero says what is true for the table: one only
seated (still setting up) is told the organizer records its result."""

import re
from datetime import datetime, timedelta
from urllib.parse import urlsplit

import pytest
from playwright.sync_api import expect

from .netfault import FaultyLink

pytestmark = pytest.mark.browser

CREATE_ORGANIZER = """
from django.contrib.auth.models import Group, User
carol = User.objects.create_user("{user}", password="carol-organizes-2026")
carol.groups.add(Group.objects.get(name="organizers"))
"""
# Seated only: the table never reached play (tracker/event_clock.todo_at_time).
NOT_IN_PLAY = {
    "en": "Round 1: time is called. The organizer will record this table's result.",
    "es": "Ronda 1: se acabó el tiempo. El organizador anotará el resultado de esta mesa.",
}


def log_in(page, server, user: str) -> None:
    page.goto(server.url + "/organizer/")
    page.fill("input[name=username]", user)
    page.fill("input[name=password]", "carol-organizes-2026")
    page.click("button.primary")


def published_round(carol, event: str) -> None:
    """Carol creates an event of two players and publishes its round 1."""
    carol.click("nav.orgnav >> text=Events")
    carol.fill("input[name=name]", event)
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


def seated_phones(carol, phone, clocked: bool = False, via: FaultyLink | None = None):
    """One phone in Spanish and one in English take the table's seats from
    the seat sheets (then back on the run page). `clocked`: each phone's
    time is Playwright's, to move it on (page.clock). `via`: the phones
    reach the server through that link (tests/browser/netfault.py)."""
    carol.locator("#round-1 a", has_text="Seat sheets").click()
    links = carol.locator("article.sheet .seaturl").all_inner_texts()
    if via is not None:
        links = [via.url + urlsplit(link).path for link in links]
    names = carol.locator("article.sheet").inner_text()
    first_a = names.find("Alicia Alba")
    first_b = names.find("Ben Brown")
    order = ["Alicia Alba", "Ben Brown"] if first_a < first_b else ["Ben Brown", "Alicia Alba"]
    spanish, english = phone("es-ES"), phone("en-GB")
    for page, link, name, live in (
        (spanish, links[0], order[0], "En directo"),
        (english, links[1], order[1], "Live"),
    ):
        if clocked:
            page.clock.install()
        page.goto(link)
        page.fill("input[name=name]", name)
        page.fill("input[name=pin]", "246813")
        page.click("button.primary")
        expect(page.locator("#connection")).to_have_text(live)
    carol.go_back()
    return spanish, english


def seconds_left(page, selector: str) -> int:
    minutes, seconds = page.locator(selector).inner_text().split(":")
    return int(minutes) * 60 + int(seconds)


def counts_down(page, selector: str) -> None:
    """The time shown goes down while the page stays the same document."""
    page.evaluate("window.notReloaded = true")
    before = seconds_left(page, selector)
    page.wait_for_function(
        """([selector, before]) => {
            const [m, s] = document.querySelector(selector).textContent.split(":");
            return Number(m) * 60 + Number(s) < before;
        }""",
        arg=[selector, before],
        timeout=5_000,
    )
    assert page.evaluate("window.notReloaded") is True


def test_time_is_called_on_both_phones_of_the_round_in_their_languages(server, phone, browser):
    server.shell(CREATE_ORGANIZER.format(user="carol-clock"))
    # The organizer runs the event from a laptop.
    laptop = browser.new_context(viewport={"width": 1280, "height": 900}, locale="en-GB")
    carol = laptop.new_page()
    log_in(carol, server, "carol-clock")
    published_round(carol, "Clock Open")
    spanish, english = seated_phones(carol, phone)
    expect(english.locator("#round-clock")).to_contain_text("clock not started")
    expect(spanish.locator("#round-clock")).to_contain_text("reloj sin empezar")

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
    # The table is only seated: the organizer records its result.
    expect(english.locator("#round-clock")).to_have_text(NOT_IN_PLAY["en"], timeout=5_000)
    expect(spanish.locator("#round-clock")).to_have_text(NOT_IN_PLAY["es"], timeout=5_000)
    laptop.close()


@pytest.fixture
def link(server):
    """A faulty link (netfault.py) to this module's server."""
    proxy = FaultyLink(urlsplit(server.url).port).start()
    yield proxy
    proxy.close()


def test_the_run_page_counts_the_clock_down_and_a_countdown_at_zero_says_what_is_true(
    server, phone, browser, link
):
    server.shell(CREATE_ORGANIZER.format(user="carol-countdown"))
    laptop = browser.new_context(viewport={"width": 1280, "height": 900}, locale="en-GB")
    carol = laptop.new_page()
    carol.clock.install()
    log_in(carol, server, "carol-countdown")
    published_round(carol, "Countdown Open")
    spanish, english = seated_phones(carol, phone, clocked=True, via=link)
    carol.locator("#round-1 button", has_text="Start the clock").click()
    expect(carol.locator(".messages")).to_contain_text("runs")
    clock = "#round-1 .round-clock"
    expect(carol.locator(clock)).to_contain_text(re.compile(r"Time left (119|120):\d\d · running"))
    # No reload: the run page's clock counts down as the phones' does.
    counts_down(carol, f"{clock} .left")

    # The same page in Spanish, on another organizer's laptop.
    portatil = browser.new_context(viewport={"width": 1280, "height": 900}, locale="es-ES")
    carla = portatil.new_page()
    carla.clock.install()
    log_in(carla, server, "carol-countdown")
    carla.goto(carol.url)
    expect(carla.locator(clock)).to_contain_text(
        re.compile(r"Tiempo restante (119|120):\d\d · en marcha")
    )
    counts_down(carla, f"{clock} .left")

    # Two hours on by the browsers' clocks (the server's has not moved):
    # each countdown reaches zero by itself and shows the words the server
    # rendered for it, true for this table, which never reached play. The
    # run pages' polls would bring the server's time left back (its clock
    # has not moved); they stand here for a laptop whose Wi-Fi is down.
    for run_page in (carol, carla):
        run_page.evaluate("document.getElementById('run-live').remove()")
    # So would the phones' sockets: two hours without a pong, each phone
    # connects again and is sent the server's clock (CI saw 119:53 where
    # the phone's own countdown had reached zero). Their Wi-Fi stalls: the
    # link passes nothing either way, and every socket stays open.
    link.stall()
    # Carol's countdown, a second at a time near its end: its last second
    # shows 0:01, then time is called, not a second early (a countdown
    # that said "called" at 0:01 was seen by no other test).
    carol.clock.fast_forward((seconds_left(carol, f"{clock} .left") - 4) * 1000)
    shown = []
    while len(shown) < 12 and "called" not in (shown or [""])[-1]:
        carol.clock.run_for(1000)
        shown.append(carol.locator(clock).inner_text())
    assert [text for text in shown if "0:01" in text], shown
    assert shown[-1] == "Time is called.", shown
    for page in (carol, carla, english, spanish):
        page.clock.fast_forward("02:00:30")
    expect(carla.locator(clock)).to_have_text("Se acabó el tiempo.")
    expect(carol.locator(clock)).to_have_text("Time is called.")
    # And the run pages offer no clock button any more, as after a call:
    # the server would refuse each ("Time is already called").
    for run_page in (carol, carla):
        expect(run_page.locator("#round-1 button")).to_have_count(0)
    expect(english.locator("#round-clock")).to_have_text(NOT_IN_PLAY["en"])
    expect(spanish.locator("#round-clock")).to_have_text(NOT_IN_PLAY["es"])
    assert "Finish the current Order" not in english.locator("#round-clock").inner_text()
    portatil.close()
    laptop.close()


def test_a_phone_whose_own_clock_is_off_shows_the_round_s_true_time_left(server, phone, browser):
    """A phone's clock set wrong (no network time at the venue, set by hand)
    or a server laptop's: the time left the phones count down is the
    server's, from when the clock reached the phone, not the server's end
    time read against the phone's own clock. A Spanish phone 30 minutes
    ahead was told 90 minutes left of 120, and the time called 90 minutes
    in; an English one 30 minutes behind, 150."""
    server.shell(CREATE_ORGANIZER.format(user="carol-skew"))
    laptop = browser.new_context(viewport={"width": 1280, "height": 900}, locale="en-GB")
    carol = laptop.new_page()
    log_in(carol, server, "carol-skew")
    published_round(carol, "Skewed Open")
    spanish, english = seated_phones(carol, phone)
    for page, minutes in ((spanish, 30), (english, -30)):
        page.clock.set_system_time(datetime.now() + timedelta(minutes=minutes))
        page.reload()
    expect(spanish.locator("#connection")).to_have_text("En directo")
    expect(english.locator("#connection")).to_have_text("Live")

    carol.locator("#round-1 button", has_text="Start the clock").click()
    expect(carol.locator(".messages")).to_contain_text("runs")
    for page, words in ((spanish, "Tiempo restante"), (english, "Time left")):
        expect(page.locator("#round-clock")).to_contain_text(re.compile(rf"{words} (119|120):\d\d"))
        # And it goes on counting from there (app.js ticks every second).
        counts_down(page, "#round-clock .left")
        assert 118 * 60 <= seconds_left(page, "#round-clock .left") <= 120 * 60
    laptop.close()


def test_the_run_page_follows_the_clock_from_another_laptop_without_losing_what_is_typed(
    server, browser
):
    """Two organizers run one event, in English and in Spanish. What one
    does to the clock shows on the other's run page within the poll's 10 s,
    without a reload, and a name half-typed in that page's roster form is
    still there after. A round one publishes, the other's page says is
    there, with a link that reloads it."""
    server.shell(CREATE_ORGANIZER.format(user="carol-two-laptops"))
    laptop = browser.new_context(viewport={"width": 1280, "height": 900}, locale="en-GB")
    carol = laptop.new_page()
    log_in(carol, server, "carol-two-laptops")
    published_round(carol, "Two Laptops Open")
    portatil = browser.new_context(viewport={"width": 1280, "height": 900}, locale="es-ES")
    carla = portatil.new_page()
    log_in(carla, server, "carol-two-laptops")
    carla.goto(carol.url)
    clock = "#round-1 .round-clock"
    expect(carla.locator(clock)).to_contain_text("sin empezar")
    carla.evaluate("window.notReloaded = true")
    carla.fill("#roster input[name=name]", "Dani Dí")

    carol.locator("#round-1 button", has_text="Start the clock").click()
    expect(carol.locator(".messages")).to_contain_text("runs")
    expect(carla.locator(clock)).to_contain_text(
        re.compile(r"Tiempo restante (119|120):\d\d · en marcha"), timeout=15_000
    )
    counts_down(carla, f"{clock} .left")
    assert carla.evaluate("window.notReloaded") is True
    expect(carla.locator("#roster input[name=name]")).to_have_value("Dani Dí")

    carla.once("dialog", lambda dialog: dialog.accept())
    carla.locator("#round-1 button", has_text="Acabar el tiempo").click()
    expect(carla.locator(clock)).to_have_text("Se acabó el tiempo.")
    carol.evaluate("window.notReloaded = true")
    expect(carol.locator(clock)).to_have_text("Time is called.", timeout=15_000)
    expect(carol.locator("#round-1 button")).to_have_count(0)
    assert carol.evaluate("window.notReloaded") is True

    # Carla records the table's result and publishes round 2 on her laptop:
    # Carol's page lacks its tables, and says so within the poll's 10 s.
    run_page = carla.url
    carla.click("text=Auditoría del evento")
    carla.locator("table a", has_text="–").first.click()
    for field in ("objective_a", "objective_b", "army_a", "army_b"):
        carla.fill(f"#settle input[name={field}]", "2" if "objective" in field else "0")
    carla.fill("#settle [name=reason]", "Se acabó el tiempo")
    carla.click("text=Resolver el resultado")
    carla.goto(run_page)
    carla.click("text=Sortear la siguiente ronda")
    carla.click("text=Publicar la ronda")
    expect(carla.locator("#round-2")).to_be_visible()
    newer = carol.locator("#run-newer")
    expect(newer).to_contain_text("Round 2 was published on another device.", timeout=15_000)
    assert carol.evaluate("window.notReloaded") is True
    newer.locator("a").click()
    expect(carol.locator("#round-2")).to_be_visible()
    expect(carol.locator("#run-newer")).to_have_text("")
    portatil.close()
    laptop.close()
