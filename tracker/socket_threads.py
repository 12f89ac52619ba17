"""The threads a socket's database and render work runs on (issues 17, 18).

Channels runs every `database_sync_to_async` call of a process on one thread
(asgiref's thread_sensitive default). With every socket's renders queued
there, a phone's connect (counting, authentication, first frame) waited
behind all of them: once pushes lagged past daphne's 5 s handshake timeout,
no phone could get its socket back. A socket's work is split between two
small pools of threads of its own instead:

- connects: counting, authentication, the first frame, a resync and the
  count given back at disconnect. Little work each, so a phone is answered
  at once, whatever the backlog of pushes.
- pushes: the renders for "seq n exists". A socket has at most one push
  queued or running, and it renders the newest seq when its turn comes
  (consumers.MatchConsumer._push_newest), so a backlog is at most one
  render per socket, never one per seq; a viewer's render is shared by
  its sockets and its answers (rendering.viewer_blocks renders a key once
  even when several threads ask at the same moment).

Threads add no CPU under the GIL: they keep one queue from holding every
socket's work. Each thread keeps its own SQLite connection (CONN_MAX_AGE)
or borrows one from the PostgreSQL pool for the length of one job
(database_sync_to_async closes old connections before and after).
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor

from channels.db import database_sync_to_async
from django.conf import settings

_pools: dict[str, ThreadPoolExecutor] = {}
_lock = threading.Lock()


def _pool(name: str, size: int) -> ThreadPoolExecutor:
    with _lock:
        pool = _pools.get(name)
        if pool is None:
            pool = _pools[name] = ThreadPoolExecutor(size, thread_name_prefix=f"socket-{name}")
        return pool


def on_connect_thread(function: Callable) -> Callable:
    """`function` as a coroutine on the connects' threads."""
    pool = _pool("connect", settings.SOCKET_CONNECT_THREADS)
    return database_sync_to_async(function, thread_sensitive=False, executor=pool)


def connect_pool() -> ThreadPoolExecutor:
    """The connects' threads, for work handed over without waiting for it."""
    return _pool("connect", settings.SOCKET_CONNECT_THREADS)


def on_push_thread(function: Callable) -> Callable:
    """`function` as a coroutine on the pushes' threads."""
    pool = _pool("push", settings.SOCKET_PUSH_THREADS)
    return database_sync_to_async(function, thread_sensitive=False, executor=pool)
