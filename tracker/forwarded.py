"""Behind our own reverse proxy (BEHIND_PROXY), the client is the address
that proxy saw: the last address of X-Forwarded-For.

daphne's --proxy-headers takes the first. A proxy that appends to the
header (nginx's usual `$proxy_add_x_forwarded_for`) passes on whatever the
client itself sent in front of the address it adds: a phone sending
"X-Forwarded-For: 1.2.3.4" was counted as 1.2.3.4, and could dodge every
per-address limit (sockets, wrong seat links, logins) or spend another
address's. The last address is the one our proxy wrote, whether it appends
or replaces; the proxy's own address is daphne's, as before, when the
header is missing.

Ours: daphne has no setting for which entry to trust, and Django reads
REMOTE_ADDR from the scope's client (a2wsgi's environ, tracker/http.py).
Read here only: `serve` no longer passes --proxy-headers, whose address
(and port) this replaced, so the header was parsed twice per request and
connect. Its other effect, the scope's scheme from X-Forwarded-Proto, no
reader needs: Django (SECURE_PROXY_SSL_HEADER), tracker/static_on_loop.py
and tracker/ws_security.py read that header themselves behind our proxy.
"""

from __future__ import annotations

FORWARDED_FOR = b"x-forwarded-for"


def last_forwarded(headers) -> str | None:
    """The last address of the request's X-Forwarded-For headers, or None."""
    last = None
    for name, value in headers:
        if name.lower() == FORWARDED_FOR:
            entries = [e.strip() for e in value.decode("latin-1").split(",") if e.strip()]
            if entries:
                last = entries[-1]
    return last


class ForwardedClient:
    """ASGI: the scope's client is the address our proxy saw (HTTP and
    websockets alike). Only installed with BEHIND_PROXY (tracker/asgi.py)."""

    def __init__(self, app) -> None:
        self.app = app

    async def __call__(self, scope, receive, send):
        if scope["type"] in ("http", "websocket"):
            address = last_forwarded(scope.get("headers") or ())
            if address:
                port = (scope.get("client") or (None, 0))[1]
                scope = {**scope, "client": [address, port]}
        return await self.app(scope, receive, send)
