"""A form POST's body reaches the app whole and unparsed by Twisted
(tracker/whole_bodies.py, issue 18): daphne passes the body's bytes on, and
Django parses them; Twisted's own parse into request.args was wasted work.

Driven through the protocol daphne's server builds, on Twisted's in-memory
transport, with a stand-in for daphne's Server that records what the app
would be handed. `manage.py serve`'s request (tracker/front_door.py) is
the same class underneath; the served app's taps are tested in tests/browser.
"""

from __future__ import annotations

from types import SimpleNamespace

import pytest
from twisted.internet.address import IPv4Address
from twisted.internet.testing import StringTransport

from tracker.front_door import GuardedHTTPFactory, GuardedRequest, Limits
from tracker.whole_bodies import WholeBodyHTTPFactory, WholeBodyRequest

BODY = b"csrfmiddlewaretoken=abc&action_id=t1&state=prone&shown=d1.d2"


class Recorder:
    """What daphne's Server is to its HTTP protocol, recording what the app
    would be handed (a scope, then the body's messages)."""

    proxy_forwarded_address_header = None
    root_path = ""
    request_buffer_size = 8192

    def __init__(self):
        self.requests, self.scopes, self.messages = [], [], []

    def protocol_connected(self, protocol):
        pass

    def protocol_disconnected(self, protocol):
        pass

    def create_application(self, protocol, scope):
        self.requests.append(protocol)
        self.scopes.append(scope)
        return SimpleNamespace(put_nowait=self.messages.append)


def limits():
    return Limits(
        max_connections=10,
        per_address=5,
        max_body=4096,
        header_timeout=10,
        body_timeout=10,
        idle_timeout=60,
    )


def post(factory) -> None:
    channel = factory.buildProtocol(IPv4Address("TCP", "192.168.1.20", 50000))
    channel.makeConnection(StringTransport())
    channel.dataReceived(
        b"POST /m/abc/act/ HTTP/1.1\r\nHost: 192.168.1.10:8000\r\n"
        b"Content-Type: application/x-www-form-urlencoded; charset=utf-8\r\n"
        + b"Content-Length: %d\r\n\r\n" % len(BODY)
        + BODY
    )


@pytest.mark.parametrize(
    "make, request_class",
    [
        (lambda server: WholeBodyHTTPFactory(server), WholeBodyRequest),
        (lambda server: GuardedHTTPFactory(server, limits()), GuardedRequest),
    ],
    ids=["bench", "serve"],
)
def test_a_form_post_reaches_the_app_whole_and_unparsed_by_twisted(make, request_class):
    server = Recorder()
    post(make(server))
    [request] = server.requests
    assert isinstance(request, request_class)
    assert server.scopes[0]["method"] == "POST"
    assert server.scopes[0]["path"] == "/m/abc/act/"
    assert b"".join(m["body"] for m in server.messages) == BODY
    assert not server.messages[-1]["more_body"]
    # Twisted's parse would have filled these from the body.
    assert request.args == {}
