"""The server's own limits, before a request reaches the app (issue 22: one
client cannot starve the others).

`manage.py serve` runs daphne with these in its Twisted protocol:

- connections: at most HTTP_MAX_CONNECTIONS open in the process (HTTP and
  websockets; by default the open-files limit, raised to its hard limit at
  start-up, less room for the database and logs), and at most
  HTTP_CONNECTIONS_PER_ADDRESS (never more than half of them) from one
  address, so that one address cannot take every file descriptor. A new
  connection over either cap takes the place of the connection that has
  waited longest without sending a whole request (an idle keep-alive or a
  trickled head), from the same address, or from the address with the
  most. If none is waiting for its request, the one whose body has been
  arriving longest (for more than BODY_GRACE seconds: a phone's body
  takes far less) goes instead; if there is none either, the new connection
  is closed at once. A venue behind one NAT is one address: its phones' new
  connections then push out a stranger's idle ones rather than being
  refused, and one client that holds the address's share with bodies it
  never sends no longer locks the venue's phones out for the body deadline.
- deadlines: a connection with no request for HTTP_IDLE_TIMEOUT seconds
  (after it opens or between requests) is closed; a request's head must
  arrive within HTTP_HEADER_TIMEOUT of its first byte, and its body within
  HTTP_BODY_TIMEOUT of its head. Twisted's own timeout is reset by every
  byte, so a byte every 20 s held a connection for ever.
- bodies: one announced (Content-Length) or streamed (chunked) past
  HTTP_MAX_BODY bytes is answered 413 in the phone's language and the
  connection closed, before the body is read: daphne otherwise reads the
  whole body to a file and then queues all of it, in memory, for the app.

Why ours: daphne has an app timeout and nothing else of these; uvicorn,
hypercorn and granian have a global connection limit or keep-alive timeout
at most, none per address and none with a header deadline that a trickle
cannot reset (tracker/admission.py does the same per kind of request).
Twisted ships LimitConnectionsByPeer, which refuses past a count; we wrap
connections the same way (policies.WrappingFactory) so that a websocket,
which daphne moves onto the same transport, stays counted until it closes.
"""

from __future__ import annotations

import logging
import resource
import time
from dataclasses import dataclass

import daphne.server  # noqa: F401 (installs the asyncio reactor before Twisted's web imports)
from daphne.http_protocol import HTTPFactory
from twisted.protocols.policies import ProtocolWrapper, WrappingFactory
from twisted.web import http

from tracker.whole_bodies import WholeBodyRequest

log = logging.getLogger(__name__)

# Files kept for what is not a connection: the database, logs, the Redis
# and PostgreSQL pools, Python's own.
RESERVED_FILES = 256


def raise_open_files_limit() -> int:
    """Raise this process's soft RLIMIT_NOFILE to the hard limit (a laptop's
    soft limit is often 1,024); returns the limit in force."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    target = hard if hard != resource.RLIM_INFINITY else max(soft, 65536)
    if target > soft:
        try:
            resource.setrlimit(resource.RLIMIT_NOFILE, (target, hard))
            soft = target
        except (ValueError, OSError) as error:
            log.warning("could not raise the open-files limit: %s", error)
    return soft


@dataclass(frozen=True)
class Limits:
    max_connections: int
    per_address: int
    max_body: int
    header_timeout: float
    body_timeout: float
    idle_timeout: float

    @classmethod
    def from_settings(cls, settings, open_files: int) -> Limits:
        total = settings.HTTP_MAX_CONNECTIONS or max(open_files - RESERVED_FILES, 32)
        per_address = max(1, min(settings.HTTP_CONNECTIONS_PER_ADDRESS, total // 2))
        if settings.BEHIND_PROXY:
            # Every connection comes from the proxy: it limits its clients.
            per_address = total
        return cls(
            max_connections=total,
            per_address=per_address,
            max_body=settings.HTTP_MAX_BODY,
            header_timeout=settings.HTTP_HEADER_TIMEOUT,
            body_timeout=settings.HTTP_BODY_TIMEOUT,
            idle_timeout=settings.HTTP_IDLE_TIMEOUT,
        )


# A channel's states: waiting for a request (idle), reading its head or its
# body, or handing it to the app (busy: no deadline of ours; a websocket
# stays busy for ever).
IDLE, HEAD, BODY, BUSY = "idle", "head", "body", "busy"

# How long a body may have been arriving before its connection may make
# room for a new one (when no connection is waiting for a request).
BODY_GRACE = 1.0


class GuardedChannel(http.HTTPChannel):
    """Twisted's HTTP/1.1 channel with our deadlines and body cap."""

    limits: Limits
    state = IDLE
    waiting_since = 0.0  # when it last became idle (monotonic)
    body_since = 0.0  # when its current body began to arrive (monotonic)
    refused = False
    _deadline = None

    def connectionMade(self):
        super().connectionMade()
        self._become(IDLE, self.limits.idle_timeout)

    def dataReceived(self, data):
        if self.state == IDLE and not self._handlingRequest:
            self._become(HEAD, self.limits.header_timeout)
        super().dataReceived(data)

    def allHeadersReceived(self):
        # Before Twisted's: it would answer "100 Continue" and open a file
        # for the body.
        if self.length is not None and self.length > self.limits.max_body:
            self.refuse_too_large()
            return
        super().allHeadersReceived()
        self._become(BODY, self.limits.body_timeout)

    def allContentReceived(self):
        if self.refused:
            return  # never handed to the app
        self._become(BUSY, None)
        super().allContentReceived()

    def requestDone(self, request):
        # Before Twisted replays any pipelined bytes, which start a new head.
        self._become(IDLE, self.limits.idle_timeout)
        super().requestDone(request)

    def connectionLost(self, reason):
        self._become(BUSY, None)
        super().connectionLost(reason)

    def evictable(self) -> bool:
        return self.state in (IDLE, HEAD) and not self.refused and not self._handlingRequest

    def slow_body_since(self) -> float | None:
        """When its body began to arrive, if it has been arriving for more
        than BODY_GRACE seconds (the last to make room), else None."""
        if self.state != BODY or self.refused or self._handlingRequest:
            return None
        return self.body_since if time.monotonic() - self.body_since > BODY_GRACE else None

    def refuse_too_large(self) -> None:
        """413 in the phone's language, then close: the rest of the body is
        never read (the transport stops reading when it closes)."""
        self.refused = True
        self._become(BUSY, None)
        request = self.requests[-1] if self.requests else None
        body = _too_large_body(request).encode()
        self.transport.write(
            b"HTTP/1.1 413 Content Too Large\r\n"
            b"Content-Type: text/html; charset=utf-8\r\n"
            b"X-Content-Type-Options: nosniff\r\n"
            b"Connection: close\r\n"
            b"Content-Length: " + str(len(body)).encode() + b"\r\n\r\n" + body
        )
        self.transport.loseConnection()
        # A client that never reads our answer does not keep the socket.
        self.callLater(2, self.transport.abortConnection)

    def _become(self, state: str, seconds: float | None) -> None:
        self.state = state
        if state == IDLE:
            self.waiting_since = time.monotonic()
        elif state == BODY:
            self.body_since = time.monotonic()
        if self._deadline is not None and self._deadline.active():
            self._deadline.cancel()
        self._deadline = self.callLater(seconds, self._too_slow) if seconds else None

    def _too_slow(self) -> None:
        self._deadline = None
        log.info("closed a connection %s too long (%s)", self.state, self.transport.getPeer())
        self.transport.abortConnection()


class GuardedRequest(WholeBodyRequest):
    """daphne's request (its body left whole: tracker/whole_bodies.py),
    counting the body's bytes as they arrive."""

    received = 0

    def handleContentChunk(self, data):
        channel = self.channel
        if channel is None or channel.refused:
            return
        self.received += len(data)
        if self.received > channel.limits.max_body:
            channel.refuse_too_large()
            return
        super().handleContentChunk(data)


class GuardedHTTPFactory(HTTPFactory):
    protocol = GuardedChannel

    def __init__(self, server, limits: Limits):
        super().__init__(server)
        self.limits = limits

    def buildProtocol(self, addr):
        channel = super().buildProtocol(addr)
        channel.requestFactory = GuardedRequest
        channel.limits = self.limits
        return channel


class Connection(ProtocolWrapper):
    """One open connection, whatever it becomes: daphne moves a websocket
    onto this same transport (it sets our wrappedProtocol), so the socket
    is counted until it closes."""

    address = "?"
    evicted = False

    def evictable_since(self) -> float | None:
        channel = self.wrappedProtocol
        if self.evicted or not isinstance(channel, GuardedChannel) or not channel.evictable():
            return None
        return channel.waiting_since

    def slow_body_since(self) -> float | None:
        channel = self.wrappedProtocol
        if self.evicted or not isinstance(channel, GuardedChannel):
            return None
        return channel.slow_body_since()


class Connections(WrappingFactory):
    """Counts open connections, in all and by address, and makes room for a
    new one (see the module's docstring)."""

    protocol = Connection

    def __init__(self, wrapped: GuardedHTTPFactory, limits: Limits):
        super().__init__(wrapped)
        self.limits = limits
        self.by_address: dict[str, set[Connection]] = {}
        self.count = 0

    def buildProtocol(self, addr):
        address = getattr(addr, "host", "?")
        full = len(self.by_address.get(address, ())) >= self.limits.per_address
        if full and not self._evict_from(address):
            return None  # Twisted closes the socket at once
        if self.count >= self.limits.max_connections:
            busiest = max(self.by_address, key=lambda a: len(self.by_address[a]))
            if not self._evict_from(busiest):
                return None
        connection = super().buildProtocol(addr)
        connection.address = address
        return connection

    def registerProtocol(self, p):
        super().registerProtocol(p)
        self.by_address.setdefault(p.address, set()).add(p)
        self.count += 1

    def unregisterProtocol(self, p):
        super().unregisterProtocol(p)
        self._forget(p)

    def _forget(self, p: Connection) -> None:
        mine = self.by_address.get(p.address)
        if mine is not None and p in mine:
            mine.discard(p)
            self.count -= 1
            if not mine:
                del self.by_address[p.address]

    def _evict_from(self, address: str) -> bool:
        waiting = [
            (since, id(c), c)
            for c in self.by_address.get(address, ())
            if (since := c.evictable_since()) is not None
        ]
        if not waiting:
            # None waits for its request: the slowest body makes room.
            waiting = [
                (since, id(c), c)
                for c in self.by_address.get(address, ())
                if (since := c.slow_body_since()) is not None
            ]
        if not waiting:
            return False
        _, _, victim = min(waiting)
        victim.evicted = True
        self._forget(victim)  # now: the abort completes on the next turn
        victim.transport.abortConnection()
        return True


def install(limits: Limits) -> None:
    """Make daphne's Server listen through our factories (it builds its
    HTTP factory from this module-level name when it runs)."""
    daphne.server.HTTPFactory = lambda server: Connections(
        GuardedHTTPFactory(server, limits), limits
    )


def _too_large_body(request) -> str:
    # Imported here: they need the apps loaded, which this module must not.
    from django.utils import translation
    from django.utils.html import escape
    from django.utils.translation import gettext as _

    from tracker.consumers import language_of

    headers = []
    path = "/"
    if request is not None:
        headers = [(k.lower(), b",".join(v)) for k, v in request.requestHeaders.getAllRawHeaders()]
        path = (getattr(request, "path", None) or b"/").decode("latin-1")
    try:
        language = language_of({"headers": headers, "path": path})
    except Exception:  # a malformed header: the default language
        language = None
    with translation.override(language):
        message = escape(_("That is more than the tracker takes in one request."))
        # Said in which language, as every page of ours is (a screen reader reads it so).
        lang = escape(translation.get_language() or "en")
    return (
        f'<!doctype html><html lang="{lang}"><title>{message}</title>'
        f'<main><p role="alert">{message}</p></main>'
    )
