"""The run page's round actions refuse, with their reason, what would
corrupt the event (issue 21): a round of fewer than two players, a second
set of tables for a round that has its pasted ones, a swap with no drawn
round, a second call of time that would move the moment time was called,
and a clock action that is none of start, pause and call."""

import pytest

from tests.web.rendered_forms import submit_on
from tests.web.test_event_running import Organizer
from tracker.models import Match, TournamentEvent

pytestmark = pytest.mark.django_db

TWO = "Ana Arroyo, PanOceania\nBea Blanco, Yu Jing\n"


def event_with(carol, players: str) -> Organizer:
    event = TournamentEvent.objects.create(name="Spring Open")
    org = Organizer(carol, event)
    assert org.submit("/roster/paste/", players=players).status_code == 302
    return org


def paste_round_one(
    carol, org: Organizer, pairings: str = "Table, Player A, Player B\n1, Ana Arroyo, Bea Blanco\n"
) -> None:
    """Round 1's tables (one, by default) pasted from the event page's pairings form."""
    page = f"/organizer/events/{org.event.pk}/"
    response = submit_on(
        carol, page, "card", pairings=pairings, points_limit=300, rounds=3, event_round=1
    )
    assert response.status_code == 302


def test_a_round_of_one_player_is_not_drawn(carol):
    org = event_with(carol, "Ana Arroyo, PanOceania\n")
    response = org.submit("/rounds/draw/", seed=7)
    assert response.status_code == 400
    assert (
        "A round needs at least two players still in the event (dropped players are not drawn)."
        in response.content.decode()
    )
    assert not org.event.rounds.exists()


def test_a_round_with_pasted_tables_is_not_published_twice(carol):
    org = event_with(carol, TWO)
    # Drawn, then its table pasted before publishing (once round 1 is pasted,
    # the draw is of round 2: test_draw_after_pasted_round.py).
    assert org.submit("/rounds/draw/", seed=7).status_code == 302
    paste_round_one(carol, org)
    response = org.submit("/rounds/publish/", points_limit=300, rounds=3, minutes=90)
    assert response.status_code == 400
    assert "Round 1 already has matches (from pasted pairings)." in response.content.decode()
    assert Match.objects.filter(event=org.event, event_round=1).count() == 1
    assert org.event.rounds.get(number=1).published_at is None


def test_attack_a_swap_without_a_drawn_round_is_refused(carol):
    org = event_with(carol, TWO)
    response = carol.post(f"/organizer/events/{org.event.pk}/rounds/swap/", {"one": 1, "two": 2})
    assert response.status_code == 302
    assert "There is no drawn round to change." in org.text()


def test_time_called_twice_keeps_the_first_call(carol):
    org = event_with(carol, TWO)
    assert org.submit("/rounds/draw/", seed=7).status_code == 302
    assert org.submit("/rounds/publish/", points_limit=300, rounds=3, minutes=90).status_code == 302
    assert org.submit("/clock/call/", within="#round-1").status_code == 302
    called = org.event.rounds.get(number=1).time_called_at
    response = carol.post(f"/organizer/events/{org.event.pk}/rounds/1/clock/call/")
    assert response.status_code == 302
    assert "Time is already called in this round." in org.text()
    assert org.event.rounds.get(number=1).time_called_at == called


def test_attack_an_unknown_clock_action_is_not_found(carol):
    org = event_with(carol, TWO)
    assert org.submit("/rounds/draw/", seed=7).status_code == 302
    assert org.submit("/rounds/publish/", points_limit=300, rounds=3, minutes=90).status_code == 302
    response = carol.post(f"/organizer/events/{org.event.pk}/rounds/1/clock/reset/")
    assert response.status_code == 404
    played = org.event.rounds.get(number=1)
    assert played.clock_started_at is None and played.time_called_at is None


def test_a_pasted_tables_phone_shows_no_clock_of_a_drawn_unpublished_round(carol):
    """A drawn round is not the event's until published (its publish refused
    here: round 1 has its pasted table): the pasted table's phones show no
    round clock of it, neither one waiting to start nor its minutes."""
    from tests.web.test_event_running import seat_phone

    org = event_with(carol, TWO)
    assert org.submit("/rounds/draw/", seed=7).status_code == 302
    paste_round_one(carol, org)
    response = org.submit("/rounds/publish/", points_limit=300, rounds=3, minutes=45)
    assert response.status_code == 400
    match = Match.objects.get(event=org.event, event_round=1)
    for letter, language in (("A", "en"), ("B", "es")):
        phone = seat_phone(carol, match, letter, language)
        phone.open()
        assert phone.soup.select_one("#round-clock") is None
