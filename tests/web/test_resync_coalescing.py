"""A socket answers at most RESYNC_BURST resyncs per RESYNC_WINDOW_SECONDS
at once; the others are coalesced into one render when the window allows
(consumers.MatchConsumer._resync). A phone that asks again after that
coalesced answer is answered again: a coalesced render makes room for the
next one, so a phone that wakes twice is never left without its frame.

The socket's clock (consumers.time.monotonic) stands still here, so every
resync of the test falls within one window whatever the machine's speed;
the window itself is short, the real wait of a coalesced answer."""

from __future__ import annotations

import time
from types import SimpleNamespace

import pytest
from asgiref.sync import sync_to_async

from tests.web.test_render_once import seated, socket_of
from tracker import consumers

pytestmark = pytest.mark.django_db(transaction=True)


async def test_a_phone_asking_again_after_a_coalesced_answer_is_answered_again(
    settings, monkeypatch
):
    settings.RESYNC_BURST = 1
    settings.RESYNC_WINDOW_SECONDS = 0.05
    monkeypatch.setattr(
        consumers, "time", SimpleNamespace(monotonic=lambda: 1000.0, sleep=time.sleep)
    )
    alice, _bob, _watchers = await sync_to_async(seated)()
    socket = socket_of(alice)
    assert (await socket.connect())[0]
    await socket.receive_from(timeout=3)  # the first frame

    for _ in range(3):
        await socket.send_to(text_data='{"resync": true}')
    # One answered at once, the two others in one render.
    for _ in range(2):
        assert 'id="seq"' in await socket.receive_from(timeout=3)
    assert await socket.receive_nothing(timeout=0.3)

    # The phone asks again, still within the window: coalesced again, and answered.
    for _ in range(3):
        await socket.send_to(text_data='{"resync": true}')
    assert 'id="seq"' in await socket.receive_from(timeout=3)
    assert await socket.receive_nothing(timeout=0.3)
    await socket.disconnect()
