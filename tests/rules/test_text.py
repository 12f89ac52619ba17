"""Typed text as the other viewers are shown it (tracker/rules/text.py):
no bidirectional control survives, whatever else the text holds."""

from __future__ import annotations

import pytest

from tracker.rules import InvalidInput
from tracker.rules.setup import clean_name
from tracker.rules.text import BIDI_CONTROLS, one_line

CONTROLS = sorted(BIDI_CONTROLS)


def test_the_controls_are_the_embeddings_overrides_and_isolates():
    assert [f"{ord(c):04X}" for c in CONTROLS] == [
        "202A", "202B", "202C", "202D", "202E", "2066", "2067", "2068", "2069",
    ]  # fmt: skip


@pytest.mark.parametrize("control", CONTROLS)
def test_a_name_loses_every_bidirectional_control(control):
    assert one_line(f"{control}Bolt{control} \t Angus{control}") == "Bolt Angus"
    assert clean_name(f"Fusi{control}lier", "Trooper name") == "Fusilier"


def test_marks_and_joiners_stay():
    # A left-to-right mark, a right-to-left mark, a zero-width joiner (emoji).
    assert (
        one_line("A\u200eB\u200fC \U0001f469\u200d\U0001f680")
        == "A\u200eB\u200fC \U0001f469\u200d\U0001f680"
    )


def test_a_name_of_controls_only_is_empty():
    with pytest.raises(InvalidInput):
        clean_name("\u202e\u2066 \u2069", "Your name")
