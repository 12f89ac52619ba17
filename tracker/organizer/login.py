"""Password guessing on the organizer and admin logins: django-ratelimit (a
well-kept library) counts login posts per client address in the cache, and
an address over the limit is told to wait. Counted per address, never per
account: counting per username would let anyone lock an organizer out of
their own account by guessing at it (the seat-PIN lesson of issue 11)."""

from __future__ import annotations

from functools import wraps

from django.conf import settings
from django.shortcuts import render
from django.utils.translation import gettext as _
from django_ratelimit.core import is_ratelimited


def limited_login(view):
    @wraps(view)
    def wrapped(request, *args, **kwargs):
        if request.method == "POST" and is_ratelimited(
            request,
            group="login",
            key="ip",
            rate=settings.LOGIN_RATE,
            method="POST",
            increment=True,
        ):
            message = _("Too many login attempts from here. Wait a few minutes and try again.")
            return render(request, "tracker/message.html", {"message": message}, status=429)
        return view(request, *args, **kwargs)

    return wrapped
