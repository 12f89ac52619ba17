"""When the database cannot be reached in time (the connection pool stayed
exhausted past DB_POOL_TIMEOUT, SQLite stayed locked), a request answers
503 "busy, tap again" in the phone's language, never a 500 with a traceback.
Nothing was written: the write path commits whole or not at all, and the
action id makes the repeated tap count once."""

from __future__ import annotations

import logging

from django.db import InterfaceError, OperationalError
from django.http import HttpResponse
from django.utils.html import escape
from django.utils.translation import gettext as _

from tracker.actions import Busy

log = logging.getLogger(__name__)


def busy_body(htmx: bool) -> str:
    """ "Busy, tap again" in the active language: a fragment for htmx (app.js
    shows it atop the controls), a page otherwise."""
    message = escape(_("The tracker is busy; tap again."))
    if htmx:
        return f'<p class="error busy" role="alert">{message}</p>'
    return f'<!doctype html><title>{message}</title><main><p role="alert">{message}</p></main>'


def busy_response(request) -> HttpResponse:
    response = HttpResponse(busy_body(bool(getattr(request, "htmx", False))), status=503)
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
