"""A refused organizer form says so at the top of its page too.

The run page and the event page are long pages of forms, and a refused one
comes back scrolled to the top with its errors only under the form: on an
organizer's phone (360 px) "Draw the next round" with a table unfinished
showed the roster, unchanged, and the refusal 3,400 px below. Each error
also heads the page, among its messages; the form keeps its errors and
what was typed.
"""

from __future__ import annotations

from collections.abc import Iterable

from django import forms
from django.contrib import messages
from django.utils.translation import gettext as _


def refusal(label: str | None, error: str) -> str:
    """One refusal heading the page: "Not done", what to check, then the
    error as its own sentence. Not "Not done: Name: Ana is already…": in
    Spanish a colon is followed by a lowercase word, and the error's first
    word may be a name ("Ana") that lowercasing would spoil; so nothing of
    the error follows a colon, and the error keeps its capital."""
    if label:
        return _("Not done: check “%(label)s”. %(reason)s") % {"label": label, "reason": error}
    return _("Not done. %(reason)s") % {"reason": error}


def refusals_on_top(request, refused: Iterable[forms.Form]) -> None:
    for form in refused:
        for field, errors in form.errors.items():
            label = form.fields[field].label if field in form.fields else None
            for error in errors:
                messages.error(request, refusal(label, error))
