"""Retreat! as two phones see it (RT-A, RT-2, RT-X1), every tap a form the
page rendered (tests/web/phone.py): the Retreat! markers are on the table,
so both players read which troopers carry one, in Spanish and in English."""

import pytest

from .phone import Phone
from .phone_flows import let_s2_pass, lists_locked, ok, seated

pytestmark = pytest.mark.django_db

# Alice's list is 100 points; losing Big leaves 25 (exactly 25%: Retreat!).
ALICE = (
    ("Kaplan", 10, 1, 2, ["lieutenant_candidate"]),
    ("Veteran Sergeant", 15, 1, 2, ["veteran"]),
    ("Big", 75, 1, 2, []),
)
BOB = (
    ("Fusilier", 10, 1, 2, ["lieutenant_candidate"]),
    ("Bolt", 15, 1, 2, []),
)


def end_turn(phone: Phone, other: Phone) -> None:
    """The active phone ends every phase of its Player Turn (the other
    phone lets the TM-S2 moment pass when it comes)."""
    for phase in ("tactical", "tactical", "impetuous", "orders", "states"):
        let_s2_pass(other)
        phone.open()
        if phone.can("AdvancePhase", expected=phase):
            ok(phone, phone.submit("AdvancePhase", expected=phase))


def alice_in_retreat(language: str | None):
    """Big goes Unconscious in Round 1; Alice's Round 2 Turn starts in Retreat!."""
    a, b = seated(language, language)
    lists_locked(a, b, alice_list=ALICE, bob_list=BOB)
    ok(a, a.submit("SetInitiative", first_turn="Alice", deploys_first="Alice"))
    ok(a, a.submit("SealDeployment", lieutenant="Kaplan"))
    b.open()
    ok(b, b.submit("SealDeployment", lieutenant="Fusilier"))
    end_turn(a, b)
    b.open()
    ok(b, b.submit("SetTrooperState", trooper_id="Big", condition="unconscious"))
    end_turn(b, a)
    return a, b


def row_text(phone: Phone, name: str) -> str:
    rows = [
        row
        for row in phone.soup.select("li.trooper")
        if row.select_one(".name").get_text(strip=True) == name
    ]
    assert len(rows) == 1, name
    return " ".join(rows[0].get_text(" ").split())


@pytest.mark.parametrize(
    ("language", "marker"),
    [("en", "Retreat! marker"), ("es", "Marcador de ¡¡¡Retirada!!!")],
)
def test_rt_2_both_phones_read_which_troopers_carry_a_retreat_marker(language, marker):
    a, b = alice_in_retreat(language)
    a.open()
    assert a.soup.select_one("#retreat") is not None  # Alice's army is in Retreat!
    for phone in (a, b):
        phone.open()
        # RT-2: beside each surviving trooper; RT-X1: not beside the Veteran,
        # who may still shoot (RT-3); none beside the Unconscious Big.
        assert marker in row_text(phone, "Kaplan")
        assert marker not in row_text(phone, "Veteran Sergeant")
        assert marker not in row_text(phone, "Big")
        # Bob's troopers are not in Retreat!.
        assert marker not in row_text(phone, "Fusilier")


@pytest.mark.parametrize(
    ("condition", "in_group"),
    [("dead", False), ("sepsitorized", False), ("unconscious", True)],
)
def test_tm_e1_faq_dead_or_sepsitorized_troopers_show_no_combat_group(condition, in_group):
    """Command Tokens FAQ: Unconscious troopers stay in their Combat Group;
    Dead or Sepsitorized ones belong to none, so neither phone shows Big in
    G1 once it is (a player counting a group's 10 for TM-E1 reads the rows)."""
    a, b = seated()
    lists_locked(a, b, alice_list=ALICE, bob_list=BOB)
    ok(a, a.submit("SetInitiative", first_turn="Alice", deploys_first="Alice"))
    ok(a, a.submit("SealDeployment", lieutenant="Kaplan"))
    b.open()
    ok(b, b.submit("SealDeployment", lieutenant="Fusilier"))
    a.open()
    ok(a, a.submit("SetTrooperState", trooper_id="Big", condition=condition))
    for phone in (a, b):
        phone.open()
        assert "G1" in row_text(phone, "Kaplan").split()
        assert ("G1" in row_text(phone, "Big").split()) is in_group
