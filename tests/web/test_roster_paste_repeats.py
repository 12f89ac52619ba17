"""A pasted roster that names a player twice says so, line against line:
"already on the roster" was said of a player earlier in the same paste,
while the roster was still empty (nothing of the paste is added when a
line is refused). A player already registered is still named as such. The
pasted text stays in its box either way, in English and in Spanish."""

from __future__ import annotations

import pytest
from bs4 import BeautifulSoup

from tests.web.test_event_round_checks import event_of
from tests.web.test_event_running import Organizer
from tracker.models import TournamentEvent

pytestmark = pytest.mark.django_db

PASTE = "Ana Arroyo, PanOceania\nBea Blanco, Yu Jing\nana  ARROYO, Tohaa\n"


def refused(org: Organizer, players: str) -> tuple[str, str]:
    response = org.submit("/roster/paste/", players=players)
    assert response.status_code == 400
    soup = BeautifulSoup(response.content.decode(), "lxml")
    return " ".join(soup.get_text(" ").split()), soup.select_one("textarea[name=players]").text


@pytest.mark.parametrize(
    ("lang", "said", "not_said"),
    [
        ("en", "Line 3: ana ARROYO repeats line 1 (Ana Arroyo).", "already on the roster"),
        ("es", "Línea 3: ana ARROYO repite la línea 1 (Ana Arroyo).", "ya figura"),
    ],
)
def test_a_name_twice_in_one_paste_is_named_as_a_repeat_not_as_registered(
    carol, lang, said, not_said
):
    carol.cookies["django_language"] = lang
    event = TournamentEvent.objects.create(name="Liga")
    org = Organizer(carol, event)
    text, box = refused(org, PASTE)
    assert said in text
    assert not_said not in text
    assert box.strip() == PASTE.strip()
    assert not event.roster.exists()


def test_a_name_already_registered_is_still_named_as_registered(carol):
    event, org = event_of(carol, "Ana Arroyo, PanOceania")
    text, box = refused(org, "Bea Blanco, Yu Jing\nana  ARROYO, Tohaa")
    assert "Line 2: ana ARROYO is already on the roster (as Ana Arroyo)." in text
    assert "Bea Blanco" in box
    assert event.roster.count() == 1
