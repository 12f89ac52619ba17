"""Both players of a match may start from lists they handed to the event's
organizer (tracker/handed_lists.py). A handed row's id is derived per seat:
derived from the row's place alone, Alice's first trooper and Bob's would
share one id, and the second list to lock would clash with the first."""

from __future__ import annotations

import pytest

from tests.rules.test_army_text import TWO_GROUPS
from tests.web.organizer_table import fresh
from tests.web.rendered_forms import submit
from tests.web.table import claim, error_of
from tests.web.test_list_import_web import draft_of, page, paste, round_of
from tracker.models import TournamentEvent
from tracker.reading import load_state

pytestmark = pytest.mark.django_db


def test_two_handed_lists_lock_in_one_match_each_trooper_its_own(alice, bob, carol):
    event = TournamentEvent.objects.create(name="Spring Open")
    first = round_of(carol, event, 1, "1, Alice, Bob")[1]
    second = round_of(carol, event, 2, "1, Bob, Alice")[1]
    for client, letter, name in ((alice, "A", "Alice"), (bob, "B", "Bob")):
        claim(client, first, letter, name)
        assert error_of(paste(client, first, TWO_GROUPS)) is None
        assert error_of(submit(client, page(client, first), "/draft/hand/")) is None
    # Round 2 starts both seats with the handed lists.
    claim(bob, second, "A", "Bob")
    claim(alice, second, "B", "Alice")
    assert len(draft_of(second, "A")) == len(draft_of(second, "B")) == 8
    for client in (bob, alice):
        response = submit(client, page(client, second), "/act/LockArmyList/")
        assert error_of(response) is None, error_of(response)
    troopers = load_state(fresh(second)).troopers
    assert len(troopers) == 16
    assert {t.seat for t in troopers.values()} == {"A", "B"}
