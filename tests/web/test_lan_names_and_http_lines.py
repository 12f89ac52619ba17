"""Two things the transport must keep per phone: the laptop's own names a
phone may open (its host name and its mDNS .local name, tracker/lan.py),
and each request's own address in the HTTP threads' lines
(tracker/http.py), so that one address's flood waits behind its own
requests, not everyone's; a request whose view raised still gives its
place back."""

from __future__ import annotations

import socket

import pytest

from tests.support import in_own_loop
from tracker import announce, http, lan


def test_the_laptops_host_name_and_its_local_name_are_its_addresses(monkeypatch):
    monkeypatch.setattr(socket, "gethostname", lambda: "laptop")
    names = lan.read_addresses()
    assert "laptop" in names and "laptop.local" in names


class Line:
    """Admission as ThreadPoolHTTP uses it, recording who came and went."""

    def __init__(self):
        self.came, self.went = [], []

    def refuses(self, kind, client, settings, budget=None):
        return False

    async def enter(self, kind, client):
        self.came.append((kind, client))

    def leave(self, kind, client):
        self.went.append((kind, client))


def served(raising: bool = False):
    app = http.ThreadPoolHTTP.__new__(http.ThreadPoolHTTP)
    app.admission = Line()

    async def answer(scope, body, send):
        if raising:
            raise RuntimeError("the view failed")

    async def nothing_static(scope, send):
        return False

    app.app = answer
    app.static = type("Static", (), {"serve": staticmethod(nothing_static)})()
    return app


def request(app, address: str, method: str = "POST"):
    scope = {"type": "http", "method": method, "path": "/m/abc/act/", "client": (address, 1)}

    async def receive():
        return {"type": "http.request", "body": b"", "more_body": False}

    async def send(message):
        pass

    return app(scope, receive, send)


@pytest.fixture(autouse=True)
def no_server_loop(monkeypatch):
    """These loops are the test's, not the server's: none is remembered."""
    monkeypatch.setattr(announce, "_server_loop", announce.server_loop())


def test_each_request_waits_in_the_line_of_its_own_address():
    app = served()

    async def two():
        await request(app, "192.168.1.20")
        await request(app, "192.168.1.21", "GET")

    in_own_loop(two)
    # Without a session cookie, a request's client is its address
    # (tracker/known_sessions.py).
    assert app.admission.came == [
        ("tap", "address:192.168.1.20"),
        ("page", "address:192.168.1.21"),
    ]
    assert app.admission.went == app.admission.came


def test_a_request_whose_view_raised_gives_its_place_back():
    app = served(raising=True)
    with pytest.raises(RuntimeError):
        in_own_loop(lambda: request(app, "192.168.1.20"))
    assert app.admission.went == [("tap", "address:192.168.1.20")]
