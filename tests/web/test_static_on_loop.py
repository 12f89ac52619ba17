"""A static file served on the event loop (tracker/static_on_loop.py) is
answered as Django's WhiteNoise middleware answers it on a thread: the same
status, headers (WhiteNoise's and the security and CSP middleware's ahead
of it) and bytes, for every kind of request a phone sends for one. Anything
that is not a known file is left to Django.

The served app under load: tests/browser/test_scripts_while_busy.py."""

from __future__ import annotations

import pytest
from django.templatetags.static import static
from django.test import Client, override_settings

from tests.support import in_own_loop
from tracker.static_on_loop import StaticOnLoop

NAMES = ["tracker/app.js", "tracker/app.css", "vendor/htmx-2.0.11.min.js"]
ASKS = {
    "plain": {},
    "gzip": {"Accept-Encoding": "gzip"},
    "brotli": {"Accept-Encoding": "gzip, deflate, br"},
    "range": {"Range": "bytes=10-99"},
    "bad range": {"Range": "bytes=oops"},
}


def on_loop(server: StaticOnLoop, method: str, path: str, headers: dict, scheme="http"):
    """What the loop sends: (status, sorted headers, body), or None when it
    leaves the request to Django."""
    sent = []

    async def send(message):
        sent.append(message)

    scope = {
        "type": "http",
        "method": method,
        "path": path,
        "scheme": scheme,
        "headers": [(k.lower().encode(), v.encode()) for k, v in headers.items()],
    }
    answered = in_own_loop(lambda: server.serve(scope, send))
    if not answered:
        assert sent == []
        return None
    start, *bodies = sent
    assert all(m["type"] == "http.response.body" for m in bodies)
    assert not bodies[-1].get("more_body")
    headers = sorted((k.decode(), v.decode()) for k, v in start["headers"])
    return start["status"], headers, b"".join(m["body"] for m in bodies)


def by_django(method: str, path: str, headers: dict, **extra):
    meta = {"HTTP_" + k.upper().replace("-", "_"): v for k, v in headers.items()}
    client = Client()
    response = (
        client.head(path, **meta, **extra)
        if method == "HEAD"
        else client.get(path, **meta, **extra)
    )
    body = b"".join(response.streaming_content) if response.streaming else response.content
    return response.status_code, sorted((k.lower(), v) for k, v in response.items()), body


@pytest.fixture(scope="module")
def server():
    return StaticOnLoop()


@pytest.mark.parametrize("name", NAMES)
@pytest.mark.parametrize("ask", list(ASKS))
@pytest.mark.parametrize("method", ["GET", "HEAD"])
def test_answered_as_django_answers(server, name, ask, method):
    path = static(name)
    answered = on_loop(server, method, path, ASKS[ask])
    assert answered is not None
    assert answered == by_django(method, path, ASKS[ask])
    status, headers, body = answered
    assert status == (206 if ask == "range" else 200)
    assert ("x-content-type-options", "nosniff") in headers
    assert any(k == "content-security-policy" for k, _v in headers)


def test_a_phone_that_has_the_file_gets_304(server):
    path = static("tracker/app.js")
    _status, headers, _body = on_loop(server, "GET", path, {})
    etag = dict(headers)["etag"]
    answered = on_loop(server, "GET", path, {"If-None-Match": etag})
    assert answered == by_django("GET", path, {"If-None-Match": etag})
    assert answered[0] == 304 and answered[2] == b""


@override_settings(
    SECURE_HSTS_SECONDS=3600, SECURE_PROXY_SSL_HEADER=("HTTP_X_FORWARDED_PROTO", "https")
)
def test_a_secure_request_gets_the_secure_headers():
    server = StaticOnLoop()
    path = static("tracker/app.css")
    behind_proxy = {"X-Forwarded-Proto": "https"}
    answered = on_loop(server, "GET", path, behind_proxy)
    assert answered == by_django("GET", path, behind_proxy)
    assert "strict-transport-security" in dict(answered[1])
    plain = on_loop(server, "GET", path, {})
    assert plain == by_django("GET", path, {})
    assert "strict-transport-security" not in dict(plain[1])


@pytest.mark.parametrize(
    "method, path",
    [
        ("GET", "/static/tracker/no-such-file.js"),  # Django's 404 page
        ("GET", "/"),
        ("POST", "/static/tracker/app.js"),  # Django's 405 card
        ("OPTIONS", "/static/tracker/app.js"),
    ],
)
def test_anything_else_is_left_to_django(server, method, path):
    assert on_loop(server, method, path, {}) is None


@override_settings(WHITENOISE_AUTOREFRESH=True)
def test_with_autorefresh_every_file_is_left_to_django():
    assert on_loop(StaticOnLoop(), "GET", static("tracker/app.js"), {}) is None
