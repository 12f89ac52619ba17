"""What a mutation round on the pasted list's trait words found untested
(tracker/army_text.py, _TRAIT_WORDS and _traits). Each test here failed on a
small change to that code that the other tests let pass, and passes on the
code as it is. No database: the builder's text in, the rows' traits out."""

from __future__ import annotations

import pytest

from tracker.army_text import parse
from tracker.rules.state import (
    DOCTOR,
    FRENZY,
    IMPETUOUS,
    RELIGIOUS,
    VETERAN,
)


def traits_of(option: str) -> tuple[str, ...]:
    """The traits read from one trooper line whose only option is `option`."""
    parsed = parse(f"GROUP 1\nODD ({option}) Rifle. (0 | 10)\n")
    assert len(parsed.rows) == 1, parsed.skipped
    return parsed.rows[0].traits


@pytest.mark.parametrize(
    ("option", "trait"),
    [
        # The Impetuous Phase reads plain Impetuous too, not only Extremely
        # Impetuous (the builder writes either, in either language).
        ("Impetuous", IMPETUOUS),
        ("Impetuoso", IMPETUOUS),
        # Typed without its accent, as a phone's keyboard often leaves it:
        # TM-T5's Doctor, the Frenzy the rules read.
        ("Medico", DOCTOR),
        ("Frenesi", FRENZY),
        # RT-X1: Religious Troop written short.
        ("Religious", RELIGIOUS),
    ],
)
def test_a_trait_written_alone_or_without_its_accent_comes_in_with_the_paste(option, trait):
    assert traits_of(option) == (trait,)


@pytest.mark.parametrize(
    ("option", "trait"),
    [("Veteran: L1", VETERAN), ("Veterano: N1", VETERAN)],
)
def test_a_trait_followed_by_a_colon_is_that_trait(option, trait):
    """A trait is the whole option, its first words, or its name before a
    colon (RT-X1's Veteran written "Veteran: L1"): the colon's form was read
    by the reader from the start and tested nowhere."""
    assert traits_of(option) == (trait,)
