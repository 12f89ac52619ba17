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


def refusals_on_top(request, refused: Iterable[forms.Form]) -> None:
    for form in refused:
        for field, errors in form.errors.items():
            label = form.fields[field].label if field in form.fields else None
            for error in errors:
                reason = f"{label}: {error}" if label else error
                messages.error(request, _("Not done: %(reason)s") % {"reason": reason})
