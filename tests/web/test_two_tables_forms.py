"""Each table's forms post to that table. The page's State form and the
"Undo my last change" form are memoized per process (tracker_tags'
state_form and undo_html) and carry the match's code in their URL: a memo
shared between two tables would send a tap at one table to the other."""

import pytest

from tracker.models import Match
from tracker.reading import load_state

from .phone_flows import ok, started, trooper_ids

pytestmark = pytest.mark.django_db


def kaplan_tokens(code: str) -> set[str]:
    state = load_state(Match.objects.get(code=code))
    [kaplan] = [t for t in state.troopers.values() if t.name == "Kaplan"]
    return set(kaplan.tokens)


def isolate_kaplan(phone) -> None:
    ids = trooper_ids(phone.code)
    ok(
        phone,
        phone.submit(
            "SetTrooperState", trooper_id=ids["Kaplan"], condition="normal", tokens=["isolated"]
        ),
    )


def test_a_state_tap_and_its_undo_at_the_second_table_change_that_table_only():
    first, _b1, _ids1 = started()
    second, _b2, _ids2 = started()
    # Both pages rendered (and their forms memoized) before either tap.
    first.open()
    second.open()
    isolate_kaplan(first)
    isolate_kaplan(second)
    assert kaplan_tokens(first.code) == {"isolated"}
    assert kaplan_tokens(second.code) == {"isolated"}
    ok(second, second.submit("UndoLastStep"))
    assert kaplan_tokens(second.code) == set()
    assert kaplan_tokens(first.code) == {"isolated"}
