"""An organizer's ruling out of the form's bounds (a forged post: the page's
number fields stop at 10 objective points) is refused with 400 and the
form's reason, and settles nothing."""

import pytest
from bs4 import BeautifulSoup

from tests.web.rendered_forms import submit
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


def test_the_ruling_s_army_boxes_stop_at_the_match_s_points_limit(carol):
    """The boxes allowed 1000 army points alive and the rules then refused
    301 after the send: the boxes stop at the match's points limit, and a
    forged 301 is refused in the rules' words, the ruling typed kept."""
    org, (first, _second) = round_one_of_two_tables(carol)  # 300 points
    assert org.submit("/clock/call/").status_code == 302
    page = BeautifulSoup(audit_of(org, first), "lxml")
    form = page.find("form", action=lambda a: a and a.endswith("/settle/"))
    assert [form.find("input", attrs={"name": n})["max"] for n in ("army_a", "army_b")] == [
        "300",
        "300",
    ]
    # 301 typed past the box (a browser would stop it), sent from that form.
    response = submit(
        carol,
        str(page),
        "/settle/",
        objective_a=3,
        objective_b=0,
        army_a=301,
        army_b=0,
        reason="Mesa 1",
    )
    assert response.status_code == 400
    text = response.content.decode()
    assert "Army points alive must be between 0 and 300." in text
    assert 'value="Mesa 1"' in text
    first.refresh_from_db()
    assert not first.result
