"""A seq announced while a socket's push is rendering an older one is
pushed too, once that push is sent (consumers.MatchConsumer._push_newest):
the phone is not left on the older seq until its next pong."""

from __future__ import annotations

import pytest
from asgiref.sync import sync_to_async

from tracker.consumers import MatchConsumer
from tracker.models import Match

from .leaks import frame_seq
from .table import error_of
from .test_each_push_reaches_its_seq import bobs_socket_once_sealed

pytestmark = pytest.mark.django_db(transaction=True)


async def test_a_tap_committed_during_a_push_reaches_the_socket_after_it(alice, bob, monkeypatch):
    a, socket = await bobs_socket_once_sealed(alice, bob)

    render = MatchConsumer._render_push
    rendered = []

    def tap_while_rendering(self):
        found = render(self)  # this push's render, of the seq it was told of
        if not rendered:
            # Alice taps again before the frame is sent: a newer seq is
            # announced to this socket while its push is under way.
            rendered.append(found)
            assert error_of(a.submit("SealNote", label="Objective", text="second")) is None
        return found

    monkeypatch.setattr(MatchConsumer, "_render_push", tap_while_rendering)
    assert (
        error_of(await sync_to_async(a.submit)("SealNote", label="Objective", text="first")) is None
    )
    frames = [await socket.receive_from(timeout=5)]
    # By the time the first push's frame arrives, the second tap has committed.
    newest = await sync_to_async(lambda: Match.objects.get().seq)()
    while frame_seq(frames[-1]) < newest and len(frames) < 5:
        frames.append(await socket.receive_from(timeout=5))
    assert rendered and frame_seq(frames[0]) < newest  # the first push was the older seq
    assert frame_seq(frames[-1]) == newest
    await socket.disconnect()
