"""At a venue the phones open the laptop by its LAN address over plain HTTP,
an origin browsers do not trust as they trust localhost or HTTPS. There a
header that only such origins honour is ignored, and Chromium says so in
the console of every page (Cross-Origin-Opener-Policy: "ignored, because
the URL's origin was untrustworthy"). The tests' servers answer on
127.0.0.1, where it is honoured, so none of them saw it. Here the phones
open a name that is not localhost (mapped to the test's server by
Chromium's resolver), as `make run` serves them, and log no error."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from .conftest import CHROMIUM_ARGS, EXPECTED_ERRORS
from .make_run import start_as_make_run
from .pages import LIVE, LOCALE, playing

pytestmark = pytest.mark.browser

VENUE = "venue.lan"


@pytest.fixture(scope="module")
def served(tmp_path_factory):
    live = start_as_make_run(
        tmp_path_factory.mktemp("venue-address"),
        {"ALLOWED_HOSTS": f"{VENUE},127.0.0.1,localhost"},
    )
    yield live
    live.stop()


@pytest.fixture(scope="module")
def venue_browser(playwright_session):
    manager, path = playwright_session
    browser = manager.chromium.launch(
        executable_path=path,
        args=[*CHROMIUM_ARGS, f"--host-resolver-rules=MAP {VENUE} 127.0.0.1"],
    )
    yield manager, browser
    browser.close()


@pytest.mark.parametrize("lang", ["es", "en"])
def test_a_phone_at_the_venues_address_logs_no_error(served, venue_browser, lang):
    manager, browser = venue_browser
    at_venue = f"http://{VENUE}:{served.port}"
    alice, _bob, _ids = playing(served.url)
    context = browser.new_context(**manager.devices["Pixel 7"], locale=LOCALE[lang])
    context.set_default_timeout(20_000)
    errors: list[str] = []
    context.on(
        "console",
        lambda message: (
            errors.append(message.text)
            if message.type == "error" and not message.text.startswith(EXPECTED_ERRORS)
            else None
        ),
    )
    try:
        page = context.new_page()
        page.goto(at_venue + "/")  # the start page
        context.add_cookies(
            [
                {"name": name, "value": alice.browser.cookie(name), "url": at_venue}
                for name in ("sessionid", "csrftoken")
            ]
        )
        page.goto(f"{at_venue}/m/{alice.code}/")
        expect(page.locator("#connection")).to_have_text(LIVE[lang])
        page.reload()
        expect(page.locator("#connection")).to_have_text(LIVE[lang])
    finally:
        context.close()
    assert errors == []
