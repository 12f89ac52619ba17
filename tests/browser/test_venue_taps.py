"""Two things an exploratory game night found on phones (issue 18's venue):

- What a player is typing is not wiped when the opponent acts: the push
  swaps the block the half-written note is in (the opponent's answer to
  the Order Count changes the controls), and the text, and the section
  opened for it, are still there afterwards, and send as typed. Only into
  the same form: a dispute's reason, typed against one proposed result, is
  not carried into the dispute of a new proposal the opponent sends
  meanwhile.
- A login in another tab of the same browser (an organizer who is also a
  player) renews the browser's CSRF cookie, so the match page's token no
  longer matches: a tap is refused before anything is read. The phone asks
  for the new token and sends the same tap again, which lands once; it used
  to be refused silently, every tap, until a reload.

Each test in English and in Spanish; every tap of the tests is made on a
phone's page (the match is brought to play over HTTP, as the link tests do).
"""

from __future__ import annotations

import time
import uuid

import pytest
from playwright.sync_api import expect

from tests.scale.servers import manage, seat_players

from .pages import action_ids
from .test_link_faults import applied, open_phone, playing, tick_first_token

pytestmark = pytest.mark.browser

SEAL_A_NOTE = {
    "en": "Seal a note (classified objective, data tracker…)",
    "es": "Sellar una nota (Objetivo Clasificado, DataTracker…)",
}

ORDER_COUNT_DONE = {
    "en": "Order Count done: end the Executive Use",
    "es": "Recuento de Órdenes hecho: termina el Uso Ejecutivo",
}
LET_IT_PASS = {
    "en": "No Strategic Use: let the moment pass",
    "es": "Sin Uso Estratégico: dejar pasar el momento",
}

CREATE_ORGANIZER = """
from django.contrib.auth.models import Group, User
user = User.objects.create_user({name!r}, password="carol-organizes-2026")
user.groups.add(Group.objects.get(name="organizers"))
"""


def opened(details):
    """A <details> of the controls, opened as a player taps its summary."""
    if not details.evaluate("d => d.open"):
        details.locator("summary").click()
    return details


def note_form(page, lang):
    details = opened(page.locator("#blk-controls details", has_text=SEAL_A_NOTE[lang]))
    return details, details.locator("form[hx-post$='/act/SealNote/']")


@pytest.mark.parametrize("lang", ["en", "es"])
def test_a_half_typed_note_survives_the_opponent_s_change(served, phone, lang):
    alice_http, bob_http, _ids = playing(served.url)
    other = "es" if lang == "en" else "en"
    alice = open_phone(phone, alice_http, served.url, lang)
    bob = open_phone(phone, bob_http, served.url, other)
    # Alice makes her Order Count: Bob decides on a Strategic Use (TM-S2).
    alice.get_by_role("button", name=ORDER_COUNT_DONE[lang]).click()
    let_pass = bob.get_by_role("button", name=LET_IT_PASS[other])
    expect(let_pass).to_be_visible()
    details, form = note_form(alice, lang)
    form.locator("input[name=label]").fill("Plan B")
    text = form.locator("textarea[name=text]")
    text.fill("Objective: the antenna by the")
    controls_before = alice.locator("#blk-controls").get_attribute("data-h")

    # Bob lets the moment pass on his phone: Alice's controls change (her
    # Tactical Phase goes on) and the push swaps the whole block.
    let_pass.click()
    expect(alice.locator("#blk-controls")).not_to_have_attribute("data-h", controls_before)

    details, form = note_form(alice, lang)  # the block now shown
    assert details.evaluate("d => d.open")
    expect(form.locator("input[name=label]")).to_have_value("Plan B")
    expect(form.locator("textarea[name=text]")).to_have_value("Objective: the antenna by the")

    # What was carried over sends as typed, once; the form is emptied then
    # (the controls do not change: the note shows in the seat block).
    form.locator("textarea[name=text]").fill("Objective: the antenna by the bridge")
    sent = action_ids(alice, "SealNote")
    alice.once("dialog", lambda dialog: dialog.accept())
    form.locator("button:not([type=button])").click()
    expect(alice.locator("#blk-seat_A .secrets")).to_contain_text("Plan B")
    assert len(set(sent)) == 1, sent
    assert [r.kind for r in applied(served.env["SQLITE_PATH"], alice_http.code, sent[0])] == [
        "SecretsSealed"
    ]
    _details, form = note_form(alice, lang)
    expect(form.locator("textarea[name=text]")).to_have_value("")


@pytest.mark.parametrize("lang", ["en", "es"])
def test_a_tap_after_a_login_in_another_tab_renews_its_token_and_lands_once(served, phone, lang):
    alice_http, _bob_http, ids = playing(served.url)
    kaplan = ids["Kaplan"]
    alice = open_phone(phone, alice_http, served.url, lang)
    name = f"carol-{uuid.uuid4().hex[:8]}"
    manage(served.env, "shell", "-c", CREATE_ORGANIZER.format(name=name))

    # The same browser logs in as an organizer in another tab.
    tab = alice.context.new_page()
    tab.goto(served.url + "/organizer/")
    tab.fill("input[name=username]", name)
    tab.fill("input[name=password]", "carol-organizes-2026")
    tab.click("button.primary")
    expect(tab.locator("input[name=password]")).to_have_count(0)  # logged in
    tab.close()

    statuses: list[int] = []
    alice.on(
        "response",
        lambda r: statuses.append(r.status) if "/act/SetTrooperState/" in r.url else None,
    )
    sent = action_ids(alice, "SetTrooperState")
    form, _box = tick_first_token(alice, kaplan)
    form.locator("button:not([type=button])").click()
    expect(alice.locator(f"#trooper-{kaplan}")).to_have_attribute("data-tokens", "prone")
    expect(alice.locator("#unsent")).to_be_hidden()
    # The push may show the tap before the tap's own answer is heard.
    heard(alice, statuses, lambda: 200 in statuses)
    assert statuses[0] == 403 and statuses[-1] == 200, statuses  # refused once, then landed
    assert len(set(sent)) == 1, sent
    assert len(applied(served.env["SQLITE_PATH"], alice_http.code, sent[0])) == 1
    # The next tap carries the new token from the start.
    statuses.clear()
    form, _box = tick_first_token(alice, ids["Zhanshi"])
    form.locator("button:not([type=button])").click()
    expect(alice.locator(f"#trooper-{ids['Zhanshi']}")).to_have_attribute("data-tokens", "prone")
    heard(alice, statuses, lambda: statuses)
    assert statuses == [200], statuses


def heard(page, statuses, enough, seconds: float = 15) -> None:
    """Wait until the tap's answers seen so far are `enough`: a push can
    show a tap on the page before its HTTP answer reaches the listener
    (CI once read an empty list there)."""
    deadline = time.monotonic() + seconds
    while not enough():
        assert time.monotonic() < deadline, statuses
        page.wait_for_timeout(50)


def propose(page, numbers):
    """The player opens the result section and sends `numbers` to confirm."""
    details = opened(page.locator("#blk-controls details.propose"))
    form = details.locator("form[hx-post$='/act/ProposeResult/']")
    for name, value in numbers.items():
        form.locator(f"input[name={name}]").fill(str(value))
    form.locator("button:not([type=button])").click()


@pytest.mark.parametrize("lang", ["en", "es"])
def test_attack_a_dispute_reason_is_not_carried_into_a_new_proposal(served, phone, lang):
    alice_http, bob_http, _ids = playing(served.url)
    other = "es" if lang == "en" else "en"
    alice = open_phone(phone, alice_http, served.url, other)
    bob = open_phone(phone, bob_http, served.url, lang)
    numbers = {"objective_a": 7, "objective_b": 3, "army_a": 30, "army_b": 90}
    propose(alice, numbers)
    dispute = bob.locator("#blk-controls details.dispute")
    expect(dispute).to_be_visible()
    dispute.locator("summary").click()
    form = dispute.locator("form[hx-post$='/act/DisputeResult/']")
    first = form.locator("input[name=proposal]").get_attribute("value")
    form.locator("input[name=reason]").fill("Alice had 5 objective points, not 7")

    # Alice sends other numbers before Bob taps: his controls are swapped
    # whole, and the dispute form now answers the new proposal.
    propose(alice, {**numbers, "objective_a": 5})
    expect(form.locator("input[name=proposal]")).not_to_have_value(first)
    # The section he opened stays open; what he wrote about the numbers he
    # saw is not put under numbers he has not read.
    assert dispute.evaluate("d => d.open")
    expect(form.locator("input[name=reason]")).to_have_value("")


@pytest.mark.parametrize("lang", ["en", "es"])
def test_a_half_typed_trooper_survives_removing_another_row_of_the_draft(served, phone, lang):
    """The "add a trooper" form offers the next row's id, which changes with
    the draft: it is still the same form, and what was typed in it stays."""
    alice_http, _bob_http = seat_players(served.url)
    for name, cost in (("Zhanshi", 10), ("Yaozao", 8)):
        assert alice_http.add_trooper(name, cost).status == 200
    alice = open_phone(phone, alice_http, served.url, lang)
    add = alice.locator("form.addrow")
    add.locator("input[name=name]").fill("Hsien Warr")
    offered = add.locator("input[name=row_id]").get_attribute("value")

    alice.locator("tr", has_text="Yaozao").locator("form[hx-post$='/draft/remove/'] button").click()
    expect(alice.locator("tr", has_text="Yaozao")).to_have_count(0)
    expect(add.locator("input[name=row_id]")).not_to_have_value(offered)
    expect(add.locator("input[name=name]")).to_have_value("Hsien Warr")
