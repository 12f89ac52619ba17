"""A tap's action id is app.js's: 8 to 64 of [A-Za-z0-9_-]. Anything else a
client sends in its place is no id at all: the action is decided as a tap
without one, and nothing of that text is stored in the match's log (whose
rows, action ids included, every export and audit carries)."""

import pytest

from tracker.models import MatchEvent

from .table import error_of, seated

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize(
    "action_id", ["short", "x" * 65, "tap with spaces", "<script>alert(1)</script>", "tap.0001"]
)
def test_attack_an_action_id_not_of_the_apps_form_is_not_stored(alice, bob, action_id):
    a, _b = seated(alice, bob)
    assert error_of(a.submit("draft/add", name="Kaplan", cost="20")) is None
    response = a.raw_post("LockArmyList", action_id=action_id)
    assert response.status_code == 200 and error_of(response) is None
    locked = MatchEvent.objects.get(match=a.match, kind="ArmyListLocked")
    assert locked.action_id == ""
    assert not MatchEvent.objects.filter(action_id=action_id).exists()


def test_an_action_id_of_the_apps_form_is_stored(alice, bob):
    a, _b = seated(alice, bob)
    assert error_of(a.submit("draft/add", name="Kaplan", cost="20")) is None
    assert error_of(a.raw_post("LockArmyList", action_id="tap_0001-abcdef")) is None
    assert MatchEvent.objects.get(match=a.match, kind="ArmyListLocked").action_id == (
        "tap_0001-abcdef"
    )
