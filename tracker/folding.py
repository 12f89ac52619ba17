"""Accent- and case-insensitive matching of player names, the same on SQLite
and PostgreSQL, with no extension and no extra column.

"Martinez" must find "Martínez". PostgreSQL's unaccent needs an extension the
database user may not be allowed to create, and a stored folded column would
have to be kept in step by every writer of a name; instead both databases fold
the column the same way at query time: PostgreSQL with its built-in
translate(lower(x), FROM, TO), SQLite with a Python function registered on
each new connection. The search text is folded in Python with the same table.
Organizer searches run over at most a few thousand seats, so scanning is fine.
"""

from __future__ import annotations

import unicodedata

from django.db.backends.signals import connection_created
from django.db.models import CharField, Func

# Lower-case letters with diacritics used in Spanish, Catalan, Portuguese,
# French, German and Italian names, and what they fold to.
ACCENTED = "áàâäãåāéèêëēíìîïīóòôöõøōúùûüūñçýÿ"
PLAIN = "aaaaaaaeeeeeiiiiiooooooouuuuuncyy"
assert len(ACCENTED) == len(PLAIN)
_TABLE = str.maketrans(ACCENTED, PLAIN)
SQLITE_FUNCTION = "tracker_fold"


def fold(text: str | None) -> str:
    """Lower case, diacritics dropped: "Íñigo MARTÍNEZ" -> "inigo martinez"."""
    return (text or "").lower().translate(_TABLE)


def name_key(name: str) -> str:
    """One player, however the name is typed: spaces squeezed, case and
    accents folded ("Íñigo  Pérez" is "inigo perez"). The roster, the
    handed lists and the standings all find a player by it: a list handed
    as "Íñigo Pérez" is the list of the pairing typed "inigo perez". An
    accent typed as a combining mark (NFD, as some Mac programs copy it) is
    composed first: it looks the same, so it is the same player."""
    return fold(unicodedata.normalize("NFC", " ".join(name.split())))[:60]


class Folded(Func):
    """fold() of a text column, as SQL."""

    output_field = CharField()

    def as_sql(self, compiler, connection, **extra):
        if connection.vendor == "postgresql":
            return self.as_postgresql(compiler, connection, **extra)
        return super().as_sql(compiler, connection, function=SQLITE_FUNCTION.upper(), **extra)

    def as_postgresql(self, compiler, connection, **extra):
        sql, params = compiler.compile(self.source_expressions[0])
        return f"translate(lower({sql}), %s, %s)", [*params, ACCENTED, PLAIN]


def _register_sqlite_function(sender, connection, **kwargs):
    if connection.vendor == "sqlite":
        connection.connection.create_function(SQLITE_FUNCTION, 1, fold, deterministic=True)


connection_created.connect(_register_sqlite_function, dispatch_uid="tracker-fold")
