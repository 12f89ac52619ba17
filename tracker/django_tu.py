"""Django's own messages that reach a player or an organizer, in the "tú"
the rest of the app speaks.

Django's Spanish catalogue speaks "usted": a points limit of 40 on the
home page read "Asegúrese de que este valor es mayor o igual a 50.", a
bad date in the organizer's filters "Introduzca una fecha válida.", next
to our "Escribe el nombre del jugador.". The project's catalogue
(LOCALE_PATHS) is read before Django's, so each message below, translated
there, replaces Django's for every form. Nothing calls this module: its
marks keep `makemessages --no-obsolete` from dropping those entries.

Which messages: every one a field or validator of the app's forms can
raise (and the login form's, though its page words its own refusal);
tests/web/test_django_messages_tu.py lists them from the forms themselves
and fails on one missing here. The admin is staff-only and stays Django's.
"""

from __future__ import annotations

from django.utils.translation import gettext_noop, ngettext_lazy

MESSAGES = (
    # Fields (django/forms/fields.py).
    gettext_noop("Enter a whole number."),
    gettext_noop("Enter a valid date."),
    gettext_noop("Enter a valid date/time."),
    gettext_noop("Select a valid choice. %(value)s is not one of the available choices."),
    gettext_noop("Enter a list of values."),
    # Validators (django/core/validators.py).
    gettext_noop("Enter a valid value."),
    gettext_noop("Ensure this value is less than or equal to %(limit_value)s."),
    gettext_noop("Ensure this value is greater than or equal to %(limit_value)s."),
    # The login form (django/contrib/auth/forms.py).
    gettext_noop(
        "Please enter a correct %(username)s and password. Note that both fields may be "
        "case-sensitive."
    ),
)

MAX_LENGTH = ngettext_lazy(
    "Ensure this value has at most %(limit_value)d character (it has %(show_value)d).",
    "Ensure this value has at most %(limit_value)d characters (it has %(show_value)d).",
    "limit_value",
)
