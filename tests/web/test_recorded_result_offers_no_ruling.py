"""Once the organizer has recorded the result of a table that never reached
play (time called), its audit page offers no second ruling: the form
"Record the table's result" is gone, as it is for a confirmed result. It
stayed on the page after the ruling, as if the table still waited for one.
Through the pages' rendered forms only."""

from __future__ import annotations

import pytest

from tests.web.rendered_forms import FormNotOnPage, submit
from tests.web.test_table_without_result import audit_of, round_one_of_two_tables

pytestmark = pytest.mark.django_db


def test_a_recorded_result_is_not_offered_for_recording_again(carol):
    org, (first, _second) = round_one_of_two_tables(carol)
    assert org.submit("/clock/call/").status_code == 302
    response = submit(
        carol,
        audit_of(org, first),
        "/settle/",
        objective_a=2,
        objective_b=1,
        army_a=0,
        army_b=0,
        reason="No game: time called during set-up",
    )
    assert response.status_code == 302
    first.refresh_from_db()
    assert first.result["status"] == "settled"
    page = audit_of(org, first)
    assert "Record the table&#x27;s result" not in page
    with pytest.raises(FormNotOnPage):
        submit(carol, page, "/settle/")
