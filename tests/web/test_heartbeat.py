"""The server side of the socket heartbeat (issue 17, tracker/heartbeat.py):
a ping is answered at once with the server's clock; a socket that pinged and
then fell silent is closed after SOCKET_SILENCE_SECONDS (set short here); a
socket that never pinged (a page from before the heartbeat) is left open."""

import json
import time

import pytest
from asgiref.sync import sync_to_async

from tracker.heartbeat import SILENT

from .table import seated
from .test_live import socket_for

pytestmark = pytest.mark.django_db(transaction=True)


async def opened(alice, bob):
    a, _b = await sync_to_async(seated)(alice, bob)
    socket = socket_for(alice, a.match)
    connected, _ = await socket.connect()
    assert connected
    first = await socket.receive_from(timeout=3)
    assert 'id="blk-seat_A"' in first
    return socket


async def test_a_ping_is_answered_with_the_server_clock(alice, bob):
    socket = await opened(alice, bob)
    before = time.time() * 1000
    await socket.send_to(text_data=json.dumps({"ping": 1234.5}))
    pong = json.loads(await socket.receive_from(timeout=3))
    after = time.time() * 1000
    assert pong["pong"] == 1234.5
    assert before - 1 <= pong["t"] <= after + 1
    # Only a number is echoed: the phone times its round trip with it.
    await socket.send_to(text_data=json.dumps({"ping": "<script>"}))
    assert json.loads(await socket.receive_from(timeout=3))["pong"] is None
    await socket.disconnect()


async def test_a_socket_that_falls_silent_is_closed_after_the_deadline(alice, bob, settings):
    settings.SOCKET_SILENCE_SECONDS = 0.4
    socket = await opened(alice, bob)
    # While the phone keeps pinging, the socket stays open past the deadline.
    for n in range(8):
        await socket.send_to(text_data=json.dumps({"ping": n}))
        last_heard = time.monotonic()
        assert json.loads(await socket.receive_from(timeout=3))["pong"] == n
        await socket.receive_nothing(timeout=0.1)
    # Then the phone goes quiet (a stalled Wi-Fi): closed, with our code.
    closed = await socket.receive_output(timeout=3)
    assert closed == {"type": "websocket.close", "code": SILENT}
    assert 0.35 <= time.monotonic() - last_heard < 2
    await socket.disconnect()


async def test_a_socket_that_never_pinged_is_left_open(alice, bob, settings):
    settings.SOCKET_SILENCE_SECONDS = 0.2
    socket = await opened(alice, bob)
    assert await socket.receive_nothing(timeout=1)
    # And still served: a resync is answered.
    await socket.send_to(text_data=json.dumps({"resync": True}))
    assert 'id="seq"' in await socket.receive_from(timeout=3)
    await socket.disconnect()
