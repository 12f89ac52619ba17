"""A sealed text (a note, a written position) is as long as its box
counts it. The box's maxlength counts a line break once, but the browser
sends it as CR LF: a note that filled its box was refused as too long, and
one that fit was sealed with CR LFs the phone never showed."""

from __future__ import annotations

import pytest

from tests.web.organizer_table import fresh, playing
from tests.web.table import error_of
from tracker.reading import load_state
from tracker.rules.sealing import MAX_TEXT
from tracker.rules.state import NOTE

pytestmark = pytest.mark.django_db


def test_a_note_that_fills_its_box_is_sealed_with_the_line_breaks_typed(alice, bob):
    a, _b = playing(alice, bob)
    typed = "\n".join(["hold the door"] * 40)[:MAX_TEXT].strip()
    assert len(typed) <= MAX_TEXT < len(typed.replace("\n", "\r\n"))
    assert error_of(a.submit("SealNote", label="Plan", text=typed.replace("\n", "\r\n"))) is None
    notes = [
        s.payload.get("text") for s in load_state(fresh(a.match)).secrets.values() if s.kind == NOTE
    ]
    assert notes == [typed]
