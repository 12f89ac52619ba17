"""The organizer's audit page of a match in play keeps a Classified draw
sealed (CL-2, the audit's rule for a match in play): which cards were drawn
and the seed are shown only once the organizer opens the sealed
information, which is recorded in the match's log and told to both phones."""

from __future__ import annotations

import re

import pytest

from tests.web.organizer_table import audit_page, fresh, open_sealed
from tests.web.test_classified_web import drawn_by_alice
from tracker.reading import load_state
from tracker.rules.classified import hand_of

pytestmark = pytest.mark.django_db


def draw_block(audit: str) -> str:
    return re.search(r'id="classified-draw-A">(.*?)</li>', audit, re.S).group(1)


def test_a_classified_draw_stays_sealed_on_the_audit_page_until_opened(alice, bob, carol):
    match = drawn_by_alice(alice, bob)
    state = load_state(fresh(match))
    draw = state.secrets[hand_of(state, "A")["draw"]]
    seed = draw.payload["seed"]

    sealed = audit_page(carol, fresh(match))
    assert seed not in sealed
    assert "draw verified" not in draw_block(sealed)

    open_sealed(carol, match)
    opened = audit_page(carol, fresh(match))
    block = draw_block(opened)
    assert seed in block and "draw verified" in block
    assert all(card in block for card in draw.payload["drawn"])
