"""Each tap's push brings the other phone to that tap's seq, one tap after
another: a push for seq n renders from a read of the seats made at or after
n's commit (consumers.seat_rows_since), never from the read the previous
push kept, which would send the phone the seq it already shows and leave it
behind until its next pong."""

from __future__ import annotations

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
