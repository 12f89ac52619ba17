"""Back to a page the tracker answered to a POST (a wrong PIN, here) loads
that address again, in English and Spanish, instead of the browser's
"Confirm Form Resubmission" page, which offers to send the form again. At a
venue a player moving a seat to a new phone types a wrong PIN, then the
right one, and taps Back."""

import pytest
from playwright.sync_api import expect

from .pages import claim, create_match

pytestmark = pytest.mark.browser

WORDS = {
    "en-GB": {"wrong": "That PIN is not right.", "move": "Move my seat here", "live": "Live"},
    "es-ES": {
        "wrong": "Ese PIN no es correcto.",
        "move": "Pasar mi asiento aquí",
        "live": "En directo",
    },
}


@pytest.mark.parametrize("locale", ["en-GB", "es-ES"])
def test_back_after_a_wrong_pin_loads_the_page_again(server, phone, locale):
    words = WORDS[locale]
    host = phone()
    link_a, _link_b = create_match(host, server)
    claim(phone(), link_a, "Alice", pin="246813")

    new_phone = phone(locale)
    new_phone.goto(link_a)
    new_phone.fill("input[name=pin]", "135791")
    new_phone.click(f"button:has-text('{words['move']}')")
    expect(new_phone.locator(".errorlist")).to_contain_text(words["wrong"])
    new_phone.fill("input[name=pin]", "246813")
    new_phone.click(f"button:has-text('{words['move']}')")
    expect(new_phone.locator("#connection")).to_have_text(words["live"])
    moved_to = new_phone.url

    # Back: the page answered to the wrong PIN's POST. Its address loads
    # again (the seat is this phone's now: it leads to the match), and no
    # form is sent: the seat's wrong PINs stay one.
    posts = []
    new_phone.on("request", lambda r: posts.append(r.url) if r.method == "POST" else None)
    new_phone.go_back()
    expect(new_phone.locator("#connection")).to_have_text(words["live"])
    assert new_phone.url == moved_to
    assert posts == []
