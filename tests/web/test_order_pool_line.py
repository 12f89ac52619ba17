"""The seat block's Order Pool line says something true: when no Order is
in a seat's pool (its only survivor is hidden, whose Order is kept apart,
HD-3), neither phone shows "Order Pool:" with nothing after it, and the
opponent's page still says nothing of the hidden trooper."""

import pytest

from .phone_flows import CANARY_NINJA, ok, seal_both, set_up

pytestmark = pytest.mark.django_db

ORDER_POOL = {"en": "Order Pool:", "es": "Reserva de Órdenes:"}
GROUP_1 = {"en": "Group 1:", "es": "Grupo 1:"}


def seat_a_text(phone) -> str:
    phone.open()
    return " ".join(phone.soup.select_one("#blk-seat_A").get_text(" ").split())


@pytest.mark.parametrize("alice_language, bob_language", [("en", "es"), ("es", "en")])
def test_no_order_pool_line_when_only_a_hidden_trooper_survives(alice_language, bob_language):
    a, b = set_up(language_a=alice_language, language_b=bob_language)
    ids = seal_both(a, b)
    mine, theirs = ORDER_POOL[alice_language], ORDER_POOL[bob_language]
    # While troopers stand on the table both phones show the line, so the
    # checks below read a line that was there.
    assert f"{mine} {GROUP_1[alice_language]} 2" in seat_a_text(a)
    assert f"{theirs} {GROUP_1[bob_language]} 2" in seat_a_text(b)
    # The Hassassin is in Holoecho: it falls by a Saving Roll reported on
    # its real one (seal_both: marker 2), which ends its Holoecho (HE-C4).
    a.open()
    ok(
        a,
        a.submit(
            "ReportOutcome",
            outcome="saving_roll",
            trooper_id=ids["Hassassin Ayyar"],
            element="marker2",
        ),
    )
    for name in ("Hassassin Ayyar", "Kaplan"):
        a.open()
        ok(a, a.submit("SetTrooperState", trooper_id=ids[name], condition="dead"))
    assert CANARY_NINJA in seat_a_text(a) and mine not in seat_a_text(a)
    assert theirs not in seat_a_text(b)
    assert CANARY_NINJA not in b.html and "Hidden Deployment" not in seat_a_text(b)
