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

from tests.scale.servers import read_sqlite, send_note

from .pages import open_phone, playing

pytestmark = pytest.mark.browser

# The handler below acts as Bob and waits for Alice's socket, each wait up to
# expect's 15 s, before it lets the answer through: the test waits longer.
HANDLER_TIMEOUT = 60_000


def holding(failures):
    """A route handler that fetches the answer (the server acts and renders),
    runs `between` while holding it, then lets it through whatever happened.

    Playwright runs a route handler as an event listener: what it raises is
    logged, not raised in the test, and (before this) left the answer held
    until the browser closed, failing the next test instead of this one. So a
    failed check of `between` is kept in `failures` for the test to assert."""

    def wrap(between):
        def run(route):
            answer = route.fetch()
            try:
                between()
            except Exception as failure:  # noqa: BLE001 -- reported by the test
                failures.append(repr(failure))
            finally:
                route.fulfill(response=answer)

        return run

    return wrap


def test_an_answer_older_than_the_last_push_does_not_roll_the_page_back(server, phone):
    database = server.env["SQLITE_PATH"]
    alice, bob, _ids = playing(server.url)
    page = open_phone(phone, alice, server.url)
    bobs_notes = page.locator("#blk-seat_B li.secret")
    alices_notes = page.locator("#blk-seat_A li.secret")
    before, mine = bobs_notes.count(), alices_notes.count()

    held = threading.Event()
    failures = []

    @holding(failures)
    def hold_the_answer():
        held.set()  # the server acted and rendered: seq n
        # Bob acts (seq n + 1) and Alice's socket shows it before her answer lands.
        assert send_note(bob, bob.browser, f"bob-note-{alice.code}").outcome == "ok"
        newest = read_sqlite(database, alice.code)[0].seq
        expect(page.locator("#seq")).to_have_attribute("data-seq", str(newest))
        expect(bobs_notes).to_have_count(before + 1)

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
    form.locator("button:not([type=button])").click()
    # Waited for first: Alice's own push can show her note while the held
    # answer is still being fetched, before the handler has even begun.
    # (an attribute Playwright polls: the CSP forbids wait_for_function's eval)
    expect(page.locator("body")).to_have_attribute(
        "data-answers-handled", "1", timeout=HANDLER_TIMEOUT
    )
    assert held.is_set()
    assert failures == []
    expect(alices_notes).to_have_count(mine + 1)
    newest = read_sqlite(database, alice.code)[0].seq
    # Still the newest state: Bob's note stays, the seq did not go back.
    expect(bobs_notes).to_have_count(before + 1)
    expect(page.locator("#seq")).to_have_attribute("data-seq", str(newest))


def test_a_stale_answer_to_a_form_the_push_replaced_does_not_roll_the_page_back(server, phone):
    """The same, when the push replaces the block of the form that sent the
    tap: Bob proposes a result while Alice's note is on its way, and her
    controls come anew with the proposal to confirm. htmx fires its swap
    events on the form that sent the tap, now detached from the page, so a
    check made in those events never ran and the older answer was swapped
    in: the proposal went from Alice's phone, and the seq went back."""
    database = server.env["SQLITE_PATH"]
    alice, bob, _ids = playing(server.url)
    page = open_phone(phone, alice, server.url)
    # Every answer counted once htmx has handled it (loadend comes after the
    # load event htmx swaps in), whatever became of the form that sent it.
    page.add_init_script(
        """(() => {
          const open = XMLHttpRequest.prototype.open;
          XMLHttpRequest.prototype.open = function (...args) {
            this.addEventListener("loadend", () => {
              const body = document.body;
              body.dataset.answers = String(Number(body.dataset.answers || 0) + 1);
            });
            return open.apply(this, args);
          };
        })()"""
    )
    page.reload()
    expect(page.locator("#connection")).to_have_text("Live")
    confirm = page.locator("form[hx-post$='/act/ConfirmResult/']")
    expect(confirm).to_have_count(0)

    failures = []

    @holding(failures)
    def hold_the_answer():
        # The server sealed the note (seq n); Bob proposes a result meanwhile.
        reply = bob.act(
            "ProposeResult", "bob-proposes", objective_a=3, objective_b=5, army_a=20, army_b=25
        )
        assert reply.error is None, reply.error
        newest = read_sqlite(database, alice.code)[0].seq
        expect(page.locator("#seq")).to_have_attribute("data-seq", str(newest))
        expect(confirm).to_have_count(1)  # the controls came anew: the note's form is gone

    page.route(re.compile(r".*/act/SealNote/$"), hold_the_answer)
    page.locator("summary", has_text="Seal a note").click()
    form = page.locator("form[hx-post$='/act/SealNote/']")
    form.locator("input[name=label]").fill("Objective")
    form.locator("textarea[name=text]").fill("Alice's note")
    answers = int(page.locator("body").get_attribute("data-answers") or 0)
    form.locator("button:not([type=button])").click()
    expect(page.locator("body")).to_have_attribute(
        "data-answers", str(answers + 1), timeout=HANDLER_TIMEOUT
    )
    assert failures == []
    # Read at once, not polled: a pong tells a rolled-back phone it is behind
    # and its resync puts the page right a few seconds later.
    newest = read_sqlite(database, alice.code)[0].seq
    assert page.locator("#seq").get_attribute("data-seq") == str(newest)
    assert confirm.count() == 1
    expect(page.locator("#blk-seat_A li.secret", has_text="Objective")).to_have_count(1)
