"""Static files served on the event loop, never on one of the HTTP threads.

A page's scripts and styles used to wait for a thread like a page load, in
the page loads' line and budget (tracker/admission.py): under a burst of
first loads (a round starting, every phone opening its match) the page came
back and its scripts were shed with 503, leaving a page that never went
live. Serving a static file is a dictionary lookup, an open and a read of a
small file the OS has cached: nothing that needs a thread, and nothing worth
queueing behind renders.

WhiteNoise still does the work: its table of files (built once at start,
with the gzip and brotli copies collectstatic made), its content
negotiation, ETags, 304s and ranges. Only the glue is ours: WhiteNoise runs
as WSGI or Django middleware, both on a thread; servestatic (its ASGI fork)
would replace WhiteNoise and our storage built on it for the same result.

The headers are those Django's middleware would have added ahead of
WhiteNoise's (security, CSP), read once at start for a plain and a secure
request, so a file is answered byte for byte as before. With autorefresh
(DEBUG) WhiteNoise looks files up on disk at each request: those, and any
path not in the table, go to Django as before.
"""

from __future__ import annotations

import warnings

from django.conf import settings
from django.http import HttpRequest, HttpResponse
from django.utils.module_loading import import_string
from whitenoise.middleware import WhiteNoiseMiddleware

WHITENOISE = "whitenoise.middleware.WhiteNoiseMiddleware"
CHUNK = 64 * 1024


class StaticOnLoop:
    def __init__(self) -> None:
        with warnings.catch_warnings():
            # "No directory at: STATIC_ROOT" before collectstatic: Django's
            # own WhiteNoiseMiddleware has said so already.
            warnings.simplefilter("ignore", UserWarning)
            self.files = WhiteNoiseMiddleware()
        self.ahead = {secure: _headers_ahead(secure) for secure in (False, True)}
        self.enabled = WHITENOISE in settings.MIDDLEWARE and not self.files.autorefresh

    async def serve(self, scope, send) -> bool:
        """Answer the request if it is one of the static files: True when
        it was answered, False to leave it to Django."""
        if not self.enabled or scope["method"] not in ("GET", "HEAD"):
            return False
        static_file = self.files.files.get(scope["path"])
        if static_file is None:
            return False
        request_headers = _meta(scope["headers"])
        response = static_file.get_response(scope["method"], request_headers)
        headers = [(k.lower().encode("latin-1"), v.encode("latin-1")) for k, v in response.headers]
        headers += self.ahead[_is_secure(scope, request_headers)]
        await send(
            {"type": "http.response.start", "status": int(response.status), "headers": headers}
        )
        if response.file is None:
            await send({"type": "http.response.body", "body": b""})
            return True
        with response.file as file:
            chunk = file.read(CHUNK)
            while True:
                following = file.read(CHUNK)
                await send(
                    {"type": "http.response.body", "body": chunk, "more_body": bool(following)}
                )
                if not following:
                    return True
                chunk = following


def _meta(raw_headers) -> dict[str, str]:
    """The request's headers as WhiteNoise reads them (WSGI's HTTP_ names)."""
    meta = {}
    for name, value in raw_headers:
        key = "HTTP_" + name.decode("latin-1").upper().replace("-", "_")
        meta[key] = value.decode("latin-1")
    return meta


def _is_secure(scope, meta: dict[str, str]) -> bool:
    """As Django's request.is_secure(): the scheme, or the proxy's header
    when SECURE_PROXY_SSL_HEADER trusts one (BEHIND_PROXY)."""
    proxy = getattr(settings, "SECURE_PROXY_SSL_HEADER", None)
    if proxy:
        name, secure_value = proxy
        value = meta.get(name)
        if value is not None:
            return value.split(",", 1)[0].strip() == secure_value
    return scope.get("scheme") == "https"


def _headers_ahead(secure: bool) -> list[tuple[bytes, bytes]]:
    """The headers the middleware ahead of WhiteNoise's adds to a response
    WhiteNoise gives: those classes run once over a bare request."""
    if WHITENOISE not in settings.MIDDLEWARE:
        return []
    ahead = settings.MIDDLEWARE[: settings.MIDDLEWARE.index(WHITENOISE)]

    def bare(_request):
        response = HttpResponse()
        del response["Content-Type"]
        return response

    handler = bare
    for path in reversed(ahead):
        handler = import_string(path)(handler)
    request = HttpRequest()
    request.method = "GET"
    request.path = request.path_info = settings.STATIC_URL
    request.META = {"SERVER_NAME": "localhost", "SERVER_PORT": "80"}
    request.is_secure = lambda: secure
    response = handler(request)
    return [(k.lower().encode("latin-1"), v.encode("latin-1")) for k, v in response.items()]
