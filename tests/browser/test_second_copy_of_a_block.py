"""The answer to a tap and the socket's push for it carry the same block
(issue 17): whichever comes second is the block the page already shows,
and is not swapped in again (app.js compares the blocks' digests). Swapped
in again, it undid what the player did since the first: the trooper picked
for the next Order went back to the list's first one, with nothing said,
and the Order was declared for a trooper the player never picked.

Here the push comes first, as it does when the answer is slower (a venue's
Wi-Fi), and the player picks the trooper before the answer arrives. One
phone in Spanish and one in English, either way round.
"""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from .pages import COUNT_ANSWERS, answers_taken_in, hold_answers, open_phone, playing
from .test_venue_taps import LET_IT_PASS, ORDER_COUNT_DONE

pytestmark = pytest.mark.browser


@pytest.mark.parametrize("lang, other", [("en", "es"), ("es", "en")])
def test_a_trooper_picked_before_the_answer_arrives_stays_picked(served, phone, lang, other):
    alice_http, bob_http, _ids = playing(served.url)
    alice = open_phone(phone, alice_http, served.url, lang)
    bob = open_phone(phone, bob_http, served.url, other)
    alice.add_init_script(COUNT_ANSWERS)
    alice.reload()
    alice.get_by_role("button", name=ORDER_COUNT_DONE[lang]).click()
    bob.get_by_role("button", name=LET_IT_PASS[other]).click()

    # Through the Tactical and Impetuous Phases to her Orders, each answer
    # held until its push has shown the next phase.
    held, release = hold_answers(alice)
    order_card = alice.locator(".card.order form.quick")
    for _ in range(4):
        phase = alice.locator("#blk-header .phase").inner_text()
        alice.locator("form[hx-post$='/AdvancePhase/'] button").click()
        expect(alice.locator("#blk-header .phase")).not_to_have_text(phase)
        assert len(held) == 1
        if order_card.count():
            break
        answers_taken_in(alice, release)
    # The push has brought the Order card; the answer is still on its way.
    trooper = order_card.locator("select[name=trooper_id]")
    expect(trooper).to_be_visible()
    options = trooper.locator("option")
    assert options.count() > 1
    picked = options.last.get_attribute("value")
    trooper.select_option(picked)

    answers_taken_in(alice, release)
    expect(order_card.locator("select[name=trooper_id]")).to_have_value(picked)
