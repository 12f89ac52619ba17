"""HTTP under the ASGI server: Django's WSGI handler on a fixed pool of threads.

Why not Django's ASGI handler (issue 9's profile): it starts a new thread for
every request (asgiref's ThreadSensitiveContext), so every request also opened
a new database connection, and the two were about a fifth of a served action's
CPU. Django's WSGI handler runs the same Django stack (middleware, sessions,
CSRF, the same views) on HTTP_THREADS reused threads (tracker/wsgi_on_threads.py),
each keeping its SQLite connection (CONN_MAX_AGE) or borrowing one from the
PostgreSQL pool. The pool of threads also bounds how many requests render at
once in a process.

A view that announces a change (actions.notify) runs on one of those threads,
with no event loop of its own: it hands the announcement to the server's loop,
which this app records for it (tracker/announce.py).
"""

from __future__ import annotations

import asyncio
import logging

from django.conf import settings
from django.core.wsgi import get_wsgi_application
from django.utils import translation

from tracker import announce
from tracker.admission import PAGE, STATIC, TAP, Admission, Shed

# Re-exported: the loop and the hand-over live in tracker/announce.py.
from tracker.announce import on_server_loop, server_loop  # noqa: F401
from tracker.known_sessions import client_of
from tracker.static_on_loop import StaticOnLoop
from tracker.wsgi_on_threads import WSGIOnThreads

log = logging.getLogger(__name__)


class ThreadPoolHTTP:
    """The ASGI app for HTTP: Django's WSGI handler on a pool of threads.

    A request waits for one of the HTTP_THREADS threads in the line of its
    kind (tracker/admission.py): taps first, then page loads and static
    files in turn, clients in turn (a known session, else an address:
    tracker/known_sessions.py). Past its kind's budget it is answered
    at once with 503 "busy, tap again" in the phone's language instead of
    waiting in line: an overloaded process sheds in a few milliseconds
    rather than holding a request until the phone gives up, and does no
    work for a phone that has stopped waiting. Nothing was written, and a
    tap's action id makes the repeated tap count once."""

    def __init__(self) -> None:
        self.app = WSGIOnThreads(get_wsgi_application(), workers=settings.HTTP_THREADS)
        self.admission = Admission(settings.HTTP_THREADS, settings.HTTP_PAGE_THREADS)
        # A page's scripts and styles never wait for a thread, nor are shed
        # with the page loads (tracker/static_on_loop.py).
        self.static = StaticOnLoop()

    async def __call__(self, scope, receive, send):
        announce.remember_loop(asyncio.get_running_loop())
        if scope["type"] != "http":
            return  # (daphne sends no lifespan; the router gives us HTTP only)
        if await self.static.serve(scope, send):
            return
        # The body is read here, on the loop, before a thread is taken: a
        # phone on a poor link (or a client trickling bytes on purpose) then
        # holds a coroutine, not one of the few threads, as Django's own
        # ASGI handler does. The server refused any body far over the cap
        # before buffering it (tracker/front_door.py).
        body = await _whole_body(receive, settings.DATA_UPLOAD_MAX_MEMORY_SIZE)
        if body is None:
            return  # the client went away
        kind = kind_of(scope)
        address = (scope.get("client") or ("?", 0))[0]
        # Its session's, if a real one, else its address's (a venue is one).
        client, budget = client_of(scope, address)
        if self.admission.refuses(kind, client, settings, budget):
            await _answer_busy(scope, send)
            return
        try:
            await self.admission.enter(kind, client)
        except Shed:  # another client's request took its place
            await _answer_busy(scope, send)
            return
        try:
            await self.app(scope, body, send)
        finally:
            self.admission.leave(kind, client)


def kind_of(scope) -> str:
    """A tap changes something (any method but GET and HEAD); a static file
    is under STATIC_URL (here only when Django serves it: DEBUG, or a name
    not collected); anything else is a page load."""
    if scope["method"] not in ("GET", "HEAD"):
        return TAP
    if scope["path"].startswith(settings.STATIC_URL):
        return STATIC
    return PAGE


async def _whole_body(receive, cap: int) -> bytes | None:
    """The request's body, or None if the client disconnected first. Reading
    stops past `cap` bytes: Django refuses such a body from its
    Content-Length (DATA_UPLOAD_MAX_MEMORY_SIZE, tracker/uploads.py) without
    reading it, so holding more would only cost memory."""
    chunks, size = [], 0
    while True:
        message = await receive()
        if message["type"] == "http.disconnect":
            return None
        chunk = message.get("body", b"")
        chunks.append(chunk)
        size += len(chunk)
        if not message.get("more_body") or size > cap:
            return b"".join(chunks)


async def _answer_busy(scope, send) -> None:
    # Imported here: they need the apps loaded, which this module must not.
    from tracker.busy import busy_body
    from tracker.consumers import language_of

    headers = {k.decode("latin-1").lower(): v for k, v in scope.get("headers", [])}
    htmx = headers.get("hx-request") == b"true"
    with translation.override(language_of(scope)):
        body = busy_body(htmx, scope.get("method", "")).encode()
    await send(
        {
            "type": "http.response.start",
            "status": 503,
            "headers": [
                (b"content-type", b"text/html; charset=utf-8"),
                (b"retry-after", b"1"),
                (b"x-content-type-options", b"nosniff"),
                (b"content-length", str(len(body)).encode()),
            ],
        }
    )
    await send({"type": "http.response.body", "body": body})
