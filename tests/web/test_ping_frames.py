"""What counts as a ping (tracker/heartbeat.py): a short frame only. A long
frame that merely contains "ping" is no ping: it is read by the consumer's
own checks (past MAX_MESSAGE it closes the socket with TOO_BIG, never parsed
on the event loop), and a ping's echo is a number, never true or false."""

import json

import pytest

from tracker.consumers import MAX_MESSAGE, TOO_BIG

from .test_heartbeat import opened

pytestmark = pytest.mark.django_db(transaction=True)


async def test_attack_a_huge_frame_saying_ping_is_closed_as_too_big_not_answered(alice, bob):
    socket = await opened(alice, bob)
    frame = json.dumps({"ping": 1, "pad": "x" * (MAX_MESSAGE + 100)})
    await socket.send_to(text_data=frame)
    answer = await socket.receive_output(timeout=3)
    assert answer == {"type": "websocket.close", "code": TOO_BIG}
    # The phone's side of the close: the consumer ends (its seq polling
    # too) before the test's database is flushed.
    await socket.disconnect()


async def test_a_ping_padded_past_its_size_is_ignored_and_the_socket_lives(alice, bob):
    socket = await opened(alice, bob)
    await socket.send_to(text_data=json.dumps({"ping": 1, "pad": "x" * 200}))
    assert await socket.receive_nothing(timeout=0.5)
    await socket.send_to(text_data=json.dumps({"ping": 2}))
    assert json.loads(await socket.receive_from(timeout=3))["pong"] == 2
    await socket.disconnect()


async def test_a_ping_of_true_is_echoed_as_no_number(alice, bob):
    socket = await opened(alice, bob)
    await socket.send_to(text_data=json.dumps({"ping": True}))
    assert json.loads(await socket.receive_from(timeout=3))["pong"] is None
    await socket.disconnect()


async def test_a_frame_that_only_mentions_ping_is_no_ping_and_the_socket_lives(alice, bob):
    socket = await opened(alice, bob)
    await socket.send_to(text_data=json.dumps({"note": "ping"}))
    assert await socket.receive_nothing(timeout=0.5)
    await socket.send_to(text_data=json.dumps({"ping": 3}))
    assert json.loads(await socket.receive_from(timeout=3))["pong"] == 3
    await socket.disconnect()
