"""Issue 9: HTTP runs on a fixed pool of threads (tracker/http.py). A view's
announcement of a change is handed to the server's event loop (recorded in
tracker/announce.py), where the
sockets and the channel layer live; without such a loop (tests, management
commands) the caller sends it itself."""

from __future__ import annotations

import asyncio
import threading
import warnings

import pytest
from channels.layers import get_channel_layer

from tests.support import in_own_loop
from tracker import actions, announce, http


@pytest.fixture
def server_loop():
    """An event loop running in a thread of its own, as daphne's is."""
    loop = asyncio.new_event_loop()
    thread = threading.Thread(target=loop.run_forever, daemon=True)
    thread.start()
    before = announce._server_loop
    announce._server_loop = loop
    yield loop
    announce._server_loop = before
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
    assert announce.server_loop() is None or not announce.server_loop().is_running()

    async def never():  # pragma: no cover - closed, never run
        raise AssertionError

    with warnings.catch_warnings():
        warnings.simplefilter("error")  # "coroutine was never awaited" would fail here
        assert announce.on_server_loop(never()) is False


def test_a_slow_body_holds_no_thread_until_it_has_arrived():
    """A phone on a poor link (or a client trickling bytes on purpose) holds
    a coroutine while its body arrives, not one of the HTTP threads: Django
    is handed the request only once the whole body is in."""
    in_own_loop(_slow_body)


async def _slow_body():
    from channels.testing import ApplicationCommunicator

    received = []

    async def django_on_a_thread(scope, body, send):
        received.append(body)
        await send({"type": "http.response.start", "status": 200, "headers": []})
        await send({"type": "http.response.body", "body": b"ok"})

    app = http.ThreadPoolHTTP()
    app.app = django_on_a_thread
    scope = {"type": "http", "method": "POST", "path": "/m/x/act/SealNote/", "headers": []}
    client = ApplicationCommunicator(app, scope)
    await client.send_input({"type": "http.request", "body": b"label=a&", "more_body": True})
    await asyncio.sleep(0.2)
    assert received == [] and app.admission.running == 0
    await client.send_input({"type": "http.request", "body": b"text=b", "more_body": False})
    assert (await client.receive_output(timeout=3))["status"] == 200
    assert received == [b"label=a&text=b"]
    await client.wait(timeout=3)


def test_a_client_gone_before_its_body_arrived_costs_nothing():
    in_own_loop(_client_gone)


async def _client_gone():
    called = []

    async def django_on_a_thread(scope, body, send):  # pragma: no cover
        called.append(scope)

    from channels.testing import ApplicationCommunicator

    app = http.ThreadPoolHTTP()
    app.app = django_on_a_thread
    scope = {"type": "http", "method": "POST", "path": "/", "headers": []}
    client = ApplicationCommunicator(app, scope)
    await client.send_input({"type": "http.request", "body": b"a=1", "more_body": True})
    await client.send_input({"type": "http.disconnect"})
    await client.wait(timeout=3)
    assert called == []
