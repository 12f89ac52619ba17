"""Our own refusal and error pages (issue 22): 400, 403, 404, 500 and a CSRF
failure each render templates/tracker/error.html, the app's message card, in
the phone's language (LocaleMiddleware has run by the time Django calls
these), instead of Django's bare English pages. Wired in tracker/urls.py
(handler400 ... handler500) and settings.CSRF_FAILURE_VIEW; a 405, which
Django answers blank from require_POST / require_GET with no handler to
set, is given the card by NotAllowedMiddleware (settings.MIDDLEWARE).

With DEBUG off no page shows a traceback; the 500 page falls back to plain
HTML if rendering the template itself fails (the error may be the database,
which the session and messages behind base.html read)."""

from __future__ import annotations

import logging

from django.conf import settings
from django.contrib import messages
from django.core.exceptions import RequestDataTooBig, TooManyFieldsSent
from django.http import Http404, HttpResponse, HttpResponseNotAllowed
from django.shortcuts import render
from django.utils import translation
from django.utils.html import escape
from django.utils.translation import gettext as _

from tracker import uploads
from tracker.models import TournamentEvent

log = logging.getLogger(__name__)


def _page(request, status: int, title: str, message: str) -> HttpResponse:
    return render(
        request, "tracker/error.html", {"title": title, "message": message}, status=status
    )


def bad_request(request, exception=None):
    if isinstance(exception, (RequestDataTooBig, TooManyFieldsSent)):
        return uploads.refused_body(request)
    return _page(
        request,
        400,
        _("This request could not be read"),
        _(
            "The page sent something the tracker cannot read. Go back, reload the page and try again."
        ),
    )


def permission_denied(request, exception=None):
    return _page(
        request,
        403,
        _("Not allowed"),
        _("This page is not open to you. If it is your seat, open your seat's link again."),
    )


def forbidden(request, message: str) -> HttpResponse:
    """A 403 a view decides, with its own reason, on the same card."""
    return _page(request, 403, _("Not allowed"), message)


def not_a_player(request) -> HttpResponse:
    """A player's action from a browser that holds no seat of the match: 403.
    A phone's tap (htmx) also has its page loaded again, with the reason atop
    it: a phone whose seat moved to another phone with its PIN, or was handed
    on, while it slept or its Wi-Fi stalled still showed its old page, and a
    tap on it did nothing at all (htmx swaps no 403) until its socket came
    back. htmx reads HX-Refresh before it decides not to swap."""
    response = forbidden(request, _("Only the two players can act in this match."))
    if getattr(request, "htmx", False):
        messages.error(
            request,
            _(
                "This phone holds no seat in this match, so it only watches: a seat moved "
                "to another phone with its PIN, or handed to a new phone, leaves its old "
                "phone watching."
            ),
        )
        response["HX-Refresh"] = "true"
    return response


class EventNotFound(Http404):
    """No event has that number: the 404 page says so, not "no match"."""


def event_or_404(pk: int) -> TournamentEvent:
    """The event `pk`, for its public and organizer pages, or an event 404."""
    try:
        return TournamentEvent.objects.get(pk=pk)
    except TournamentEvent.DoesNotExist:
        raise EventNotFound from None


def page_not_found(request, exception=None):
    if isinstance(exception, EventNotFound):
        return _page(
            request,
            404,
            _("Event not found"),
            _("There is no event with this number. Check the link."),
        )
    return _page(
        request,
        404,
        _("Page not found"),
        _("There is no match with this code, or no such page. Check the link or the code."),
    )


def method_not_allowed(request, response: HttpResponse) -> HttpResponse:
    """The card for Django's blank 405, keeping its status and Allow header;
    a short fragment for htmx, which shows it atop the controls."""
    allowed = {m.strip() for m in response.get("Allow", "").split(",")}
    if "GET" in allowed:
        message = _("This page does not take that request. Reload it and try again.")
    else:
        message = _(
            "This address takes the app's forms and buttons; it is not opened directly. "
            "Go back to the page and use its buttons."
        )
    if getattr(request, "htmx", False):
        page = HttpResponse(f'<p class="error" role="alert">{escape(message)}</p>', status=405)
    else:
        page = _page(request, 405, _("Not available this way"), message)
    page["Allow"] = response["Allow"]
    return page


# The methods any address of ours may take. Any other (PUT, DELETE, a
# made-up one) is refused here, before the CSRF check would call it an
# expired form.
METHODS = ("GET", "HEAD", "POST", "OPTIONS")


class NotAllowedMiddleware:
    """Django's own 405s (HttpResponseNotAllowed, an empty body) become
    method_not_allowed's card, in the language LocaleMiddleware chose; so
    does a method no address takes."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        if request.method not in METHODS:
            return method_not_allowed(request, HttpResponseNotAllowed(["GET", "HEAD", "POST"]))
        response = self.get_response(request)
        if (
            response.status_code == 405
            and isinstance(response, HttpResponseNotAllowed)
            and not response.content
        ):
            return method_not_allowed(request, response)
        return response


def csrf_failure(request, reason=""):
    response = _page(
        request,
        403,
        _("This form has expired"),
        _(
            "The page was open too long or the browser refused its cookie. Reload the page "
            "and send the form again."
        ),
    )
    # Nothing of the request was read: app.js renews the page's token and
    # sends the same tap again (a login in another tab renews the cookie).
    response["X-Tracker-Csrf"] = "expired"
    return response


def server_error(request):
    title = _("Something went wrong")
    message = _("The tracker could not answer this request. Wait a moment and try again.")
    try:
        return _page(request, 500, title, message)
    except Exception:  # the page itself failed: say the same in plain HTML
        log.exception("the 500 page could not be rendered")
        # In the phone's language, and said so (a screen reader reads it so).
        language = escape(translation.get_language() or settings.LANGUAGE_CODE)
        body = (
            f'<!doctype html><html lang="{language}"><title>{escape(title)}</title>'
            f"<h1>{escape(title)}</h1><p>{escape(message)}</p>"
        )
        return HttpResponse(body, status=500)
