"""The one write path: numbered, chained, idempotent, append-only events."""

import json

import pytest

from tracker import reading, rules
from tracker.models import GENESIS_HASH, Match, MatchEvent
from tracker.reading import load_state

from .flows import seal_both, set_up
from .table import error_of, seated

pytestmark = pytest.mark.django_db


def test_the_same_action_id_twice_appends_once(alice, bob):
    a, b = seated(alice, bob)
    assert error_of(a.submit("draft/add", name="Hassassin Ayyar", cost="40")) is None
    assert error_of(b.submit("draft/add", name="Fusilier", cost="10")) is None
    assert error_of(a.submit("LockArmyList")) is None
    assert error_of(b.submit("LockArmyList")) is None
    before = Match.objects.get().seq
    # One tap sent three times (a flaky network retrying it): the form as the
    # page rendered it, the same per-tap action id each time.
    phone = a.phone
    values = {"first_turn": "A", "deploys_first": "B"}
    tapped = phone.form("SetInitiative", **values)
    tapped.fill(values)
    for _ in range(3):
        response = phone.send(tapped, action_id="double-tap-0001", reload=False)
        assert response.status_code == 200 and error_of(response) is None
    assert Match.objects.get().seq == before + 1


def test_a_double_tapped_trooper_is_added_once(alice, bob):
    a, _b = seated(alice, bob)
    phone = a.phone
    values = {"name": "Hassassin Ayyar", "cost": "40"}
    tapped = phone.form("draft/add", **values)  # its hidden row_id names the row
    tapped.fill(values)
    for _ in range(2):
        assert error_of(phone.send(tapped, reload=False)) is None
    assert len(a.match.seats.get(letter="A").draft) == 1


def test_seq_is_gapless_and_the_hash_chain_links_every_event(alice, bob):
    a, b = set_up(alice, bob)
    seal_both(a, b, load_state(Match.objects.get()))
    rows = list(MatchEvent.objects.order_by("seq"))
    assert [row.seq for row in rows] == list(range(1, len(rows) + 1))
    previous = GENESIS_HASH
    for row in rows:
        assert row.hash == row.chain_hash(previous)
        previous = row.hash
    assert Match.objects.get().last_hash == previous


def test_replaying_the_stored_log_equals_the_live_state(alice, bob):
    a, b = set_up(alice, bob)
    seal_both(a, b, load_state(Match.objects.get()))
    live = load_state(Match.objects.get())
    events = [
        rules.event_from_data(row.kind, json.loads(row.data))
        for row in MatchEvent.objects.order_by("seq")
    ]
    reading.forget()
    assert rules.replay(events) == live == load_state(Match.objects.get())


def test_events_cannot_be_edited_or_deleted_through_the_orm(alice, bob):
    seated(alice, bob)
    event = MatchEvent.objects.first()
    event.data = "{}"
    with pytest.raises(PermissionError):
        event.save()
    with pytest.raises(PermissionError):
        event.delete()
    with pytest.raises(PermissionError):
        MatchEvent.objects.filter(pk=event.pk).update(data="{}")
    with pytest.raises(PermissionError):
        MatchEvent.objects.all().delete()


def test_a_rule_refusal_is_shown_in_the_page_and_appends_nothing(alice, bob):
    a, _b = seated(alice, bob)  # a 300-point match
    for name in ("Hassassin Ayyar", "Kaplan"):
        assert error_of(a.submit("draft/add", name=name, cost="160")) is None
    before = Match.objects.get().seq
    response = a.submit("LockArmyList")  # the page offers the lock; the rules refuse it
    assert response.status_code == 200
    assert error_of(response) == "Your list costs 320 points, over the 300 points limit."
    assert Match.objects.get().seq == before


@pytest.mark.parametrize(
    "command,data",
    [
        ("NoSuchCommand", {}),
        ("ClaimSeat", {"name": "x"}),
        ("MoveSeat", {}),
        ("SetTrooperState", {"trooper_id": "x" * 5000, "condition": "dead"}),
        ("SetTrooperState", {}),
        ("AdvancePhase", {"expected": "\x00"}),
        ("RevealSecret", {"secret_id": "../../etc"}),
        ("SetInitiative", {"first_turn": "C", "deploys_first": "A"}),
    ],
)
def test_bad_input_forged_by_hand_gets_a_message_never_a_500(alice, bob, command, data):
    a, _b = seated(alice, bob)
    before = Match.objects.get().seq
    response = a.raw_post(command, **data)
    assert response.status_code == 200
    assert error_of(response)
    assert Match.objects.get().seq == before


def test_a_state_behind_the_log_catches_up_to_what_a_fresh_read_gives(alice, bob):
    """On two processes each renders events the other wrote: its cached state
    is behind and reads the events after its seq (reading._EVENTS_AFTER,
    compiled once). Caught up from every seq of a played match, the state,
    the event times and the newest events equal a read from the first event."""
    a, b = set_up(alice, bob)
    seal_both(a, b, load_state(Match.objects.get()))
    match = Match.objects.get()
    reading.forget()
    fresh = reading.load_all(match)
    for seq in range(0, match.seq, 3):
        behind = reading.Loaded(rules.MatchState(), {}, ())
        reading.forget()
        behind = reading._extend(match.pk, behind, seq)  # where the other process was
        assert behind.state.seq == seq
        reading._cache[match.pk] = behind
        caught_up = reading.load_all(match)
        assert caught_up.state == fresh.state
        assert caught_up.times == fresh.times
        assert caught_up.recent == fresh.recent
        assert dict(caught_up.lines) == dict(fresh.lines)
