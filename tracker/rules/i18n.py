"""Translation markers for the pure rules package.

The rules must not import Django, yet every message they produce is shown to a
player in their language. `_` only marks a string for extraction
(makemessages picks up `_(...)`); the web layer translates it with gettext
when it renders. Messages use %(name)s placeholders filled afterwards.
"""


def _(message: str) -> str:
    return message
