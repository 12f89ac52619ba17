"""Whose page loads a request counts against: its session's, or its
address's (issue 22: one client cannot starve the others; here, at a venue
where every phone shares one address).

The page loads waiting for a thread were held to HTTP_REQUESTS_PER_ADDRESS
from one address, and took turns by address (tracker/admission.py). A venue
behind one NAT is one address: one client there that loaded pages as fast as
it could kept the address's budget full, and every other phone of the venue
was answered "busy" (177 of 180 loads of ten seated phones, measured with 300
requests in flight). Now a request whose session cookie names a session this
process knows to be real counts against that session
(HTTP_REQUESTS_PER_SESSION) and takes its turn as that session; any other
(no cookie, or a cookie naming no session) counts against its address as
before. A client cannot make up sessions: a cookie is counted as a session
only once a response of ours has shown that the session exists (the view
read it, and the store had it, or it was saved), which a made-up value never
does. Real sessions come from claiming a seat or creating a match.

A process starts knowing the sessions its store holds unexpired
(learn_stored, from `manage.py serve`): they were saved by a response of
ours as well. Before, a laptop restarted mid-event (kill -9, `serve` again
on the same file) knew none, so every phone of the venue, reloading its
page or catching up at once, counted against the one address until its
socket or a page load got through. Past HTTP_REQUESTS_PER_ADDRESS loads at
once that meant "busy": of 200 phones (100 tables) coming back as app.js
does, 43 to 64 catch-up loads were answered busy; of 200 reloading their
page, 10 to 72, the last phone live 4.6 to 5.1 s after the restart. Now
none, and 2.8 to 3.7 s (bench/restart_venue.py; 60 tables stayed under
the address's budget either way). A cookie the store does not hold still
counts against its address.

Kept in this process's memory, most recently seen last, at most
KNOWN_SESSIONS of them: the admission runs on the event loop, which must
not wait for the cache or the database. A process that has not seen a
session yet (just started, or another of several) counts it against its
address until its first response there, unless its store held the
session at start.
"""

from __future__ import annotations

import logging
import threading
from collections import OrderedDict

from django.conf import settings

log = logging.getLogger(__name__)

KNOWN_SESSIONS = 50_000

_known: OrderedDict[str, None] = OrderedDict()
_lock = threading.Lock()


def is_known(session_key: str) -> bool:
    """Whether a response has shown this session to exist. Read on the
    event loop: a dict lookup, no lock (writes hold one)."""
    return session_key in _known


def remember(session_key: str) -> None:
    with _lock:
        _known[session_key] = None
        _known.move_to_end(session_key)
        while len(_known) > KNOWN_SESSIONS:
            _known.popitem(last=False)


def forget(session_key: str) -> None:
    with _lock:
        _known.pop(session_key, None)


def learn_stored() -> int:
    """Know the sessions the session store holds unexpired, the most
    recently saved last (and kept, if more than KNOWN_SESSIONS): one query
    at start, none per request. Only a store in the database can be listed
    (SESSION_ENGINE db or cached_db, ours); with another, none are learned.
    Returns how many were."""
    from importlib import import_module

    from django.db import DatabaseError
    from django.utils import timezone

    store = import_module(settings.SESSION_ENGINE).SessionStore
    if not hasattr(store, "get_model_class"):
        return 0
    try:
        keys = list(
            store.get_model_class()
            .objects.filter(expire_date__gt=timezone.now())
            .order_by("-expire_date")
            .values_list("session_key", flat=True)[:KNOWN_SESSIONS]
        )
    except DatabaseError as error:  # no tables yet (not migrated): learn none
        log.warning("sessions not learned at start: %r", error)
        return 0
    with _lock:
        for key in reversed(keys):
            _known[key] = None
            _known.move_to_end(key)
        while len(_known) > KNOWN_SESSIONS:
            _known.popitem(last=False)
    return len(keys)


def session_cookie(scope) -> str | None:
    """The session cookie's value in an ASGI request's headers, if any."""
    from django.http.cookie import parse_cookie

    name = settings.SESSION_COOKIE_NAME
    for key, value in scope.get("headers", []):
        if key == b"cookie":
            try:
                found = parse_cookie(value.decode("latin-1")).get(name)
            except Exception:  # a malformed header: as if there were none
                found = None
            if found:
                return found
    return None


def client_of(scope, address: str) -> tuple[str, int]:
    """Whom a page load counts against, and that client's budget of page
    loads in flight."""
    session_key = session_cookie(scope)
    if session_key and is_known(session_key):
        return f"session:{session_key}", settings.HTTP_REQUESTS_PER_SESSION
    return f"address:{address}", settings.HTTP_REQUESTS_PER_ADDRESS


class KnownSessionsMiddleware:
    """Remembers each session a response shows to exist. Listed before
    SessionMiddleware, so it sees the session as saved (a new or cycled key
    included). Reads nothing the view did not: a session the view never
    read is not loaded here (its key is whatever the cookie said)."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        response = self.get_response(request)
        session = getattr(request, "session", None)
        if session is not None:
            cookie = request.COOKIES.get(settings.SESSION_COOKIE_NAME)
            key = session.session_key
            if session.accessed or session.modified:
                # Loaded: a key the store did not have is None by now.
                if key:
                    remember(key)
                if cookie and cookie != key:
                    forget(cookie)  # made up, flushed or cycled away
        return response
