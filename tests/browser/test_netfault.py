"""The fault proxy itself (tests/browser/netfault.py), against a plain echo
server on 127.0.0.1: each mode does what the link tests rely on."""

from __future__ import annotations

import contextlib
import socket
import socketserver
import threading
import time

import pytest

from .netfault import FaultyLink


class _Echo(socketserver.BaseRequestHandler):
    """Sends back what it gets, and notes it on the server (`heard`)."""

    def handle(self):
        with contextlib.suppress(ConnectionError):  # the reset test resets it
            while data := self.request.recv(65536):
                self.server.heard.append(data)
                self.request.sendall(data)


@pytest.fixture
def link():
    server = socketserver.ThreadingTCPServer(("127.0.0.1", 0), _Echo)
    server.daemon_threads = True
    server.heard = []
    threading.Thread(target=server.serve_forever, daemon=True).start()
    proxy = FaultyLink(server.server_address[1]).start()
    proxy.heard = server.heard  # what reached the server, for the one-way stall
    yield proxy
    proxy.close()
    server.shutdown()
    server.server_close()


def dial(link, timeout=2.0):
    return socket.create_connection(("127.0.0.1", link.port), timeout=timeout)


def echoed(sock, data: bytes) -> bytes:
    sock.sendall(data)
    got = b""
    while len(got) < len(data):
        chunk = sock.recv(65536)
        if not chunk:
            break
        got += chunk
    return got


def test_pass_forwards_both_ways(link):
    with dial(link) as sock:
        assert echoed(sock, b"hello") == b"hello"


def test_a_stall_holds_everything_and_delivers_it_in_order_when_restored(link):
    with dial(link) as sock:
        assert echoed(sock, b"before") == b"before"
        link.stall()
        sock.sendall(b"during")
        sock.settimeout(0.7)
        with pytest.raises(TimeoutError):
            sock.recv(100)
        # A connection opened during the stall is accepted and held too.
        late = dial(link)
        late.sendall(b"new one")
        link.restore()
        sock.settimeout(2)
        assert sock.recv(100) == b"during"
        late.settimeout(2)
        assert late.recv(100) == b"new one"
        late.close()


def test_reset_sends_rst_and_refuses_new_connections(link):
    with dial(link) as sock:
        assert echoed(sock, b"up") == b"up"
        link.reset()
        with pytest.raises(ConnectionResetError):
            sock.recv(100)
    # A new connection is refused: at once, or reset as soon as it is taken
    # (which of the two depends on whether the kernel queued it first).
    with pytest.raises((ConnectionRefusedError, ConnectionResetError)), dial(link) as sock:
        sock.recv(100)
    link.restore()
    with dial(link) as sock:
        assert echoed(sock, b"back") == b"back"


def test_latency_delays_each_way(link):
    link.latency(0.3)
    with dial(link) as sock:
        started = time.monotonic()
        assert echoed(sock, b"slow") == b"slow"
        assert time.monotonic() - started >= 0.55


def test_a_one_way_stall_lets_the_phone_s_bytes_through_and_holds_the_answers(link):
    with dial(link) as sock:
        link.stall_down()
        sock.sendall(b"tap")
        deadline = time.monotonic() + 2
        while b"".join(link.heard) != b"tap":
            assert time.monotonic() < deadline, link.heard  # the server has it
            time.sleep(0.02)
        sock.settimeout(0.7)
        with pytest.raises(TimeoutError):
            sock.recv(100)  # its answer is held
        link.restore()
        sock.settimeout(2)
        assert sock.recv(100) == b"tap"
