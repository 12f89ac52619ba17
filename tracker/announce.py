"""Announcing "seq n exists" to a match's sockets, and the loop that sends it.

The write path (actions.py) announces a seq after its commit; the HTTP
server (http.py) and the sockets (consumers.py) record the event loop the
ASGI server runs them on. This module sits between them so that the write
path does not import the HTTP server to reach its loop (issue 18: actions ->
http -> busy -> actions was a circle). It imports nothing of the tracker.

A view runs on one of the HTTP threads (tracker/http.py), with no event loop
of its own: it hands the announcement to the server's loop, where the sockets
and the channel layer live, instead of asgiref starting a loop and a thread
for each announcement. Without such a loop (tests, management commands) the
caller sends it itself.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Coroutine

from asgiref.sync import async_to_sync
from channels.layers import get_channel_layer

log = logging.getLogger(__name__)

_server_loop: asyncio.AbstractEventLoop | None = None


def remember_loop(loop: asyncio.AbstractEventLoop) -> None:
    """Called from the server's loop by whatever it serves first."""
    global _server_loop
    _server_loop = loop


def server_loop() -> asyncio.AbstractEventLoop | None:
    """The event loop the ASGI server runs this app on, once it has served."""
    return _server_loop


def on_server_loop(coroutine: Coroutine) -> bool:
    """Run `coroutine` on the server's loop without waiting for it. False
    (and the coroutine closed) when there is no such loop to hand it to: the
    caller then runs it itself (tests, management commands)."""
    loop = _server_loop
    if loop is None or not loop.is_running():
        coroutine.close()
        return False
    try:
        running = asyncio.get_running_loop()
    except RuntimeError:
        running = None
    if running is loop:  # already on it (an async caller): just schedule
        loop.create_task(coroutine)
        return True
    future = asyncio.run_coroutine_threadsafe(coroutine, loop)
    future.add_done_callback(_log_failure)
    return True


def _log_failure(future) -> None:
    if not future.cancelled() and future.exception() is not None:
        log.warning("a push failed: %r", future.exception())


def group_of(match_id: int) -> str:
    """The channel-layer group of a match's sockets."""
    return f"match-{match_id}"


def seq_exists(match_id: int, seq: int) -> None:
    """Say "seq n exists" to the match's sockets; never the state itself.
    Layers are at-most-once: a lost push is healed by the next resync."""
    _send(match_id, {"type": "match.changed", "seq": seq})


def redraw(match_id: int) -> None:
    """Say to the match's sockets that what a phone shows changed outside
    the log, at no new seq (a list handed to the event's organizer, a late
    list the organizer takes): each renders its page again and sends what
    differs. Nothing of the change itself."""
    _send(match_id, {"type": "match.redraw"})


def _send(match_id: int, message: dict) -> None:
    layer = get_channel_layer()
    if layer is None:
        return
    group = group_of(match_id)
    # Served by the ASGI server: its loop sends it, and the POST does not
    # wait for the layer.
    if on_server_loop(layer.group_send(group, message)):
        return
    try:
        async_to_sync(layer.group_send)(group, message)
    except Exception:  # a push is best effort; the log already has the event
        log.warning("push for match %s failed: %s", match_id, message, exc_info=True)
