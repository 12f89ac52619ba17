"""A socket that pinged is closed once SOCKET_SILENCE_SECONDS pass with
nothing heard from its phone, not some multiple of it (tracker/heartbeat.py):
a stalled phone's socket does not linger holding its renders and its place
in the per-session count. Time is the heartbeat's own clock, moved by hand
(heartbeat.time.monotonic), so the deadline is exact whatever the machine's
speed: just before it the socket stays open, just past it it closes."""

from __future__ import annotations

import json
import time
from types import SimpleNamespace

import pytest
from asgiref.sync import sync_to_async

from tracker import heartbeat

from .table import seated
from .test_live import socket_for

pytestmark = pytest.mark.django_db(transaction=True)


async def test_the_socket_closes_just_past_the_silence_deadline(alice, bob, settings, monkeypatch):
    limit = settings.SOCKET_SILENCE_SECONDS = 0.2  # also how often the watch looks
    now = [1000.0]
    monkeypatch.setattr(
        heartbeat, "time", SimpleNamespace(monotonic=lambda: now[0], time=time.time)
    )
    a, _b = await sync_to_async(seated)(alice, bob)
    socket = socket_for(alice, a.match)
    assert (await socket.connect())[0]
    await socket.receive_from(timeout=3)  # the first frame
    await socket.send_to(text_data=json.dumps({"ping": 1}))
    assert json.loads(await socket.receive_from(timeout=3))["pong"] == 1

    now[0] += limit * 0.9  # nothing heard, not yet for long enough
    assert await socket.receive_nothing(timeout=4 * limit)
    now[0] += limit * 0.2  # past the deadline
    closed = await socket.receive_output(timeout=3)
    assert closed == {"type": "websocket.close", "code": heartbeat.SILENT}
    await socket.disconnect()
