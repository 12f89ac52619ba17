"""A table whose round's time is called while it is still setting up is
settled by the organizer (its ruling ends the match): the audit page then
offers no second ruling, and the players' army list drafts are closed with
the match, though their lists were never locked."""

from __future__ import annotations

import pytest

from tests.web.rendered_forms import FormNotOnPage, submit
from tests.web.test_event_running import seat_phone
from tests.web.test_table_without_result import audit_of, round_one_of_two_tables
from tracker.models import Match, Seat

pytestmark = pytest.mark.django_db


def settled_in_setup(carol):
    org, (first, _second) = round_one_of_two_tables(carol)
    a = seat_phone(carol, first, "A")
    seat_phone(carol, first, "B")
    a.open()
    a.submit("draft/add", name="Kaplan", cost="20")
    assert a.error is None
    assert org.submit("/clock/call/").status_code == 302
    response = submit(
        carol,
        audit_of(org, first),
        "/settle/",
        objective_a=3,
        objective_b=0,
        army_a=0,
        army_b=0,
        reason="No game: time called during set-up",
    )
    assert response.status_code == 302
    first.refresh_from_db()
    assert first.status == Match.Status.FINISHED and first.result["status"] == "settled"
    return org, first, a


def test_a_settled_table_offers_no_second_ruling(carol):
    org, first, _a = settled_in_setup(carol)
    page = audit_of(org, first)
    with pytest.raises(FormNotOnPage):
        submit(carol, page, "/settle/")


def test_attack_a_draft_stays_closed_once_the_match_is_settled_in_setup(carol):
    _org, first, a = settled_in_setup(carol)
    a.open()
    assert not a.can("draft/add")
    token = a.app.cookies["csrftoken"]
    refused = a.app.post(
        f"/m/{first.code}/draft/add/",
        {
            "row_id": "abcdef012345",
            "name": "Ninja",
            "cost": "30",
            "combat_group": "1",
            "silhouette": "2",
        },
        headers={"X-CSRFToken": token, "HX-Request": "true"},
        expect_errors=True,
    )
    assert "Your army list is locked." in refused.text
    assert [row["name"] for row in Seat.objects.get(match=first, letter="A").draft] == ["Kaplan"]
