"""Pasted pairings sent twice at once (a double tap on a stalled venue
Wi-Fi, or a second laptop) create the round's tables once: the tables a
round already has are checked with the event locked, in the transaction
that creates them (organizer/views.create_pairings), not in the form,
where both posts passed the check before either wrote."""

from __future__ import annotations

import pytest

from tests.web.rendered_forms import submit
from tracker.models import Match, TournamentEvent
from tracker.organizer import forms

pytestmark = pytest.mark.django_db

PAIRINGS = "1, Alice Arroyo, Bob Bravo\n2, Carla Cruz, Dani Díaz\n3, Eva, Fran"

REFUSED = {
    "en": "This round of the event already has a match at table 1, 2, 3.",
    "es": "Esta ronda del evento ya tiene una partida en la mesa 1, 2, 3.",
}


@pytest.fixture
def spring(carol):
    carol.post("/organizer/events/", {"name": "Spring Open", "date": "2026-04-18"})
    return TournamentEvent.objects.get(name="Spring Open")


def _second_post_lands_after_the_first_is_checked(monkeypatch, send_again):
    """The second post runs whole after the first's form is valid and
    before the first writes: the order two requests at once can take."""
    is_valid = forms.PairingsForm.is_valid
    sent, started = [], []

    def valid_then_the_other_post(form):
        valid = is_valid(form)
        if valid and not started:
            started.append(True)  # the second post's own check goes on as usual
            sent.append(send_again())
        return valid

    monkeypatch.setattr(forms.PairingsForm, "is_valid", valid_then_the_other_post)
    return sent


@pytest.mark.parametrize("language", ["en", "es"])
def test_pairings_posted_twice_at_once_create_each_table_once(spring, carol, monkeypatch, language):
    carol.defaults["HTTP_ACCEPT_LANGUAGE"] = language
    page = f"/organizer/events/{spring.pk}/"
    html = carol.get(page).content.decode()

    def post():
        return submit(carol, html, page, at=page, event_round=1, pairings=PAIRINGS)

    second = _second_post_lands_after_the_first_is_checked(monkeypatch, post)
    first = post()

    assert second[0].status_code == 302  # the one that wrote first
    assert first.status_code == 400
    assert REFUSED[language] in first.content.decode()
    tables = sorted(Match.objects.filter(event=spring).values_list("table_number", flat=True))
    assert tables == [1, 2, 3]


def test_the_same_tables_in_another_round_are_still_created(spring, carol):
    page = f"/organizer/events/{spring.pk}/"
    for event_round in (1, 2):
        html = carol.get(page).content.decode()
        response = submit(carol, html, page, at=page, event_round=event_round, pairings=PAIRINGS)
        assert response.status_code == 302
    assert Match.objects.filter(event=spring).count() == 6
