"""Password guessing on the organizer and admin logins: django-ratelimit (a
well-kept library) counts login posts in the cache, and a client over the
limit is told to wait. Never counted per account alone: that would let
anyone lock an organizer out of their own account by guessing at it (the
seat-PIN lesson of issue 11).

Counted per address, but a venue behind one NAT is one address: any player
posting ten wrong passwords there locked every organizer out for five
minutes, again and again. So a browser that has signed in as an account
(a signed device cookie, OWASP's "device cookies" defence against online
guessing) has a count of its own for that account: the venue's guesses
never lock out the organizer's laptop or phone, and a guesser without that
cookie is counted by address as before. Only a sign-in that worked sets it,
and it names one account: it gives no one more guesses at another."""

from __future__ import annotations

import secrets
from functools import wraps

from django.conf import settings
from django.shortcuts import render
from django.utils.translation import gettext as _
from django_ratelimit.core import is_ratelimited

DEVICE_COOKIE = "tracker_login_device"
_SALT = "tracker.organizer.login.device"
# A year: an organizer's laptop stays trusted from one season to the next.
DEVICE_AGE = 60 * 60 * 24 * 365


def trusted_device(request, username: str) -> str | None:
    """This browser's device token for `username`, if it signed in here as
    that account before (a cookie we signed; anything else is no token)."""
    value = request.get_signed_cookie(DEVICE_COOKIE, default="", salt=_SALT, max_age=DEVICE_AGE)
    account, _sep, token = value.rpartition(":")
    return token if token and username and account == username else None


def _trust(request, response, username: str) -> None:
    """After a sign-in that worked: this browser is a device of `username`."""
    user = getattr(request, "user", None)
    if not (user and user.is_authenticated and user.get_username() == username):
        return
    if trusted_device(request, username):
        return
    response.set_signed_cookie(
        DEVICE_COOKIE,
        f"{username}:{secrets.token_urlsafe(12)}",
        salt=_SALT,
        max_age=DEVICE_AGE,
        httponly=True,
        samesite="Lax",
        secure=settings.SESSION_COOKIE_SECURE,
    )


def limited_login(view):
    @wraps(view)
    def wrapped(request, *args, **kwargs):
        if request.method != "POST":
            return view(request, *args, **kwargs)
        username = request.POST.get("username", "")
        device = trusted_device(request, username)
        if device:
            group, key = "login-device", lambda _group, _request: f"{username}:{device}"
        else:
            group, key = "login", "ip"
        if is_ratelimited(
            request,
            group=group,
            key=key,
            rate=settings.LOGIN_RATE,
            method="POST",
            increment=True,
        ):
            message = _(
                "Too many login attempts from here. Wait a few minutes and try again, "
                "or sign in on a device you have signed in with before."
            )
            return render(request, "tracker/message.html", {"message": message}, status=429)
        response = view(request, *args, **kwargs)
        _trust(request, response, username)
        return response

    return wrapped
