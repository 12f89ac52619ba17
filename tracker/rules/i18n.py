"""Translation markers for the pure rules package.

The rules must not import Django, yet every message they produce is shown to a
player in their language. `_` only marks a string for extraction
(makemessages picks up `_(...)`); the web layer translates it with gettext
when it renders. Messages use %(name)s placeholders filled afterwards; a
param that is itself a marked message is translated too.
"""

from __future__ import annotations


class Text(str):
    """A marked message. As a param of another message ("%(what)s is too
    long", what=_("The Fireteam's name")) the web layer translates it too
    when it renders (tracker_tags.marker_names): a plain str param is shown
    as it is, which is how that label reached a Spanish phone in English
    (issue 22)."""


def _(message: str) -> Text:
    return Text(message)


class Plural(str):
    """A message with a singular and a plural form, chosen by the number in
    params[`key`] when the web layer translates it (ngettext). As a str it is
    the plural msgid, so anything that ignores plurals still reads it."""

    singular: str
    key: str

    def __new__(cls, singular: str, plural: str, key: str) -> Plural:
        message = super().__new__(cls, plural)
        message.singular = singular
        message.key = key
        return message


def ngettext(singular: str, plural: str, key: str) -> Plural:
    """Marks a plural message for extraction (makemessages reads ngettext's
    first two arguments); `key` names the param that holds the number."""
    return Plural(singular, plural, key)
