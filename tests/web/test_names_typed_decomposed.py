"""A name whose accent is typed as a letter and a combining mark (NFD, as
some Mac programs and spreadsheets copy "Díaz": "i" then U+0301) looks the
same on every page as the precomposed "Díaz", but was another player: the
roster took "Dani Díaz" twice, and one round's pasted pairings seated her at
two tables. A name is one player however its accents are encoded."""

from __future__ import annotations

import pytest
from bs4 import BeautifulSoup

from tests.web.rendered_forms import submit
from tests.web.test_event_round_checks import event_of
from tracker.models import Match, TournamentEvent

pytestmark = pytest.mark.django_db

COMPOSED = "Dani D\u00edaz"
DECOMPOSED = "Dani Di\u0301az"


def words(response) -> str:
    return " ".join(BeautifulSoup(response.content.decode(), "lxml").get_text(" ").split())


@pytest.mark.parametrize(
    ("language", "said"),
    [
        ("en", f"{DECOMPOSED} is already on the roster (as {COMPOSED})."),
        ("es", f"{DECOMPOSED} ya figura entre los inscritos (como {COMPOSED})."),
    ],
)
def test_a_name_with_a_combining_accent_is_the_player_already_on_the_roster(carol, language, said):
    carol.defaults["HTTP_ACCEPT_LANGUAGE"] = language
    event, org = event_of(carol, f"{COMPOSED}, Haqqislam")
    response = org.submit("/roster/", name=DECOMPOSED, faction="Nomads", club="")
    assert response.status_code == 400
    assert said in words(response)
    assert event.roster.count() == 1


def test_pasted_pairings_seat_a_name_with_a_combining_accent_once(carol):
    event = TournamentEvent.objects.create(name="Amistoso")
    page = f"/organizer/events/{event.pk}/"
    response = submit(
        carol,
        carol.get(page).content.decode(),
        page,
        at=page,
        points_limit=300,
        rounds=3,
        pairings=f"1, {COMPOSED}, Bea Blanco\n2, {DECOMPOSED}, Carlos Cruz\n",
    )
    assert response.status_code == 400
    assert f"Line 2: {DECOMPOSED} already plays on line 1." in words(response)
    assert not Match.objects.filter(event=event).exists()
