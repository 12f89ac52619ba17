"""A phone's own answer must not roll back what its socket already showed.

The answer to a POST and the socket's pushes travel on two connections. If
the opponent acts while the answer is still on its way, the push for that
newer seq can arrive first; swapping the older answer in afterwards would
show the past, and since the socket only re-sends blocks that change, it
would stay that way. Driven in the system Chromium against a real daphne,
with the answer held back by Playwright until the push has landed.
"""

from __future__ import annotations

import re
import threading

import pytest
from playwright.sync_api import expect

from tests.scale.servers import read_sqlite, seat_players, send_note, to_deployment

pytestmark = pytest.mark.browser


def test_an_answer_older_than_the_last_push_does_not_roll_the_page_back(server, phone):
    database = server.env["SQLITE_PATH"]
    alice, bob = seat_players(server.url)
    ids = to_deployment(alice, bob)
    for player, lieutenant in ((alice, "Kaplan"), (bob, "Fusilier")):
        reply = player.act("SealDeployment", f"seal-{player.letter}", lieutenant=ids[lieutenant])
        assert reply.error is None, reply.error

    page = phone()
    page.context.add_cookies(
        [
            {"name": "sessionid", "value": alice.browser.cookie("sessionid"), "url": server.url},
            {"name": "csrftoken", "value": alice.browser.cookie("csrftoken"), "url": server.url},
        ]
    )
    page.goto(f"{server.url}/m/{alice.code}/")
    expect(page.locator("#connection")).to_have_text("Live")
    bobs_notes = page.locator("#blk-seat_B li.secret")
    alices_notes = page.locator("#blk-seat_A li.secret")
    before, mine = bobs_notes.count(), alices_notes.count()

    held = threading.Event()

    def hold_the_answer(route):
        answer = route.fetch()  # the server acted and rendered: seq n
        held.set()
        # Bob acts (seq n + 1) and Alice's socket shows it before her answer lands.
        assert send_note(bob, bob.browser, f"bob-note-{alice.code}").outcome == "ok"
        newest = read_sqlite(database, alice.code)[0].seq
        expect(page.locator("#seq")).to_have_attribute("data-seq", str(newest))
        expect(bobs_notes).to_have_count(before + 1)
        route.fulfill(response=answer)

    page.route(re.compile(r".*/act/SealNote/$"), hold_the_answer)
    # The condition the check below waits for: htmx has handled the held
    # answer (swapped it in, or kept the page and asked for a resync); htmx
    # fires afterRequest right after its swap step.
    page.evaluate(
        """() => {
          let handled = 0;
          document.addEventListener("htmx:afterRequest", (evt) => {
            if (evt.detail.pathInfo.requestPath.endsWith("/act/SealNote/")) {
              handled += 1;
              document.body.dataset.answersHandled = String(handled);
            }
          });
        }"""
    )
    page.locator("summary", has_text="Seal a note").click()
    form = page.locator("form[hx-post$='/act/SealNote/']")
    form.locator("input[name=label]").fill("Objective")
    form.locator("textarea[name=text]").fill("Alice's note")
    form.locator("button[type=submit]").click()
    expect(alices_notes).to_have_count(mine + 1)
    assert held.is_set()
    # (an attribute Playwright polls: the CSP forbids wait_for_function's eval)
    expect(page.locator("body")).to_have_attribute("data-answers-handled", "1")
    newest = read_sqlite(database, alice.code)[0].seq
    # Still the newest state: Bob's note stays, the seq did not go back.
    expect(bobs_notes).to_have_count(before + 1)
    expect(page.locator("#seq")).to_have_attribute("data-seq", str(newest))
