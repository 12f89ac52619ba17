"""Army lists in a minute on a phone: paste the builder's text, import it in
one tap, and find it offered again on the same phone in the next match
(localStorage, static/tracker/lists.js)."""

import pytest
from playwright.sync_api import expect

from tests.rules.test_army_text import TWO_GROUPS

from .pages import claim, create_match

pytestmark = pytest.mark.browser


def test_a_pasted_list_imports_and_is_offered_in_the_next_match(server, phone):
    host, alice = phone(), phone()
    first = create_match(host, server, "Round 1")
    claim(alice, first[0], "Alice")

    # A line the reader cannot take: nothing imported, the reason shown.
    alice.fill("textarea[name=text]", TWO_GROUPS.replace("(0 | 10)", "0 10"))
    alice.click("text=Import the list")
    expect(alice.locator(".import-problems")).to_contain_text("Line 11")
    expect(alice.locator("table.list")).to_have_count(0)
    saved = alice.evaluate("window.localStorage.getItem('tracker.lists.v1')")
    assert saved is None  # a list with problems is not remembered

    alice.fill("textarea[name=text]", TWO_GROUPS)
    alice.click("text=Import the list")
    expect(alice.locator("table.list")).to_contain_text("Knight Of Montesa")
    expect(alice.locator("table.list tfoot")).to_contain_text("223")

    second = create_match(host, server, "Round 2")
    claim(alice, second[1], "Alice")
    offered = alice.locator("select[data-saved-lists]")
    expect(offered.locator("option")).to_have_count(2)
    offered.select_option(index=1)
    expect(alice.locator("textarea[name=text]")).to_have_value(TWO_GROUPS.strip())
    alice.click("text=Import the list")
    expect(alice.locator("table.list")).to_contain_text("Múltiplo Ángel")
