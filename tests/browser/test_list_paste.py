"""Army lists in a minute on a phone: paste the builder's text, import it in
one tap (lines it cannot read are listed and left out), and import it again
in one tap on the same phone in the next match (localStorage,
static/tracker/lists.js)."""

import pytest
from playwright.sync_api import expect

from tests.rules.test_army_text import TWO_GROUPS

from .pages import claim, create_match

pytestmark = pytest.mark.browser


def test_a_pasted_list_imports_and_is_offered_in_the_next_match(server, phone):
    host, alice = phone(), phone()
    first = create_match(host, server, "Round 1")
    claim(alice, first[0], "Alice")

    # No trooper line at all: nothing imported, why shown, nothing remembered.
    alice.fill("textarea[name=text]", "Haqqislam\n6 SWC | 272 Points\nOpen with Army…\n")
    alice.click("text=Import the list")
    expect(alice.locator(".import-problems")).to_contain_text("No trooper lines were found")
    expect(alice.locator("table.list")).to_have_count(0)
    saved = alice.evaluate("window.localStorage.getItem('tracker.lists.v1')")
    assert saved is None  # a list that imported nothing is not remembered

    # One line it cannot read: the rest comes in, that line is listed.
    alice.fill("textarea[name=text]", TWO_GROUPS.replace("(0 | 10)", "0 10"))
    alice.click("text=Import the list")
    expect(alice.locator("table.list")).to_contain_text("Knight Of Montesa")
    expect(alice.locator("table.list tfoot")).to_contain_text("213")
    alice.click(".import-skipped summary")
    expect(alice.locator(".import-skipped")).to_contain_text("Line 11")

    second = create_match(host, server, "Round 2")
    claim(alice, second[1], "Alice")
    # The saved list is one tap: its button imports it.
    offered = alice.locator("button[data-saved-list]")
    expect(offered).to_have_count(1)
    offered.click()
    expect(alice.locator("table.list")).to_contain_text("Múltiplo Ángel")
    expect(alice.locator("table.list tfoot")).to_contain_text("213")
