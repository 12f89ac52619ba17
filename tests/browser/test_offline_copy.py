"""Issue 17: the service worker's offline copy of a match page never shows a
seat's sealed information to a browser that no longer holds the seat, and
never holds the host's or an organizer's page.

Each phone reaches the server through its own TCP proxy (tests/browser/
make_run.py): "offline" is the proxy refusing every connection and
resetting the open ones, a real fault (the server laptop or the Wi-Fi gone),
not the browser's offline switch. One proxy per test also gives each test its
own origin, so its own service worker and caches.

The sealed information is a Hidden Deployment trooper of Alice's locked list
(its very existence is private, HD intro) named with a unique canary."""

from __future__ import annotations

import time

import pytest
from playwright.sync_api import expect

from .make_run import RefusingProxy
from .pages import add_trooper, confirm_next_dialog

pytestmark = pytest.mark.browser

CANARY = "Qzx17Canary"
NO_NETWORK = {"en": "No network", "es": "Sin red"}
# The old phone's header once its seat moved (tests/web/test_seat_moved_note.py).
SEAT_MOVED = {
    "en": "Your seat moved to another phone: this one now watches as a spectator.",
    "es": "Tu asiento pasó a otro móvil: este ahora mira como espectador.",
}
LIVE = {"en": "Live", "es": "En directo"}
LOCALE = {"en": "en-GB", "es": "es-ES"}


@pytest.fixture
def proxy(server):
    through = RefusingProxy(int(server.url.rsplit(":", 1)[1]))
    yield through
    through.close()


def act(page, command):
    page.locator(f"form[hx-post*='/{command}/'] button:not([type=button])").first.click()


def kept_pages(page) -> int:
    return page.evaluate(
        "() => caches.open('tracker-last-page').then(c => c.keys()).then(k => k.length)"
    )


def controlled_and_kept(page) -> None:
    """Wait until the worker controls the page, then load it through the
    worker, which keeps it."""
    page.wait_for_function("() => navigator.serviceWorker.controller !== null", timeout=20_000)
    page.reload()
    deadline = time.monotonic() + 10
    while kept_pages(page) != 1 and time.monotonic() < deadline:
        time.sleep(0.2)
    assert kept_pages(page) == 1


def alice_with_a_secret(phone, proxy, lang):
    """A match through the proxy; Alice holds seat A with a locked list whose
    Hidden Deployment trooper is the canary, and her page is kept."""
    host = phone(LOCALE[lang])
    host.goto(proxy.url + "/")
    host.fill("input[name=name]", "Offline night")
    host.click("button.primary")
    expect(host.locator("img.qr")).to_have_count(2)
    links = host.locator("a.seaturl").all_inner_texts()
    assert all(link.startswith(proxy.url) for link in links)
    alice = phone(LOCALE[lang])
    alice.on("dialog", lambda dialog: dialog.accept())
    alice.goto(links[0])
    alice.fill("input[name=name]", "Alice")
    alice.fill("input[name=pin]", "246813")
    alice.click("button.primary")
    expect(alice.locator("#connection")).to_have_text(LIVE[lang])
    add_trooper(alice, CANARY, 20, traits=["hidden_deployment"])
    add_trooper(alice, "Kaplan", 20)
    act(alice, "LockArmyList")
    expect(alice.locator("form[hx-post*='/LockArmyList/']")).to_have_count(0)
    expect(alice.locator("#live")).to_contain_text(CANARY)
    match_url = alice.url
    controlled_and_kept(alice)
    return host, alice, links, match_url


def offline_page_without_the_secret(page, url, lang) -> None:
    page.goto(url)
    expect(page.locator("h1")).to_have_text(NO_NETWORK[lang])
    assert CANARY not in page.content()


@pytest.mark.parametrize("lang", ["en", "es"])
def test_after_the_seat_moves_away_the_kept_page_is_not_shown_offline(server, phone, proxy, lang):
    host, alice, links, match_url = alice_with_a_secret(phone, proxy, lang)

    # Control: while she holds the seat, her page is there offline, marked
    # as a copy; the start page offline links to it.
    proxy.refuse()
    alice.goto(match_url)
    expect(alice.locator(".offline-copy")).to_be_visible()
    expect(alice.locator("#live")).to_contain_text(CANARY)
    alice.goto(proxy.url + "/start/")
    expect(alice.locator("h1")).to_have_text(NO_NETWORK[lang])
    expect(alice.locator("[data-kept-copy] a")).to_have_attribute(
        "href", match_url.replace(proxy.url, "")
    )
    proxy.restore()
    alice.goto(match_url)
    expect(alice.locator("#connection")).to_have_text(LIVE[lang])
    expect(alice.locator(".offline-copy")).to_be_hidden()

    # The seat moves to another phone with its PIN; this one becomes a
    # spectator at the next push, while it is still online.
    new_phone = phone(LOCALE[lang])
    new_phone.goto(links[0])
    new_phone.fill("input[name=pin]", "246813")
    new_phone.click("button.primary")
    expect(new_phone.locator("#live")).to_contain_text(CANARY)
    expect(alice.locator("#blk-header")).to_contain_text(SEAT_MOVED[lang])
    expect(alice.locator("#live")).not_to_contain_text(CANARY)
    # (The worker hears of it from the page; give it a moment.)
    deadline = time.monotonic() + 5
    while kept_pages(alice) and time.monotonic() < deadline:
        time.sleep(0.2)

    # The server is gone: the match URL does not bring back Alice's secret.
    proxy.refuse()
    offline_page_without_the_secret(alice, match_url, lang)
    offline_page_without_the_secret(alice, proxy.url + "/start/", lang)
    expect(alice.locator("[data-kept-copy]")).to_be_hidden()

    # Nor the host's page, with its seat links: never kept.
    offline_page_without_the_secret(host, host.url, lang)
    assert "/s/" not in host.content()


@pytest.mark.parametrize("lang", ["en", "es"])
def test_after_the_cookies_are_cleared_the_kept_page_is_not_shown_offline(
    server, phone, proxy, lang
):
    _host, alice, _links, match_url = alice_with_a_secret(phone, proxy, lang)
    # The phone is put away (no page of the site open, so none tells the
    # worker anything), its cookies are cleared, and it is opened again with
    # the server gone: only the worker decides what this browser is shown.
    context = alice.context
    alice.close()
    context.clear_cookies()
    proxy.refuse()
    again = context.new_page()
    offline_page_without_the_secret(again, match_url, lang)


CREATE_ORGANIZER = """
from django.contrib.auth.models import Group, User
if not User.objects.filter(username="carol17").exists():
    user = User.objects.create_user("carol17", password="carol-organizes-2026")
    user.groups.add(Group.objects.get(name="organizers"))
"""


def test_an_organizer_page_is_never_kept(server, phone, proxy):
    server.shell(CREATE_ORGANIZER)
    _host, alice, _links, match_url = alice_with_a_secret(phone, proxy, "en")
    carol = phone()
    carol.goto(proxy.url + "/organizer/")
    carol.fill("input[name=username]", "carol17")
    carol.fill("input[name=password]", "carol-organizes-2026")
    carol.click("button.primary")
    expect(carol.locator("h1")).to_have_text("Match history")
    code = match_url.rstrip("/").rsplit("/", 1)[1]
    audit = f"{proxy.url}/organizer/matches/{code}/"
    carol.goto(audit)
    carol.wait_for_function("() => navigator.serviceWorker.controller !== null", timeout=20_000)
    carol.reload()
    # Opened, the audit shows the sealed trooper to the organizer...
    confirm_next_dialog(carol)
    carol.click("#open-sealed")
    expect(carol.locator("main")).to_contain_text(CANARY)
    carol.reload()
    expect(carol.locator("main")).to_contain_text(CANARY)
    assert kept_pages(carol) == 0
    # ... and offline it is not there.
    proxy.refuse()
    offline_page_without_the_secret(carol, audit, "en")
