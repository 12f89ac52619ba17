"""A pasted pairing may name a guest who is not on the event's roster (a
player the organizer seats on the night). The standings cannot count that
table, but once its result is confirmed the round is finished all the same:
it must not hold the next round's draw back for good. Through the pages'
rendered forms only."""

from __future__ import annotations

import pytest

from tests.web.phone_flows import lists_locked
from tests.web.rendered_forms import submit
from tests.web.test_event_round_checks import event_of, publish
from tests.web.test_event_running import ok, seat_phone
from tracker.models import Match

pytestmark = pytest.mark.django_db

TWO_TROOPERS = (("Fusilier", 10, 1, 2, ["lieutenant_candidate"]), ("Bolt", 15, 1, 2, []))


def played_to_a_result(carol, match: Match, confirm: bool = True, objectives=(5, 2)):
    a, b = seat_phone(carol, match, "A"), seat_phone(carol, match, "B")
    lists_locked(a, b, TWO_TROOPERS, TWO_TROOPERS)
    name_a = match.seats.get(letter="A").listed_name
    ok(a, "SetInitiative", first_turn=name_a, deploys_first=name_a)
    ok(a, "SealDeployment", lieutenant="Fusilier")
    ok(b, "SealDeployment", lieutenant="Fusilier")
    op_a, op_b = objectives
    ok(a, "ProposeResult", objective_a=op_a, objective_b=op_b, army_a=25, army_b=10)
    if confirm:
        ok(b, "ConfirmResult")
    return b


def test_a_confirmed_table_with_a_guest_does_not_hold_the_next_round(carol):
    event, org = event_of(carol, "Ana Arroyo, PanOceania\nBea Blanco, Yu Jing", "Con invitado")
    publish(org, seed=3)
    # Two walk-ins play round 1 too, on a table the organizer pastes.
    event_page = carol.get(f"/organizer/events/{event.pk}/").content.decode()
    response = submit(
        carol,
        event_page,
        f"/organizer/events/{event.pk}/",
        at=f"/organizer/events/{event.pk}/",
        points_limit=300,
        rounds=3,
        event_round=1,
        pairings="2, Carlos Cruz, Guest Gómez",
    )
    assert response.status_code == 302
    drawn, guest_table = Match.objects.filter(event=event).order_by("table_number")
    assert guest_table.seats.get(letter="B").listed_name == "Guest Gómez"

    guest = played_to_a_result(carol, guest_table, confirm=False)
    played_to_a_result(carol, drawn)
    refused = org.submit("/rounds/draw/")
    assert refused.status_code == 400
    assert "Round 1 still has tables without a confirmed result: 2." in refused.content.decode()

    ok(guest, "ConfirmResult")
    assert org.submit("/rounds/draw/").status_code == 302
    assert event.rounds.filter(number=2).exists()
