"""Issue 11: the doors that were still ajar. One section per finding; each
test failed on the main branch before the fix. Attack tests post raw (names
with attack/forge/raw/tamper); organizer and player actions use the forms
rendered in the page the viewer was just sent (rendered_forms.submit)."""

from __future__ import annotations

import pytest

from tracker.models import Match, TournamentEvent

from .rendered_forms import submit


# --------------------------------------------- 12. a player twice in a round


@pytest.fixture
def spring(carol):
    return TournamentEvent.objects.create(name="Spring Open", date="2026-04-18")


@pytest.mark.django_db
def test_pairings_with_the_same_player_twice_in_a_round_are_refused_line_by_line(spring, carol):
    page = f"/organizer/events/{spring.pk}/"
    response = submit(
        carol,
        page,
        "card",
        event_round=1,
        pairings="1, Ana, Bob\n2, Carla, ana\n3, Dani, Dani\n4, Eva, Fran",
    )
    assert response.status_code == 400
    text = response.content.decode()
    assert "Line 2: ana already plays on line 1." in text
    assert "Line 3: Dani cannot play against themselves." in text
    assert not Match.objects.filter(event=spring).exists()
    ok = submit(carol, page, "card", event_round=1, pairings="1, Ana, Bob\n2, Carla, Dani")
    assert ok.status_code == 302
    assert Match.objects.filter(event=spring).count() == 2
