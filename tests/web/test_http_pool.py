"""Issue 9: HTTP runs on a fixed pool of threads (tracker/http.py). A view's
announcement of a change is handed to the server's event loop, where the
sockets and the channel layer live; without such a loop (tests, management
commands) the caller sends it itself."""

from __future__ import annotations

import asyncio
import threading
import warnings

import pytest
from channels.layers import get_channel_layer

from tracker import actions, http


@pytest.fixture
def server_loop():
    """An event loop running in a thread of its own, as daphne's is."""
    loop = asyncio.new_event_loop()
    thread = threading.Thread(target=loop.run_forever, daemon=True)
    thread.start()
    before = http._server_loop
    http._server_loop = loop
    yield loop
    http._server_loop = before
    loop.call_soon_threadsafe(loop.stop)
    thread.join(timeout=5)
    loop.close()


def on(loop, coroutine, timeout=3):
    return asyncio.run_coroutine_threadsafe(coroutine, loop).result(timeout=timeout)


def test_a_views_announcement_reaches_the_sockets_through_the_servers_loop(server_loop):
    layer = get_channel_layer()
    channel = on(server_loop, layer.new_channel())
    on(server_loop, layer.group_add("match-4242", channel))
    actions.notify(4242, 7)  # from this thread, as a view on the pool does
    message = on(server_loop, layer.receive(channel))
    assert message == {"type": "match.changed", "seq": 7}


def test_without_a_running_server_loop_the_caller_sends_it_itself():
    assert http.server_loop() is None or not http.server_loop().is_running()

    async def never():  # pragma: no cover - closed, never run
        raise AssertionError

    with warnings.catch_warnings():
        warnings.simplefilter("error")  # "coroutine was never awaited" would fail here
        assert http.on_server_loop(never()) is False
