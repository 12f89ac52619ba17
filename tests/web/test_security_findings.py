"""Issue 11: the doors that were still ajar. One section per finding; each
test failed on the main branch before the fix. Attack tests post raw (names
with attack/forge/raw/tamper); organizer and player actions use the forms
rendered in the page the viewer was just sent (rendered_forms.submit)."""

from __future__ import annotations

import pytest
from django.test import Client

from tracker.models import Match, TournamentEvent

from .rendered_forms import submit
from .table import claim, create_match


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


# ------------------------------------------------- 4. session rotation


def _plant(victim, attacker):
    """Session fixation: the attacker's session id set in the victim's browser."""
    victim.cookies["sessionid"] = attacker.cookies["sessionid"].value


@pytest.mark.django_db
def test_attack_a_planted_session_id_does_not_inherit_a_claimed_seat(alice, mallory):
    match = create_match(mallory)  # mallory now has a session (she hosts it)
    _plant(alice, mallory)
    claim(alice, match, "A", "Alice")
    assert alice.cookies["sessionid"].value != mallory.cookies["sessionid"].value
    assert "You: Alice" in alice.get(f"/m/{match.code}/").content.decode()
    assert "You: Alice" not in mallory.get(f"/m/{match.code}/").content.decode()


@pytest.mark.django_db
def test_attack_a_planted_session_id_does_not_inherit_a_moved_seat(alice, mallory):
    match = create_match(alice)
    claim(alice, match, "A", "Alice", pin="4321")
    mallory.get("/")
    mallory.session.save()
    new_phone = Client()
    new_phone.cookies["sessionid"] = mallory.session.session_key
    mallory.cookies["sessionid"] = mallory.session.session_key
    seat = match.seats.get(letter="A")
    assert submit(new_phone, f"/m/{match.code}/s/{seat.token}/", "card", pin="4321").status_code == 302
    assert "You: Alice" in new_phone.get(f"/m/{match.code}/").content.decode()
    assert "You: Alice" not in mallory.get(f"/m/{match.code}/").content.decode()
