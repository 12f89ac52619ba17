"""Idempotency through the real views: a retried action (double tap, htmx
retry, a phone replaying what it sent before losing its connection) is
applied once, spends once, and keeps its place in the order."""

import pytest

from tracker.models import Match, MatchEvent
from tracker.reading import load_state
from tracker.rules.state import COMMAND_TOKENS_PER_GAME

from .table import error_of, seated

pytestmark = pytest.mark.django_db


def deployment(alice, bob):
    """Plain troopers, both lists locked, Alice plays and deploys first."""
    a, b = seated(alice, bob)
    lieutenant = ["lieutenant_candidate"]
    assert error_of(a.submit("draft/add", name="Kaplan", cost="20", traits=lieutenant)) is None
    assert error_of(a.submit("draft/add", name="Zhanshi", cost="10")) is None
    assert error_of(b.submit("draft/add", name="Fusilier", cost="10", traits=lieutenant)) is None
    assert error_of(a.submit("LockArmyList")) is None
    assert error_of(b.submit("LockArmyList")) is None
    assert error_of(a.submit("SetInitiative", first_turn="A", deploys_first="A")) is None
    ids = {t.name: t.id for t in load_state(Match.objects.get()).troopers.values()}
    return a, b, ids


def tapped(seat, command, **values):
    """The form `command` as the seat's page renders it now, filled: a tap a
    test may send several times (a double tap, an htmx retry)."""
    phone = seat.phone
    form = phone.form(command, **values)
    form.fill(values)
    return phone, form


def kinds_for(action_id):
    return list(
        MatchEvent.objects.filter(action_id=action_id)
        .order_by("seq")
        .values_list("kind", flat=True)
    )


def test_a_retried_reserve_spends_one_command_token(alice, bob):
    a, b, ids = deployment(alice, bob)
    before = Match.objects.get().seq
    phone, seal = tapped(a, "SealDeployment", lieutenant=ids["Kaplan"], reserve=ids["Zhanshi"])
    for _ in range(3):
        response = phone.send(seal, action_id="reserve-tap-0001", reload=False)
        assert response.status_code == 200 and error_of(response) is None
    state = load_state(Match.objects.get())
    assert state.seat("A").command_tokens == COMMAND_TOKENS_PER_GAME - 1  # TM-S1
    assert kinds_for("reserve-tap-0001") == [
        "SecretsSealed",
        "DeploymentSealed",
        "CommandTokenSpent",
    ]
    assert Match.objects.get().seq == before + 3
    assert f"{COMMAND_TOKENS_PER_GAME - 1} Command Tokens" in b.page()
    # A new tap (a new id) on the page as it was is a new action, and the
    # rules refuse it: nothing more is spent.
    response = phone.send(seal, action_id="reserve-tap-0002", reload=False)
    assert "already sealed" in error_of(response)
    assert load_state(Match.objects.get()).seat("A").command_tokens == COMMAND_TOKENS_PER_GAME - 1


def test_a_replayed_offline_queue_applies_each_action_once_and_in_order(alice, bob):
    a, _b, _ids = deployment(alice, bob)
    queue = [f"queued-note-{n:04d}" for n in range(6)]
    # The first two reached the server before the phone lost its connection
    # (their answers were lost); on reconnecting it replays the whole queue,
    # some entries twice.
    for action_id in queue[:2]:
        a.raw_post("SealNote", action_id=action_id, label="Objective", text=action_id)
    replay = [queue[0], queue[1], queue[1], queue[2], queue[3], queue[2], queue[4], queue[5]]
    replay.append(queue[5])
    for action_id in replay:
        response = a.raw_post("SealNote", action_id=action_id, label="Objective", text=action_id)
        assert response.status_code == 200 and error_of(response) is None
    rows = list(MatchEvent.objects.filter(action_id__in=queue).order_by("seq"))
    assert [row.action_id for row in rows] == queue
    assert [row.seq for row in rows] == list(range(rows[0].seq, rows[0].seq + len(queue)))
    notes = [s for s in load_state(Match.objects.get()).secrets.values() if s.kind == "note"]
    assert sorted((s.sealed_seq, s.payload["text"]) for s in notes) == [
        (row.seq, row.action_id) for row in rows
    ]


def test_a_replayed_action_id_carrying_changed_fields_is_still_the_first_action(alice, bob):
    a, _b, _ids = deployment(alice, bob)
    a.raw_post("SealNote", action_id="edited-retry-01", label="Objective", text="first words")
    response = a.raw_post("SealNote", action_id="edited-retry-01", label="Objective", text="second")
    assert response.status_code == 200 and error_of(response) is None
    notes = [s for s in load_state(Match.objects.get()).secrets.values() if s.kind == "note"]
    assert [s.payload["text"] for s in notes] == ["first words"]


def test_a_retry_after_a_refusal_is_decided_again(alice, bob):
    # A refusal writes nothing, so it does not burn the action id: the same
    # tap, once the rule allows it, is applied.
    a, _b = seated(alice, bob)  # a 300-point match
    for name in ("Kaplan", "Zhanshi"):
        assert error_of(a.submit("draft/add", name=name, cost="160")) is None
    phone, lock = tapped(a, "LockArmyList")
    assert "over the 300 points limit" in error_of(
        phone.send(lock, action_id="lock-retry-0001", reload=False)
    )
    [remove, _other] = phone.forms("draft/remove")  # the player drops a trooper
    assert error_of(phone.send(remove)) is None
    # The same tap on the Lock form of the list now shown (the form of the
    # list before carries that list's fingerprint, and is refused as stale).
    [lock] = phone.forms("LockArmyList")
    assert error_of(phone.send(lock, action_id="lock-retry-0001", reload=False)) is None
    assert kinds_for("lock-retry-0001")


def test_a_double_tapped_tactical_use_spends_one_command_token(alice, bob):
    a, b, ids = deployment(alice, bob)
    assert error_of(a.submit("SealDeployment", lieutenant=ids["Kaplan"])) is None
    assert error_of(b.submit("SealDeployment", lieutenant=ids["Fusilier"])) is None
    phone, guts = tapped(a, "ForceGutsRoll", trooper_id=ids["Zhanshi"], passed="1")
    for _ in range(3):  # TM-T2 in Alice's first Player Turn, tapped three times
        response = phone.send(guts, action_id="guts-tap-00001", reload=False)
        assert response.status_code == 200 and error_of(response) is None
    assert kinds_for("guts-tap-00001") == ["CommandTokenSpent", "GutsRollForced"]
    state = load_state(Match.objects.get())
    assert state.seat("A").command_tokens == COMMAND_TOKENS_PER_GAME - 1
