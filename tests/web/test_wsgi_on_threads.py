"""Django's WSGI handler on the HTTP threads, one hand-off each way
(tracker/wsgi_on_threads.py, issue 18): the thread gets the request's whole
body and gives back the whole response, never waiting for the event loop,
which under load is the busiest thread of the process."""

from __future__ import annotations

import asyncio
import threading

from tests.support import in_own_loop
from tracker.wsgi_on_threads import WSGIOnThreads

SCOPE = {
    "type": "http",
    "http_version": "1.1",
    "method": "POST",
    "path": "/m/ABC/act/SetTrooperState/",
    "raw_path": b"/m/ABC/act/SetTrooperState/",
    "root_path": "",
    "scheme": "http",
    "query_string": b"h=1",
    "headers": [
        (b"host", b"192.168.1.10:8000"),
        (b"content-type", b"application/x-www-form-urlencoded"),
        (b"content-length", b"21"),
        (b"x-tracker-shown", b"d1.d2"),
    ],
    "client": ["192.168.1.20", 50000],
    "server": ["192.168.1.10", 8000],
}
BODY = b"trooper_id=a1&tokens=prone"[:21]


class RecordingApp:
    """A WSGI app that answers in three pieces (write(), then two chunks) and
    records what it was given and where it ran."""

    def __init__(self, while_running=None):
        self.seen = {}
        self.closed = False
        self.while_running = while_running or (lambda: None)

    def __call__(self, environ, start_response):
        self.seen = {
            "thread": threading.current_thread().name,
            "method": environ["REQUEST_METHOD"],
            "path": environ["PATH_INFO"],
            "query": environ["QUERY_STRING"],
            "shown": environ["HTTP_X_TRACKER_SHOWN"],
            "address": environ["REMOTE_ADDR"],
            "body": environ["wsgi.input"].read(int(environ["CONTENT_LENGTH"])),
        }
        self.while_running()
        write = start_response(
            "200 OK", [("Content-Type", "text/html; charset=utf-8"), ("X-Tracker-Seq", "7")]
        )
        write(b"<p>")
        return self

    def __iter__(self):
        yield b"Tumbado"
        yield b"</p>"

    def close(self):
        self.closed = True


async def answer(handler) -> list[dict]:
    sent = []

    async def send(message):
        sent.append(message)

    await handler(SCOPE, BODY, send)
    return sent


def test_the_app_gets_the_request_and_its_whole_response_is_sent():
    app = RecordingApp()
    sent = in_own_loop(lambda: answer(WSGIOnThreads(app, workers=2)))
    assert sent == [
        {
            "type": "http.response.start",
            "status": 200,
            "headers": [
                (b"content-type", b"text/html; charset=utf-8"),
                (b"x-tracker-seq", b"7"),
            ],
        },
        {"type": "http.response.body", "body": b"<p>Tumbado</p>"},
    ]
    assert app.seen == {
        "thread": app.seen["thread"],
        "method": "POST",
        "path": "/m/ABC/act/SetTrooperState/",
        "query": "h=1",
        "shown": "d1.d2",
        "address": "192.168.1.20",
        "body": BODY,
    }
    assert app.seen["thread"].startswith("WSGI")
    # Django's request_finished (its connection handed back) runs on close().
    assert app.closed


def test_the_thread_never_waits_for_the_event_loop():
    """The loop is held busy from the moment the app starts until it has
    answered: an adapter whose thread waits for the loop (a2wsgi's responder
    did, at start_response and at each chunk) would make the app wait out
    the loop's five seconds; here the app answers while the loop is busy."""
    answered = threading.Event()
    outcome = {}

    async def run():
        loop = asyncio.get_running_loop()
        busy = threading.Event()

        def hold_the_loop():
            busy.set()
            outcome["answered while the loop was busy"] = answered.wait(timeout=5)

        def start_holding():
            loop.call_soon_threadsafe(hold_the_loop)
            busy.wait(timeout=5)

        app = RecordingApp(while_running=start_holding)
        handler = WSGIOnThreads(app, workers=1)
        original = app.close

        def close():
            original()
            answered.set()

        app.close = close
        return await answer(handler)

    sent = in_own_loop(run)
    assert outcome == {"answered while the loop was busy": True}
    assert sent[1]["body"] == b"<p>Tumbado</p>"
