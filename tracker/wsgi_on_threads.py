"""Django's WSGI handler on a fixed pool of threads, one hand-off each way
(issue 18: scale-out that scales, socket work that does not queue).

tracker/http.py reads a request's whole body on the event loop before it
takes a thread. Here the thread gets that body as its input and gives back
the whole response (status, headers, body), which the loop then sends: the
thread never waits for the loop.

Why not a2wsgi's responder (used before; its environ builder is still
used): its thread waited for the event loop four times a request (reading
the body, then start_response, the body, and the end of the body, each
through run_coroutine_threadsafe(...).result()). Under load the loop is the
busiest thread of the process, so the HTTP threads spent their time waiting
for it and for the interpreter lock instead of rendering: py-spy of two
processes under bench/run.py's scale-out load found most HTTP-thread
samples in those waits while the process used about 0.6 of a core and shed
taps. No WSGI adapter we found hands a buffered body in and takes a whole
response out. Every response of the app is an HttpResponse its view built
whole (pages, partials, the organizer's exports; none streams), so taking
it whole here holds nothing the view had not held already.
"""

from __future__ import annotations

import asyncio
import contextvars
import io
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor

from a2wsgi.wsgi import build_environ

Response = tuple[int, list[tuple[bytes, bytes]], bytes]


def _respond(app: Callable, environ: dict) -> Response:
    """Run the WSGI app in this thread: its whole response."""
    started: list[tuple[int, list[tuple[bytes, bytes]]]] = []
    chunks: list[bytes] = []

    def start_response(status: str, headers, exc_info=None):
        if exc_info is not None and started:
            raise exc_info[1].with_traceback(exc_info[2])
        started[:] = [
            (
                int(status.split(" ", 1)[0]),
                [
                    (name.strip().encode("latin-1").lower(), value.strip().encode("latin-1"))
                    for name, value in headers
                ],
            )
        ]
        return chunks.append  # WSGI's write()

    iterable = app(environ, start_response)
    try:
        chunks.extend(iterable)
    finally:
        close = getattr(iterable, "close", None)
        if close is not None:
            close()  # Django's request_finished (its database connection back)
    status, headers = started[0]
    return status, headers, b"".join(chunks)


class WSGIOnThreads:
    """`await handler(scope, body, send)`: the WSGI `app` answers the request
    of `scope` with `body` on one of `workers` threads."""

    def __init__(self, app: Callable, workers: int) -> None:
        self.app = app
        self.executor = ThreadPoolExecutor(max_workers=workers, thread_name_prefix="WSGI")

    async def __call__(self, scope, body: bytes, send) -> None:
        environ = build_environ(scope, io.BytesIO(body))
        # As a2wsgi did: the loop's context variables reach the app.
        run = contextvars.copy_context().run
        status, headers, content = await asyncio.get_running_loop().run_in_executor(
            self.executor, run, _respond, self.app, environ
        )
        await send({"type": "http.response.start", "status": status, "headers": headers})
        await send({"type": "http.response.body", "body": content})
