"""Websocket handshakes: an exact same-origin check, and per-client socket
counts.

Channels' AllowedHostsOriginValidator (kept, in front) compares only the
Origin's host with ALLOWED_HOSTS: another web app on the same host or LAN
name (http://host:9999) passed it and could open a player's socket with her
cookie. No Channels or Django piece compares scheme and port, so this one
does: the Origin must be exactly the origin the socket was opened on
(scheme, host and port of the Host header), as a browser's own page sends.
"""

from __future__ import annotations

from urllib.parse import urlsplit

from channels.security.websocket import WebsocketDenier
from django.conf import settings

DEFAULT_PORTS = {"http": 80, "https": 443}


def _header(scope, name: bytes) -> str | None:
    for key, value in scope.get("headers", []):
        if key == name:
            try:
                return value.decode("latin1")
            except UnicodeDecodeError:
                return None
    return None


def _origin_tuple(scheme: str, netloc: str) -> tuple[str, str, int] | None:
    try:
        parts = urlsplit(f"{scheme}://{netloc}")
        port = parts.port or DEFAULT_PORTS.get(scheme)
    except ValueError:
        return None
    if not parts.hostname or port is None:
        return None
    return scheme, parts.hostname.lower(), port


def served_origin(scope) -> tuple[str, str, int] | None:
    """(scheme, host, port) of the page that may open this socket."""
    host = _header(scope, b"host")
    if not host:
        return None
    scheme = "https" if scope.get("scheme") in ("wss", "https") else "http"
    if settings.BEHIND_PROXY:
        # Behind our own TLS proxy the socket reaches us as ws://.
        forwarded = (_header(scope, b"x-forwarded-proto") or "").split(",")[0].strip().lower()
        if forwarded in DEFAULT_PORTS:
            scheme = forwarded
    return _origin_tuple(scheme, host)


def claimed_origin(scope) -> tuple[str, str, int] | None:
    origin = _header(scope, b"origin")
    if not origin:
        return None
    try:
        parts = urlsplit(origin)
    except ValueError:
        return None
    if parts.scheme not in DEFAULT_PORTS or parts.path not in ("", "/") or parts.query:
        return None
    return _origin_tuple(parts.scheme, parts.netloc)


class SameOriginValidator:
    """Refuse a handshake whose Origin is not exactly the served origin."""

    def __init__(self, application):
        self.application = application

    async def __call__(self, scope, receive, send):
        claimed = claimed_origin(scope)
        if claimed is None or claimed != served_origin(scope):
            return await WebsocketDenier()(scope, receive, send)
        return await self.application(scope, receive, send)
