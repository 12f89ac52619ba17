"""Every frame no phone of ours sends closes the socket with a code of our
own and leaves no traceback (issue 22): nested JSON, text that is not a JSON
object, an empty frame, binary, and a frame past MAX_MESSAGE.

Twice: through channels' WebsocketCommunicator (the consumer alone), and
against `manage.py serve` (what `make run` starts) with the `websockets`
client, because the communicator does not go through daphne's autobahn,
which is what turned a close(1008) into a 1011 and a traceback."""

from __future__ import annotations

import re

import pytest
from asgiref.sync import sync_to_async
from channels.testing import WebsocketCommunicator

from tests.scale.servers import Browser, LiveServer, manage, server_env
from tracker.asgi import application
from tracker.consumers import BAD_FRAME, MAX_MESSAGE, TOO_BIG

from .table import seated

NESTED = "[" * 1000 + "]" * 1000
BAD_FRAMES = [
    pytest.param(NESTED, BAD_FRAME, id="nested-list"),
    pytest.param("resync please", BAD_FRAME, id="not-json"),
    pytest.param("[1, 2]", BAD_FRAME, id="json-not-an-object"),
    pytest.param(b"\x00\x01binary", BAD_FRAME, id="binary"),
    pytest.param('{"resync": true, "x": "' + "x" * MAX_MESSAGE + '"}', TOO_BIG, id="too-big"),
]


def test_the_nested_example_fits_under_the_size_cap():
    # Otherwise it would test the size cap, not the nesting.
    assert len(NESTED) <= MAX_MESSAGE


def _socket(client, code):
    headers = [(b"host", b"localhost"), (b"origin", b"http://localhost")]
    headers.append((b"cookie", f"sessionid={client.cookies['sessionid'].value}".encode()))
    return WebsocketCommunicator(application, f"/ws/m/{code}/", headers=headers)


@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize(("frame", "code"), BAD_FRAMES)
async def test_a_bad_frame_closes_the_consumer_with_its_code(frame, code, alice, bob, caplog):
    a, _b = await sync_to_async(seated)(alice, bob)
    socket = _socket(alice, a.match.code)
    assert (await socket.connect())[0]
    await socket.receive_from(timeout=5)
    # A real resync is still answered: the socket was working.
    await socket.send_to(text_data='{"resync": true}')
    assert "You: Alice" in await socket.receive_from(timeout=5)
    if isinstance(frame, bytes):
        await socket.send_to(bytes_data=frame)
    else:
        await socket.send_to(text_data=frame)
    closed = await socket.receive_output(timeout=5)
    assert closed == {"type": "websocket.close", "code": code}
    assert not [r for r in caplog.records if r.levelname in ("ERROR", "CRITICAL")]
    await socket.disconnect()  # the consumer ends before the database is flushed


@pytest.mark.django_db(transaction=True)
async def test_a_json_object_without_resync_is_ignored_and_the_socket_lives(alice, bob):
    a, _b = await sync_to_async(seated)(alice, bob)
    socket = _socket(alice, a.match.code)
    assert (await socket.connect())[0]
    await socket.receive_from(timeout=5)
    await socket.send_to(text_data='{"seat": "B"}')
    assert await socket.receive_nothing(timeout=0.5)
    await socket.send_to(text_data='{"resync": true}')
    assert "You: Alice" in await socket.receive_from(timeout=5)
    await socket.disconnect()


# ------------------------------------------------- against the real server


@pytest.fixture(scope="module")
def live(tmp_path_factory):
    tmp = tmp_path_factory.mktemp("frames")
    env = server_env(tmp)
    manage(env, "migrate", "--noinput", "-v0")
    server = LiveServer(env=env, log=tmp / "server.log", make_run=True).start()
    yield server
    server.stop()


def _new_match(live) -> str:
    host = Browser(live.url)
    reply = host.post("/new/", {"name": "Frames", "points_limit": 300, "rounds": 3}, htmx=False)
    assert reply.status == 302, reply.body[:500]
    found = re.search(r"/m/([^/]+)/host/", reply.headers["Location"])
    assert found, reply.headers["Location"]
    return found.group(1)


LIVE_FRAMES = [*BAD_FRAMES, pytest.param("", BAD_FRAME, id="empty")]


@pytest.mark.parametrize(("frame", "code"), LIVE_FRAMES)
def test_a_bad_frame_closes_cleanly_on_the_real_server(live, frame, code):
    """Fails on the main of issue 22: nested JSON closed with 1011 and
    "invalid close code 1008" in the server's log."""
    from websockets.exceptions import ConnectionClosed
    from websockets.sync.client import connect

    match = _new_match(live)
    before = live.log_text()
    with connect(f"{live.ws_url}/ws/m/{match}/", origin=live.url, open_timeout=10) as ws:
        assert "blk-header" in ws.recv(timeout=10)
        ws.send('{"resync": true}')
        assert "blk-header" in ws.recv(timeout=10)
        ws.send(frame)
        with pytest.raises(ConnectionClosed) as closed:
            ws.recv(timeout=10)
    assert closed.value.rcvd is not None, "the server dropped the connection without a close frame"
    assert closed.value.rcvd.code == code
    new_log = live.log_text()[len(before) :]
    assert "Traceback" not in new_log and "invalid close code" not in new_log, new_log[-2000:]
