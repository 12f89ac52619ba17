"""One code, "impetuous", names three things a player reads: the Impetuous
trait of a trooper, the Impetuous Phase of a Player Turn, and what the table
reports when a trooper becomes Impetuous (HD-C1, HE-C1). A game night found
the trait's box and badge, and the report's choice, all reading "Impetuous
Phase" (Spanish: "Fase Impetuosa"): the phase's name had taken the code
over. Each is read in its own words, in English and in Spanish, on the pages
the phones are sent."""

from __future__ import annotations

import pytest

from .phone_flows import ALICE_LIST, BOB_LIST, ok, seal_both, seated, to_orders

pytestmark = pytest.mark.django_db

WORDS = {
    "en": {"trait": "Impetuous", "outcome": "Becomes Impetuous", "phase": "Impetuous Phase"},
    "es": {"trait": "Impetuoso", "outcome": "Pasa a ser Impetuoso", "phase": "Fase Impetuosa"},
}


@pytest.mark.parametrize("language", ["en", "es"])
def test_the_trait_the_phase_and_the_report_each_read_in_their_own_words(language):
    words = WORDS[language]
    a, b = seated(language, language)
    daylami = ("Daylami", 20, 1, 2, ["impetuous"])
    for phone, rows in ((a, (*ALICE_LIST, daylami)), (b, BOB_LIST)):
        for name, cost, group, silhouette, traits in rows:
            phone.submit(
                "draft/add",
                name=name,
                cost=str(cost),
                combat_group=str(group),
                silhouette=str(silhouette),
                traits=traits,
            )
            ok(phone)

    # The draft: the add form's box and Daylami's badge name the trait.
    box = a.soup.select_one("form.addrow input[name=traits][value=impetuous]")
    assert " ".join(box.parent.get_text(" ").split()) == words["trait"]
    row = next(tr for tr in a.soup.select("table.list tr") if "Daylami" in tr.get_text())
    assert [span.get_text() for span in row.select("span.trait")] == [words["trait"]]

    for phone in (a, b):
        ok(phone, phone.submit("LockArmyList"))
    a.open()
    ok(a, a.submit("SetInitiative", first_turn="Alice", deploys_first="Alice"))
    b.open()
    seal_both(a, b)

    # Alice's Impetuous Phase: the header and its end button name the phase.
    a.open()
    ok(a, a.submit("AdvancePhase", expected="tactical"))  # the Order Count
    b.open()
    ok(b, b.submit("DeclineStrategicUse"))
    a.open()
    ok(a, a.submit("AdvancePhase", expected="tactical"))
    a.open()
    assert words["phase"] in a.soup.select_one("#blk-header .phase").get_text()
    end = a.soup.select_one("form[hx-post$='/AdvancePhase/'] button")
    assert words["phase"] in end.get_text()
    to_orders(a, b)

    # The report's choice says what the table decided, and so does the log.
    a.open()
    choices = {
        option["value"]: option.get_text()
        for option in a.soup.select("details.outcome select[name=outcome] option")
    }
    assert choices["impetuous"] == words["outcome"]
    a.submit("ReportOutcome", outcome="impetuous", trooper_id="Daylami")
    ok(a)
    line = a.soup.select_one("#blk-log li").get_text(" ")
    assert words["outcome"] in line, line
