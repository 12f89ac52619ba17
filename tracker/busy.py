"""When the database cannot be reached in time (the connection pool stayed
exhausted past DB_POOL_TIMEOUT, SQLite stayed locked), a request answers
503 "busy, tap again" in the phone's language, never a 500 with a traceback.
Nothing was written: the write path commits whole or not at all, and the
action id makes the repeated tap count once."""

from __future__ import annotations

import logging
import random

from django.db import InterfaceError, OperationalError
from django.http import HttpResponse
from django.utils import translation
from django.utils.html import escape
from django.utils.translation import gettext as _

from tracker.actions import Busy

log = logging.getLogger(__name__)


def busy_body(htmx: bool, method: str = "POST") -> str:
    """ "Busy, tap again" in the active language: a fragment for htmx (app.js
    shows it atop the controls and sends the tap again by itself), a page
    otherwise. A page load's (GET) page loads itself again a moment later
    (issue 18: at a round's start a venue's phones open their tables at once,
    and the ones past the server's page budget were left on a bare "tap
    again" with nothing to tap); a form sent without htmx keeps "tap again",
    since loading its address again would not send it."""
    if htmx:
        message = escape(_("The tracker is busy; tap again."))
        return f'<p class="error busy" role="alert">{message}</p>'
    if method not in ("GET", "HEAD"):
        # A whole page in place of the form's (a seat's claim at a round's
        # start, a new match): it has nothing to tap, so it says where the
        # form is. Back shows it as it was filled.
        message = escape(_("The tracker is busy and nothing was done: go back and send it again."))
        language = escape(translation.get_language() or "en")
        return (
            f'<!doctype html><html lang="{language}"><meta charset="utf-8">'
            '<meta name="viewport" content="width=device-width, initial-scale=1">'
            f'<title>{message}</title><main><p role="alert">{message}</p></main></html>'
        )
    message = escape(_("The tracker is busy: this page loads again by itself in a moment."))
    again = escape(_("Load it now"))
    # Jittered, so that a venue's phones shed together do not come back together.
    wait = random.randint(2, 4)  # noqa: S311 (not a secret)
    language = escape(translation.get_language() or "en")
    return (
        f'<!doctype html><html lang="{language}"><meta charset="utf-8">'
        '<meta name="viewport" content="width=device-width, initial-scale=1">'
        f'<meta http-equiv="refresh" content="{wait}"><title>{message}</title>'
        f'<main><p role="alert">{message}</p><p><a href="">{again}</a></p></main></html>'
    )


def busy_response(request) -> HttpResponse:
    htmx = bool(getattr(request, "htmx", False))
    response = HttpResponse(busy_body(htmx, request.method), status=503)
    response["Retry-After"] = "1"
    return response


class BusyMiddleware:
    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        return self.get_response(request)

    def process_exception(self, request, exception):
        if isinstance(exception, OperationalError | InterfaceError | Busy):
            log.warning("busy: %s %s: %r", request.method, request.path, exception)
            return busy_response(request)
        return None
