"""Which offline copy of a match page a browser may still be shown (issue 17).

The service worker (templates/tracker/pwa/sw.js) keeps the last match page
this browser was shown, for when the venue's Wi-Fi is gone. That page may
hold its seat's sealed information, so a copy must stop being shown once
the browser no longer holds what the page was rendered for. Offline, the
worker cannot ask the server; what it can read is a cookie. So:

- every response carries (or clears) the `tracker_copy` cookie: a tag of this
  browser's session, a keyed hash of its session key, "" without a session.
  It changes when the session does (a seat claimed or moved here cycles the
  key, a logout flushes it) and is gone when the cookies are cleared or the
  session cookie expires (both are set by the same responses);
- a page the worker may keep says so with the X-Tracker-Copy header (only the
  match page: never an organizer page, the host page or anything else), whose
  value is that same tag, and X-Tracker-Viewer, the seat it was rendered for;
- the worker shows a kept copy only while the cookie still equals the tag it
  was kept with, and drops it as soon as a page of that match, now live,
  says its viewer changed (a PIN move elsewhere takes the seat at the next
  push: static/tracker/app.js tells the worker).

The cookie is readable by scripts (not HttpOnly) on purpose: the worker reads
it through the Cookie Store API. It grants nothing: it is a one-way tag, and
the session cookie stays HttpOnly.
"""

from __future__ import annotations

import hmac

from django.conf import settings

COOKIE = "tracker_copy"
KEEP_HEADER = "X-Tracker-Copy"
VIEWER_HEADER = "X-Tracker-Viewer"


def tag(session) -> str:
    """This session's tag ("" without a session)."""
    key = getattr(session, "session_key", None)
    if not key:
        return ""
    digest = hmac.new(settings.SECRET_KEY.encode(), b"offline-copy:" + key.encode(), "sha256")
    return digest.hexdigest()[:32]


def may_keep(response, viewer: str | None):
    """Mark a match page as one the worker may keep offline (the tag itself
    is filled in by the middleware, once the session is saved)."""
    response[KEEP_HEADER] = "1"
    response[VIEWER_HEADER] = viewer or ""
    return response


class OfflineCopyMiddleware:
    """Sets the tag cookie after the session is saved: listed before
    SessionMiddleware, so its answer passes here last."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        response = self.get_response(request)
        value = tag(getattr(request, "session", None))
        if response.has_header(KEEP_HEADER):
            response[KEEP_HEADER] = value
        session_cookie_set = settings.SESSION_COOKIE_NAME in response.cookies
        if request.COOKIES.get(COOKIE, "") != value or session_cookie_set:
            if value:
                response.set_cookie(
                    COOKIE,
                    value,
                    max_age=settings.SESSION_COOKIE_AGE,
                    samesite="Lax",
                    secure=settings.SESSION_COOKIE_SECURE,
                    httponly=False,
                )
            else:
                response.delete_cookie(COOKIE, samesite="Lax")
        return response
