"""A venue's burst of connections, against the server `make run` starts:
the kernel holds them until the server accepts them.

daphne listened with Twisted's backlog of 50: when more connections than
that arrived at once (a round starting at 300 phones behind one address,
or one client opening them on purpose), the kernel dropped the rest, and
each phone tried again only after 1 s, then 3 s, then 7 s: of 600
connections opened at once, 70 to 203 waited more than a second (measured;
none with the backlog below). `serve` now listens with HTTP_LISTEN_BACKLOG
(1,024 by default; the kernel caps it at net.core.somaxconn).

Shown without timing anything: with the server stopped (SIGSTOP), the
kernel completes a connection only while the backlog has room.
"""

from __future__ import annotations

import contextlib
import os
import selectors
import signal
import socket
import time
import urllib.request

import pytest

from tests.scale.servers import HOST, LiveServer, manage, server_env

BURST = 300


@pytest.fixture
def server(tmp_path):
    env = server_env(tmp_path)
    manage(env, "migrate", "--noinput", "-v0")
    served = LiveServer(env, tmp_path / "serve.log").start()
    yield served
    with contextlib.suppress(ProcessLookupError):
        os.kill(served.process.pid, signal.SIGCONT)
    served.stop()


def _completed(server: LiveServer, count: int, seconds: float) -> int:
    """Open `count` connections at once; how many the kernel completes
    within `seconds` (a bound on the wait, not a measure)."""
    selector = selectors.DefaultSelector()
    opened = []
    for _ in range(count):
        sock = socket.socket()
        sock.setblocking(False)
        sock.connect_ex((HOST, server.port))
        selector.register(sock, selectors.EVENT_WRITE)
        opened.append(sock)
    done = set()
    deadline = time.monotonic() + seconds
    while len(done) < count and (left := deadline - time.monotonic()) > 0:
        for key, _ in selector.select(timeout=left):
            if key.fileobj.getsockopt(socket.SOL_SOCKET, socket.SO_ERROR) == 0:
                done.add(key.fileobj)
            selector.unregister(key.fileobj)
    for sock in opened:
        sock.close()
    selector.close()
    return len(done)


def test_a_burst_of_connections_waits_in_the_kernel_for_the_server(server):
    os.kill(server.process.pid, signal.SIGSTOP)  # accepts nothing meanwhile
    try:
        assert _completed(server, BURST, seconds=10) == BURST
    finally:
        os.kill(server.process.pid, signal.SIGCONT)
    with urllib.request.urlopen(server.url + "/", timeout=30) as answer:  # noqa: S310 (loopback)
        assert answer.status == 200
