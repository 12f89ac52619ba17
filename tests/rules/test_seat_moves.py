"""Who moved a seat, in the log (issue 22): its player with the PIN, or the
host or an organizer handing it to a new phone. No Django here."""

from __future__ import annotations

import pytest

from tracker import rules
from tracker.rules.events import event_from_data
from tracker.rules.setup import (
    BY_HOST,
    BY_ORGANIZER,
    ClaimSeat,
    MatchCreated,
    MoveSeat,
    SeatMoved,
)
from tracker.rules.state import MatchState


def claimed() -> MatchState:
    state = rules.evolve_all(MatchState(), [MatchCreated(name="Friday")])
    events = rules.decide(state, "A", ClaimSeat(name="Alice"))
    return rules.evolve_all(state, events)


@pytest.mark.parametrize(
    ("command", "line", "params"),
    [
        (MoveSeat(), "%(name)s moved their seat to another phone.", {}),
        (
            MoveSeat(by=BY_HOST),
            "The host gave seat %(seat)s (%(name)s) to a new phone.",
            {},
        ),
        (
            MoveSeat(by=BY_ORGANIZER, by_name="carol"),
            "The organizer %(by_name)s gave seat %(seat)s (%(name)s) to a new phone.",
            {"by_name": "carol"},
        ),
    ],
)
def test_the_log_line_names_who_moved_the_seat(command, line, params):
    [event] = rules.decide(claimed(), "A", command)
    message, shown = event.describe()
    assert message == line
    assert (message % shown).count("Alice") == 1
    assert {k: shown[k] for k in params} == params
    # Read back from its data (as the database stores it), it is the same event.
    assert event_from_data(event.kind, event.to_data()) == event


def test_a_players_move_stores_exactly_the_data_it_stored_before_issue_22():
    [event] = rules.decide(claimed(), "A", MoveSeat())
    assert event.to_data() == {"seat": "A", "name": "Alice", "private_to": None, "rule": None}


def test_an_old_seat_moved_event_reads_as_the_players_move():
    old = event_from_data("SeatMoved", {"seat": "A", "name": "Alice", "private_to": None})
    assert old == SeatMoved(seat="A", name="Alice")
    assert old.describe()[0] == "%(name)s moved their seat to another phone."


def test_an_unknown_mover_is_refused_and_the_host_carries_no_name():
    with pytest.raises(rules.InvalidInput):
        rules.decide(claimed(), "A", MoveSeat(by="opponent"))
    [event] = rules.decide(claimed(), "A", MoveSeat(by=BY_HOST, by_name="bob"))
    assert event.by_name == ""
