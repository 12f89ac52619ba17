"""A list submitted through the player's private link after the round is
published (the organizer published while the roster still said "has not
submitted") starts the player's match of that round too, as the README
promises ("every match of that player in the event starts from it"): the
link's list reached only matches created after it, and the player found an
empty draft at the table. A draft the player has started is left alone; a
draft still as the earlier list made it follows the list replaced."""

from __future__ import annotations

import pytest

from tests.web.phone import Phone
from tests.web.test_event_round_checks import event_of, publish
from tests.web.test_event_running import (
    ARMY,
    list_link_of,
    pairings_of,
    seat_phone,
    submit_through_link,
)
from tracker.models import Seat

pytestmark = pytest.mark.django_db

NAMES = "Ana, PanOceania\nBea, Yu Jing\nCai, Nomads\nDan, Ariadna"
REPLACED = ARMY.replace("BOLT Combi Rifle / Pistol. (0 | 15)", "BOLT Spitfire / Pistol. (0 | 20)")


def seat_of(event, name: str) -> Seat:
    return Seat.objects.get(match__event=event, match__event_round=1, listed_name=name)


def test_a_list_submitted_after_publishing_starts_the_open_match(carol):
    event, org = event_of(carol, NAMES)
    publish(org, seed=7)
    [(_t, match, ana_or_other, _b)] = [t for t in pairings_of(event, 1) if "Ana" in t[2:]]
    letter = "A" if ana_or_other == "Ana" else "B"
    submit_through_link(list_link_of(org, "Ana"), "Ana")
    phone = seat_phone(carol, match, letter)
    assert "Fusilier" in phone.text and "Bolt" in phone.text
    assert [row["name"] for row in seat_of(event, "Ana").draft] == ["Fusilier", "Bolt"]

    # Replaced through the link: the untouched draft follows.
    replace_through_link(list_link_of(org, "Ana"))
    assert [row["cost"] for row in seat_of(event, "Ana").draft] == [10, 20]


def test_a_started_draft_is_not_overwritten_by_the_link(carol):
    event, org = event_of(carol, NAMES)
    publish(org, seed=7)
    seat = seat_of(event, "Bea")
    seat.draft = [{"id": "0" * 8, "name": "Zhanshi", "cost": 9, "combat_group": 1}]
    seat.save(update_fields=["draft"])
    submit_through_link(list_link_of(org, "Bea"), "Bea")
    assert [row["name"] for row in seat_of(event, "Bea").draft] == ["Zhanshi"]


def replace_through_link(path: str) -> None:
    player = Phone()
    player.visit(path)
    [form] = [f for f in player.forms() if "text" in f.names()]
    form.fill({"text": REPLACED})
    player.send(form)
    assert "2 troopers (30 points)" in player.text
