"""The phone offers activating Holoecho (HE-A2 in the States Phase, HE-A3 with
an Entire Order) only for a Holoprojector trooper the server lets activate it.

Found playing on two phones: Bob's Father-Knight was Dead, and his Orders
Phase still offered "Activate Holoecho with an Entire Order (HE-A3)" for it;
the tap was refused ("Father-Knight is out of action."). Now a trooper out of
action, or in an army in Retreat! that does not ignore it (HE-C6), is not
offered it."""

from __future__ import annotations

import pytest

from .phone_flows import lists_locked, ok, seated, started, to_orders, trooper_ids
from .test_retreat_on_phones import end_turn

pytestmark = pytest.mark.django_db


def offered(phone) -> list[str]:
    """The troopers the page's ActivateHoloecho form lists, by name."""
    phone.open()
    return [
        option.get_text()
        for form in phone.forms("ActivateHoloecho")
        for option in form.node.select("select[name=trooper_id] option")
    ]


def test_a_dead_holoprojector_trooper_is_not_offered_holoecho_again():
    a, b, _ids = started(holoecho="marker1")
    a.open()
    hassassin = a.trooper_id("Hassassin Ayyar")
    # In Holoecho: nothing to activate.
    assert offered(a) == []
    # The hit on the real one ends its Holoecho (HE-C4): in Alice's Orders
    # Phase her phone offers it again with an Entire Order (HE-A3).
    b.open()
    ok(
        b,
        b.submit("ReportOutcome", outcome="saving_roll", trooper_id=hassassin, element="marker1"),
    )
    assert offered(a) == ["Hassassin Ayyar"]
    # Its Saving Roll failed: Dead. No Holoecho is offered for it any more.
    a.open()
    ok(a, a.submit("SetTrooperState", trooper_id=hassassin, condition="dead", tokens=[]))
    assert offered(a) == []


def test_an_army_in_retreat_is_not_offered_holoecho_he_c6():
    """Alice's list is 100 points; Big Unconscious leaves 25: her Round 2
    Turn starts in Retreat!, which ends her Ayyar's Holoecho (RT-5) and lets
    it activate none again (HE-C6)."""
    a, b = seated()
    alice = (
        ("Kaplan", 10, 1, 2, ["lieutenant_candidate"]),
        ("Ayyar", 15, 1, 2, ["holoprojector"]),
        ("Big", 75, 1, 2, []),
    )
    bob = (("Fusilier", 10, 1, 2, ["lieutenant_candidate"]),)
    lists_locked(a, b, alice_list=alice, bob_list=bob)
    ok(a, a.submit("SetInitiative", first_turn="Alice", deploys_first="Alice"))
    ayyar = trooper_ids(a.code)["Ayyar"]
    ok(a, a.submit("SealDeployment", lieutenant="Kaplan", **{f"holoecho_{ayyar}": "marker1"}))
    b.open()
    ok(b, b.submit("SealDeployment", lieutenant="Fusilier"))
    end_turn(a, b)
    b.open()
    ok(b, b.submit("SetTrooperState", trooper_id="Big", condition="unconscious"))
    end_turn(b, a)
    to_orders(a, b)
    a.open()
    assert a.soup.select_one("#retreat") is not None  # in Retreat!
    assert a.can("DeclareSkill")  # her Orders Phase
    assert offered(a) == []
