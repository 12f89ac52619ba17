"""The private army list draft (outside the match log): a double tap of the
add form adds its trooper once (the form's row id names the row), a draft
holds at most MAX_TROOPERS troopers, and once the list is locked neither an
add, a remove, a pasted list nor a row's edit changes the draft, even when
posted by hand (the draft is what a player hands to an event's organizer)."""

from __future__ import annotations

import pytest

from tracker.models import Seat
from tracker.rules.setup import MAX_TROOPERS

from .rendered_forms import submit
from .table import error_of, seated

pytestmark = pytest.mark.django_db


def draft_names(match, letter="A") -> list[str]:
    return [row["name"] for row in Seat.objects.get(match=match, letter=letter).draft]


def test_a_double_tapped_add_adds_its_trooper_once(alice, bob):
    a, _b = seated(alice, bob)
    phone = a.phone
    rendered = phone.form("draft/add")
    rendered.fill({"name": "Fusilier", "cost": "10"})
    phone.send(rendered, reload=False)
    phone.send(rendered)  # the same form again: the same row id
    assert draft_names(a.match) == ["Fusilier"]


def test_a_draft_holds_at_most_max_troopers(alice, bob):
    a, _b = seated(alice, bob)
    seat = Seat.objects.get(match=a.match, letter="A")
    seat.draft = [
        {
            "id": f"{n:012x}",
            "name": f"Trooper {n}",
            "cost": 1,
            "combat_group": 1,
            "silhouette": 2,
            "traits": [],
        }
        for n in range(MAX_TROOPERS - 1)
    ]
    seat.save(update_fields=["draft"])
    assert error_of(a.submit("draft/add", name="Last one", cost="1")) is None
    assert len(draft_names(a.match)) == MAX_TROOPERS
    refused = a.submit("draft/add", name="One too many", cost="1")
    assert f"at most {MAX_TROOPERS} troopers" in error_of(refused)
    assert len(draft_names(a.match)) == MAX_TROOPERS
    assert "One too many" not in draft_names(a.match)


def locked(alice, bob):
    a, b = seated(alice, bob)
    assert error_of(a.submit("draft/add", name="Kaplan", cost="20")) is None
    assert error_of(a.submit("LockArmyList")) is None
    return a, b


def test_attack_a_locked_list_takes_no_new_trooper(alice, bob):
    a, _b = locked(alice, bob)
    refused = a.add_trooper("Ninja", 30, row_id="abcdef012345")
    assert error_of(refused) == "Your army list is locked."
    assert draft_names(a.match) == ["Kaplan"]


def test_attack_a_locked_list_loses_no_trooper(alice, bob):
    a, _b = locked(alice, bob)
    [row] = Seat.objects.get(match=a.match, letter="A").draft
    refused = a.client.post(
        f"/m/{a.match.code}/draft/remove/", {"trooper_id": row["id"]}, HTTP_HX_REQUEST="true"
    )
    assert error_of(refused) == "Your army list is locked."
    assert draft_names(a.match) == ["Kaplan"]


def test_attack_a_locked_list_takes_no_pasted_list(alice, bob):
    a, _b = locked(alice, bob)
    refused = a.client.post(
        f"/m/{a.match.code}/draft/import/",
        {"text": "GROUP 1\nNINJA Rifle. (0 | 30)\n"},
        HTTP_HX_REQUEST="true",
    )
    assert error_of(refused) == "Your army list is locked."
    assert draft_names(a.match) == ["Kaplan"]


def test_attack_a_locked_lists_rows_keep_their_traits(alice, bob):
    a, _b = locked(alice, bob)
    [row] = Seat.objects.get(match=a.match, letter="A").draft
    refused = a.client.post(
        f"/m/{a.match.code}/draft/edit/",
        {
            "trooper_id": row["id"],
            "combat_group": "2",
            "silhouette": "5",
            "traits": ["hidden_deployment"],
        },
        HTTP_HX_REQUEST="true",
    )
    assert error_of(refused) == "Your army list is locked."
    assert Seat.objects.get(match=a.match, letter="A").draft == [row]


def test_a_row_edit_out_of_range_is_refused_with_why_and_changes_nothing(alice, bob):
    """The row's number inputs carry min and max, but a browser that does not
    check them (or a page with its own script off) sends what was typed: the
    answer must say what is wrong, not come back as if the edit were saved."""
    a, _b = seated(alice, bob)
    assert error_of(a.submit("draft/add", name="Kaplan", cost="20")) is None
    [row] = Seat.objects.get(match=a.match, letter="A").draft
    response = submit(
        a.client, a.page(), "/draft/edit/", within=f"#draft-{row['id']}", silhouette=9
    )
    assert error_of(response) == "Check the row: group 1 to 5, silhouette 1 to 8."
    assert Seat.objects.get(match=a.match, letter="A").draft == [row]
