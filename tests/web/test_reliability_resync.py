"""Resync: a phone that loses its socket while the other phone acts shows,
once it reconnects, exactly what a fresh page load shows; and what it queued
while offline is applied once, in order.

Bob's phone is modelled as a screen of blocks: every frame its socket gets
is swapped in by block id, as htmx's out-of-band swap does. Schedules are
drawn from a seeded generator, so a failure names a schedule that replays.
"""

from __future__ import annotations

import json
import random
from dataclasses import dataclass, field

import pytest
from asgiref.sync import sync_to_async

from tests.scale.servers import apply_frame, blocks_of, seq_of
from tracker.models import Match, MatchEvent
from tracker.reading import load_state
from tracker.rules.state import NORMAL, PRONE, STUNNED, UNCONSCIOUS

from .flows import seal_both, set_up
from .table import Phone, error_of, next_action_id
from .test_live import socket_for

pytestmark = pytest.mark.django_db(transaction=True)

SCHEDULES = 50
SEED = 5_2024
BLOCK_IDS = {"blk-header", "blk-controls", "blk-recent", "blk-seat_A", "blk-seat_B", "blk-log"}


@dataclass
class Screen:
    """What Bob's phone shows: the last HTML swapped into each block."""

    blocks: dict[str, str] = field(default_factory=dict)
    seq: int = 0

    def apply(self, frame: str) -> None:
        self.blocks = apply_frame(self.blocks, frame)
        self.seq = seq_of(frame)


def test_block_sections_are_found_in_a_page_and_a_frame():
    page = (
        '<div id="seq" data-seq="7"></div><section id="blk-header" class="a">'
        "<section>inner</section>  <p>x</p></section>"
        '<section id="other">no</section><section hx-swap-oob="true" id="blk-log"><p>y</p></section>'
    )
    assert blocks_of(page) == {
        "blk-header": '<section id="blk-header" class="a"><section>inner</section><p>x</p></section>',
        "blk-log": '<section id="blk-log"><p>y</p></section>',
    }
    assert seq_of(page) == 7


def _match() -> Match:
    return Match.objects.get()


def _seq() -> int:
    return _match().seq


def _fresh(client, match) -> tuple[int, dict[str, str]]:
    page = client.get(f"/m/{match.code}/").content.decode()
    return seq_of(page), blocks_of(page)


class Table:
    """The moves either player may make mid-game, chosen at random among the
    forms that player's page renders now; a move the rules refuse is fine (it
    appends nothing), a 500 is not (Phone.send raises on it)."""

    def __init__(self, a: Phone, b: Phone, rng: random.Random):
        self.a, self.b, self.rng = a, b, rng
        self.notes = 0

    def _command(self, page) -> str:
        roll = self.rng.random()
        if roll < 0.2:
            return "SealNote"
        if roll < 0.55:
            return "SetTrooperState"
        if roll < 0.65:
            return "UndoLastStep"
        if roll < 0.8:
            # TM-S2 after the first Order Count: the deciding phone passes.
            return "DeclineStrategicUse" if page.forms("DeclineStrategicUse") else "AdvancePhase"
        return "RevealSecret"

    def move(self, seat: Phone) -> None:
        rng = self.rng
        page = seat.phone  # this seat's page, as it is sent now
        forms = page.forms(self._command(page))
        if not forms:
            return
        form = rng.choice(forms)
        if form.command == "SealNote":
            self.notes += 1
            form.fill({"label": "Objective", "text": f"note {self.notes}"})
        elif form.command == "SetTrooperState":
            # Issue 18: the page's one State form, opened from a row (app.js).
            rows = page.soup.select("li.trooper:has(> button.name)")
            if not rows:
                return
            form.tap_row(rng.choice(rows)["id"].removeprefix("trooper-"))
            # (Not a disabled one: a row in Holoecho offers no Unconscious, HE-C4.)
            options = form.node.select('select[name="condition"] option:not([disabled])')
            offered = [o.get("value") for o in options]
            boxes = [b.get("value") for b in form.node.select('input[name="tokens"]')]
            tokens = [t for t in (PRONE, STUNNED) if t in boxes]
            form.fill(
                {
                    "condition": rng.choice(
                        [c for c in (NORMAL, NORMAL, UNCONSCIOUS) if c in offered]
                    ),
                    "tokens": rng.sample(tokens, rng.randint(0, len(tokens))),
                }
            )
        page.send(form, reload=False)

    def queued_note(self, seat: Phone, action_id: str):
        """A SealNote tapped on the page this seat showed, sent (again) with
        the action id app.js gave that tap: what its retry queue sends."""
        form = seat.phone.form("SealNote")
        form.fill({"label": "Q", "text": action_id})
        return seat.phone.send(form, action_id=action_id, reload=False)


async def _drain_to(socket, screen: Screen, target: int) -> None:
    """Swap in pushed frames until the screen shows seq `target`."""
    for _ in range(50):
        if screen.seq >= target:
            return
        screen.apply(await socket.receive_from(timeout=5))
    raise AssertionError(f"the socket never caught up with seq {target} (at {screen.seq})")


async def test_a_phone_that_loses_its_socket_shows_exactly_a_fresh_page_after_reconnecting(
    alice, bob
):
    a, b = await sync_to_async(set_up)(alice, bob)
    await sync_to_async(seal_both)(a, b, await sync_to_async(lambda: load_state(_match()))())
    match = await sync_to_async(_match)()
    rng = random.Random(SEED)
    table = Table(a, b, rng)
    socket = socket_for(bob, match)
    assert (await socket.connect())[0]
    screen = Screen()
    screen.apply(await socket.receive_from(timeout=5))
    queued_total = 0
    for schedule in range(SCHEDULES):
        where = f"schedule {schedule} (seed {SEED})"
        # Online: both act a little; Bob's screen follows the pushed diffs.
        for _ in range(rng.randint(0, 1)):
            await sync_to_async(table.move)(rng.choice([a, b]))
        await _drain_to(socket, screen, await sync_to_async(_seq)())
        seq, fresh = await sync_to_async(_fresh)(bob, match)
        assert (screen.seq, screen.blocks) == (seq, fresh), where

        # The socket drops. Alice plays on; some of what Bob tapped reached
        # the server before the drop (its answers lost), the rest is queued.
        await socket.disconnect()
        queue = [next_action_id() for _ in range(rng.randint(0, 2))]
        for action_id in queue[: rng.randint(0, len(queue))]:
            await sync_to_async(table.queued_note)(b, action_id)
        for _ in range(rng.randint(1, 4)):
            await sync_to_async(table.move)(a)

        # Reconnect: the first frame is the whole current view.
        socket = socket_for(bob, match)
        assert (await socket.connect())[0], where
        frame = await socket.receive_from(timeout=5)
        seq, fresh = await sync_to_async(_fresh)(bob, match)
        assert set(fresh) == BLOCK_IDS, where
        assert (seq_of(frame), blocks_of(frame)) == (seq, fresh), where
        screen = Screen()
        screen.apply(frame)

        # The ws extension replays the resyncs it queued; each is a full frame.
        for _ in range(rng.randint(0, 2)):
            await socket.send_to(text_data=json.dumps({"resync": True}))
            resent = await socket.receive_from(timeout=5)
            assert blocks_of(resent) == fresh, where
        # Bob's phone retries its queue in order, some taps twice.
        for action_id in queue:
            for _ in range(rng.choice([1, 1, 2])):
                response = await sync_to_async(table.queued_note)(b, action_id)
                assert response.status_code == 200, where
        queued_total += len(queue)
        await _drain_to(socket, screen, await sync_to_async(_seq)())
        seq, fresh = await sync_to_async(_fresh)(bob, match)
        assert (screen.seq, screen.blocks) == (seq, fresh), where

        if queue:
            seqs = await sync_to_async(
                lambda q=queue: [
                    list(MatchEvent.objects.filter(action_id=i).values_list("seq", flat=True))
                    for i in q
                ]
            )()
            assert all(len(found) == 1 for found in seqs), (where, queue, seqs)
            assert [found[0] for found in seqs] == sorted(found[0] for found in seqs), where
    await socket.disconnect()
    # The schedules did exercise the game, not just an idle match.
    assert queued_total >= SCHEDULES // 2
    assert await sync_to_async(_seq)() > 100


async def test_queued_socket_messages_apply_nothing_and_each_resync_is_a_full_frame(alice, bob):
    a, b = await sync_to_async(set_up)(alice, bob)
    # Deployments sealed: the match is being played, so Alice's page offers
    # the note she seals below as the sentinel.
    await sync_to_async(seal_both)(a, b, await sync_to_async(lambda: load_state(_match()))())
    match = await sync_to_async(_match)()
    before = match.seq
    socket = socket_for(bob, match)
    assert (await socket.connect())[0]
    first = await socket.receive_from(timeout=5)
    # What a phone replays after a reconnect, plus messages a forged client
    # might queue hoping the socket acts on them. (A frame that is not a JSON
    # object closes the socket: tests/web/test_bad_frames.py, and below.)
    queued = [
        {"resync": True},
        {"command": "LockArmyList", "action_id": "queued-0001"},
        {"resync": True},
        {"resync": True, "seat": "A"},
    ]
    for message in queued:
        await socket.send_to(text_data=message if isinstance(message, str) else json.dumps(message))
    frames = [await socket.receive_from(timeout=5) for _ in range(3)]
    assert all(blocks_of(frame) == blocks_of(first) for frame in frames)
    assert await sync_to_async(_seq)() == before
    # No fourth frame: instead of waiting some time for one, Alice acts and
    # her push (a new seq) must be the very next frame. The consumer handles
    # one message at a time, so a frame owed for the queue would come first.
    sentinel = await sync_to_async(
        lambda: a.submit("SealNote", label="Objective", text="sentinel")
    )()
    assert error_of(sentinel) is None
    after = await sync_to_async(_seq)()
    assert after > before
    nxt = await socket.receive_from(timeout=10)
    assert seq_of(nxt) == after, "a frame for the queued messages came before the push"
    # A frame that is not JSON closes the socket cleanly (4008, issue 22)
    # and applies nothing either.
    await socket.send_to(text_data="not json at all")
    closed = await socket.receive_output(timeout=5)
    assert closed["type"] == "websocket.close" and closed.get("code") == 4008, closed
    assert await sync_to_async(_seq)() == after
    await socket.disconnect()
