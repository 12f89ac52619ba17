"""An organizer's ruling out of the form's bounds (a forged post: the page's
number fields stop at 10 objective points) is refused with 400 and the
form's reason, and settles nothing."""

import pytest

from tests.web.test_table_without_result import audit_of, round_one_of_two_tables
from tracker.models import Match

pytestmark = pytest.mark.django_db


def test_attack_a_ruling_past_ten_objective_points_is_refused(carol):
    org, (first, _second) = round_one_of_two_tables(carol)
    assert org.submit("/clock/call/").status_code == 302
    assert "/settle/" in audit_of(org, first)
    response = carol.post(
        f"/organizer/matches/{first.code}/settle/",
        {"objective_a": 11, "objective_b": 0, "army_a": 0, "army_b": 0, "reason": "Forged"},
    )
    assert response.status_code == 400
    assert "Ensure this value is less than or equal to 10." in response.content.decode()
    first.refresh_from_db()
    assert first.status != Match.Status.FINISHED and not first.result
