"""Issue 18, render only what changed: "Undo my last change" moves between
the players as a part of its own (swapped by its id, the controls around it
kept), the digest each phone records is that of the block a fresh load
shows, and a refusal goes atop the controls the phone shows."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from tests.browser.pages import open_state
from tests.browser.test_row_push import _match_in_play, _seated
from tracker import reading

pytestmark = pytest.mark.browser


def _set_prone(page, row: str, prone: bool) -> None:
    form = open_state(page, row)
    box = form.locator("input[name=tokens][value=prone]")
    box.check() if prone else box.uncheck()
    form.locator("button:not([type=button])").click()


def _controls_digest_is_a_fresh_loads(page) -> None:
    recorded = page.locator("#blk-controls").get_attribute("data-h")
    page.reload()
    expect(page.locator("#connection")).to_have_text("Live")
    assert page.locator("#blk-controls").get_attribute("data-h") == recorded


def test_undo_moves_between_the_phones_as_its_own_part(server, phone):
    made = _match_in_play(server)
    alice = _seated(phone, server, made["code"], made["A"])
    bob = _seated(phone, server, made["code"], made["B"])
    undo = "#undo button:not([type=button])"

    _set_prone(alice, "#trooper-a0000000", True)
    expect(bob.locator("#trooper-a0000000 .badge")).to_contain_text("Prone")
    expect(alice.locator(undo)).to_be_visible()
    expect(bob.locator(undo)).to_have_count(0)
    _controls_digest_is_a_fresh_loads(alice)

    _set_prone(bob, "#trooper-b0000000", True)
    expect(bob.locator(undo)).to_be_visible()
    expect(alice.locator(undo)).to_have_count(0)  # pushed: Alice may no longer undo
    _controls_digest_is_a_fresh_loads(alice)
    _controls_digest_is_a_fresh_loads(bob)

    # Bob undoes from the form his page shows: his trooper is up again.
    bob.locator(undo).click()
    expect(bob.locator("#trooper-b0000000 .badge")).to_have_count(0)
    expect(alice.locator("#trooper-b0000000 .badge")).to_have_count(0)


def test_a_refusal_shows_atop_the_controls_the_phone_shows(server, phone):
    made = _match_in_play(server)
    alice = _seated(phone, server, made["code"], made["A"])
    # The State as it is, sent again: the rules refuse it ("Nothing changed.").
    open_state(alice, "#trooper-a0000000").locator("button:not([type=button])").click()
    expect(alice.locator("#blk-controls > p.error[role=alert]")).to_be_visible()
    expect(alice.locator("#blk-controls > .card, #blk-controls > div").first).to_be_visible()


def _lines(page, block: str) -> list[str]:
    return page.locator(f"{block} li").all_inner_texts()


# A line's time, where it shows one: every recent line, a log line only
# where a minute starts (tracker_tags.log_lines).
_TIME = re.compile(r"^\d\d:\d\d\s*")


def _texts(page, block: str) -> list[str]:
    return [_TIME.sub("", line).strip() for line in _lines(page, block)]


def test_new_log_lines_are_added_at_the_top_and_the_oldest_drop_off(server, phone):
    """The log shows the newest events only (reading.RECENT): a push adds the
    new line atop the log and the recent lines and deletes the one that fell
    off, and what each phone then shows is what a fresh load shows, digest
    and lines."""
    made = _match_in_play(server)
    alice = _seated(phone, server, made["code"], made["A"])
    bob = _seated(phone, server, made["code"], made["B"])
    for n, (page, row) in enumerate(
        [(alice, "#trooper-a0000000"), (bob, "#trooper-b0000000"), (alice, "#trooper-a0000000")]
    ):
        shown = _texts(bob, "#blk-log")
        _set_prone(page, row, n < 2)
        expect(bob.locator("#blk-log li").first).not_to_contain_text(shown[0])
        # A short log grows by the line; the recent three drop their oldest.
        assert _texts(bob, "#blk-log")[1:] == shown[: reading.RECENT - 1]
        assert _texts(bob, "#blk-recent") == _texts(bob, "#blk-log")[:3]
        # The newest line shows its minute; the lines of one minute show it once.
        assert _TIME.match(_lines(bob, "#blk-log")[0])
        assert all(_TIME.match(line) for line in _lines(bob, "#blk-recent"))
        times = bob.locator("#blk-log li time").all_inner_texts()
        assert len(times) < len(_lines(bob, "#blk-log")) and len(set(times)) == len(times)
    for page in (alice, bob):
        expect(page.locator("#blk-log li").first).to_contain_text("Fusilier 0 is no longer Prone")
        before = {
            b: (_lines(page, b), page.locator(b).get_attribute("data-h"))
            for b in ("#blk-log", "#blk-recent")
        }
        page.reload()
        expect(page.locator("#connection")).to_have_text("Live")
        after = {
            b: (_lines(page, b), page.locator(b).get_attribute("data-h"))
            for b in ("#blk-log", "#blk-recent")
        }
        assert before == after
