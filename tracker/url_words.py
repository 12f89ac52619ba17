"""The `word` path converter: the links' own alphabet, nothing else.

Every string a URL carries (a match code, a seat or list link's token, a
command's name, a seat letter, a tap's action id, a clock action) is made of
letters, digits, "-" and "_" (secrets.token_urlsafe, CamelCase names). With
Django's `str` converter any other character reached the views, and the
views look codes and tokens up in the database: PostgreSQL refuses a text
with U+0000 in it, so a link with "%00" in it was a 500 there (a guessed or
mangled link at the venue, or a curious player's). A path outside the
alphabet now matches no route: our own 404 page, in the phone's language,
and the websocket's clean 4404 close."""

from __future__ import annotations

from django.urls import register_converter


class WordConverter:
    regex = "[A-Za-z0-9_-]+"

    def to_python(self, value: str) -> str:
        return value

    def to_url(self, value: str) -> str:
        return value


register_converter(WordConverter, "word")
