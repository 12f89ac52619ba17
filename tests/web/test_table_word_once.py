"""The home page's Table box takes a table's name or number: "Mesa 3" typed
there read "Mesa Mesa 3" on the match page, which puts the word itself."""

from __future__ import annotations

import pytest

from .phone import Phone

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize(
    ("language", "typed", "shown"),
    [
        ("es", "Mesa 3", "Mesa 3"),
        ("es", "mesa nº 12", "Mesa 12"),
        ("en", "Table 3", "Table 3"),
        ("en", "table #7", "Table 7"),
        ("en", "Mesa", "Table Mesa"),  # a name that is only the word stays as typed
        ("en", "Tablecloth corner", "Table Tablecloth corner"),
    ],
)
def test_the_table_word_is_read_once(language, typed, shown):
    host = Phone(language)
    host.create_match(name="Viernes", table=typed)
    host.open()
    meta = " ".join(host.soup.select_one("#blk-header p.meta").get_text(" ").split())
    assert meta.endswith(f"· {shown}"), meta
