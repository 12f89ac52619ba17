"""Who is an organizer: an active staff user, or a member of the
"organizers" group (managed by superusers in the Django admin)."""

from __future__ import annotations

from functools import wraps

from django.contrib.auth.views import redirect_to_login
from django.core.exceptions import PermissionDenied

GROUP = "organizers"


def is_organizer(user) -> bool:
    if not (user.is_authenticated and user.is_active):
        return False
    if user.is_staff:
        return True
    cached = getattr(user, "_is_organizer", None)
    if cached is None:
        cached = user.groups.filter(name=GROUP).exists()
        user._is_organizer = cached
    return cached


def organizer_required(view):
    """Anonymous visitors go to the login page; a logged-in account that is
    not an organizer gets 403 and nothing else."""

    @wraps(view)
    def wrapped(request, *args, **kwargs):
        if not request.user.is_authenticated:
            return redirect_to_login(request.get_full_path())
        if not is_organizer(request.user):
            raise PermissionDenied
        return view(request, *args, **kwargs)

    return wrapped
