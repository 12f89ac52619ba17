"""Each tap's push brings the other phone to that tap's seq, one tap after
another: a push for seq n renders from a read of the seats made at or after
n's commit (consumers.seat_rows_since), never from the read the previous
push kept, which would send the phone the seq it already shows and leave it
behind until its next pong."""

from __future__ import annotations

import asyncio

import pytest
from asgiref.sync import sync_to_async

from tracker.models import Match
from tracker.reading import load_state

from .flows import seal_both, set_up
from .leaks import frame_seq
from .table import error_of
from .test_live import socket_for

pytestmark = pytest.mark.django_db(transaction=True)


async def _frames_until(socket, seq: int) -> list[str]:
    frames = [await socket.receive_from(timeout=5)]
    while frame_seq(frames[-1]) < seq and len(frames) < 10:
        frames.append(await socket.receive_from(timeout=5))
    return frames


async def bobs_socket_once_sealed(alice, bob):
    """Both deployments sealed; Bob's socket open, its first frame read.
    Returns Alice's side of the table and Bob's socket."""
    a, b = await sync_to_async(set_up)(alice, bob)
    state = await sync_to_async(lambda: load_state(Match.objects.get()))()
    await sync_to_async(seal_both)(a, b, state)
    socket = socket_for(bob, a.match)
    assert (await socket.connect())[0]
    await socket.receive_from(timeout=5)  # the first frame
    return a, socket


async def test_two_taps_one_after_the_other_each_reach_the_opponents_socket(alice, bob):
    a, socket = await bobs_socket_once_sealed(alice, bob)

    newest = sync_to_async(lambda: Match.objects.get().seq)
    # Two taps of one event each (a sealed note): seqs n and n + 1.
    note = sync_to_async(a.submit)
    assert error_of(await note("SealNote", label="Objective", text="first")) is None
    first = await newest()
    assert frame_seq((await _frames_until(socket, first))[-1]) == first

    assert error_of(await note("SealNote", label="Objective", text="second")) is None
    second = await newest()
    assert second == first + 1
    frames = await _frames_until(socket, second)
    assert frame_seq(frames[-1]) == second
    await socket.disconnect()


async def _taken_by_another_match(pk: int) -> None:
    """The match row given another code. The tests' database is SQLite in
    memory with a shared cache, where a table read still open on the
    socket's thread (its first frame was just rendered) locks the table for
    a moment ("database table is locked"); a file database in WAL mode, as
    `make run` serves, lets a writer past readers. So the update is tried
    again for a few moments: the set-up, not the behaviour under test."""
    from django.db import OperationalError

    rename = sync_to_async(lambda: Match.objects.filter(pk=pk).update(code="another-match"))
    for _attempt in range(50):
        try:
            await rename()
            return
        except OperationalError as error:
            if "locked" not in str(error):
                raise
            await asyncio.sleep(0.02)
    await rename()


@pytest.mark.parametrize("asked_by", ["push", "resync", "clock"])
async def test_a_socket_never_renders_another_match_that_took_the_id(alice, bob, asked_by):
    """A match id now another match's (a flushed test database gives ids
    again): the render's read finds seat rows under the socket's match id
    but another code, and the socket closes as for a match that is gone
    (4404, which app.js does not retry). A push had rendered the other
    match; a resync had raised, closing with 1011 and a traceback, and so
    had the round clock's change (event_clock.CHANGED)."""
    from channels.layers import get_channel_layer

    from tracker import announce

    a, socket = await bobs_socket_once_sealed(alice, bob)
    match = await sync_to_async(Match.objects.get)(pk=a.match.pk)
    await _taken_by_another_match(match.pk)
    if asked_by == "push":
        await get_channel_layer().group_send(
            announce.group_of(match.pk), {"type": "match.changed", "seq": match.seq + 1}
        )
    elif asked_by == "clock":
        await get_channel_layer().group_send(announce.group_of(match.pk), {"type": "clock.changed"})
    else:
        await socket.send_to(text_data='{"resync": true}')
    assert await socket.receive_output(timeout=5) == {"type": "websocket.close", "code": 4404}
    await socket.disconnect()
