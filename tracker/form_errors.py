"""A player form's errors shown as the app shows every refusal: in the
styled `.error` box, announced to a screen reader (role="alert"), and with
the id Django 5.2 points the field's aria-describedby at.

Django's own list is a bare `ul.errorlist`, which app.css leaves unstyled:
on the home, claim and move pages a wrong PIN or a bad points limit read as
plain text under the field. The pages keep `form.as_p` (its labels, help
texts and their aria ids); only the list's markup is ours. A class already
styled rather than a new CSS rule: the player's first load is within bytes
of its budget (tests/web/test_first_load.py).
"""

from __future__ import annotations

from django import forms
from django.forms.utils import ErrorList
from django.utils.html import format_html, format_html_join


class AlertErrorList(ErrorList):
    def render(self, template_name=None, context=None, renderer=None):
        if not self:
            return ""
        ident = format_html(' id="{}_error"', self.field_id) if self.field_id else ""
        items = format_html_join("", "<li>{}</li>", ((error,) for error in self))
        return format_html(
            '<ul class="{} error" role="alert"{}>{}</ul>', self.error_class, ident, items
        )

    __str__ = as_ul = render


class PlayerForm(forms.Form):
    """A form of the player's pages: its errors in an AlertErrorList."""

    def __init__(self, *args, **kwargs):
        kwargs.setdefault("error_class", AlertErrorList)
        super().__init__(*args, **kwargs)
