from django import template
from django.utils.translation import gettext, ngettext

from tracker.labels import label as label_of
from tracker.rules.i18n import Plural

register = template.Library()


@register.filter
def label(code):
    return label_of(code)


@register.filter
def seat_name(view, seat):
    """A player's display name in a view, or the seat letter."""
    for candidate in view.seats:
        if candidate.seat == seat:
            return candidate.name or gettext("Seat %(seat)s") % {"seat": seat}
    return seat


@register.simple_tag
def log_text(line, view):
    """A log line in the reader's language, seats shown by player name."""
    params = dict(line.params)
    # Seat letters stay as they are; "<key>_name" is the player's name.
    for key in ("seat", "first_turn", "deploys_first", "by"):
        if params.get(key) in ("A", "B"):
            params[f"{key}_name"] = seat_name(view, params[key])
    for key in ("phase", "condition", "secret_kind", "skill", "outcome", "element", "real"):
        if key in params:
            params[key] = label_of(params[key])
    if "rule" in params:
        params["rule"] = label_of(params["rule"])
    message = line.message
    if isinstance(message, Plural):
        try:
            number = int(params[message.key])
        except (KeyError, TypeError, ValueError):
            number = 2
        text = ngettext(message.singular, str(message), number)
    else:
        text = gettext(message)
    try:
        return text % params
    except (KeyError, TypeError, ValueError):
        return text


@register.filter
def at(mapping, key):
    """mapping[key] in a template, or None."""
    try:
        return mapping.get(key)
    except AttributeError:
        return None


@register.filter
def seat_of(view, letter):
    return view.seat(letter)
