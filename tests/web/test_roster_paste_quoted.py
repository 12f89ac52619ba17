"""A roster pasted from a spreadsheet saved as CSV: its cells come quoted
("Luis Gil";"Yu Jing";""), and a cell holding a separator is quoted
("Pérez, Ana"). The quotes were kept as part of the name (the player
registered as "Luis Gil" with the quotes, and Luis Gil typed later was
taken as a second player), and a quoted comma split the name in two. A
pairings paste reads its cells the same way. A cell too long names which
cell it is (a long club said "a name is too long"). Through the run page's
rendered forms, in both languages."""

from __future__ import annotations

import pytest
from bs4 import BeautifulSoup

from tests.web.test_event_running import Organizer, roster_names
from tracker.models import EventPlayer, TournamentEvent

pytestmark = pytest.mark.django_db

QUOTED = '"Luis Gil";"Yu Jing";""\n"Pérez, Ana",PanOceania,"Club ""Norte"""\n'
ALREADY = {
    "en": "Luis Gil is already on the roster (as Luis Gil).",
    "es": "Luis Gil ya figura entre los inscritos (como Luis Gil).",
}
CLUB_TOO_LONG = {
    "en": "Line 1: the club is too long (at most 60 characters).",
    "es": "Línea 1: el club es demasiado largo (como mucho 60 caracteres).",
}


def organizer(carol, lang: str) -> Organizer:
    carol.defaults["HTTP_ACCEPT_LANGUAGE"] = lang
    return Organizer(carol, TournamentEvent.objects.create(name="Liga"))


def text_of(response) -> str:
    return " ".join(BeautifulSoup(response.content.decode(), "lxml").get_text(" ").split())


@pytest.mark.parametrize("lang", ["en", "es"])
def test_quoted_cells_are_read_without_their_quotes(carol, lang):
    org = organizer(carol, lang)
    assert org.submit("/roster/paste/", players=QUOTED).status_code == 302
    assert roster_names(org) == ["Luis Gil", "Pérez, Ana"]
    luis, ana = EventPlayer.objects.order_by("pk")
    assert (luis.faction, luis.club) == ("Yu Jing", "")
    assert (ana.faction, ana.club) == ("PanOceania", 'Club "Norte"')
    # The same player typed by hand is the one on the roster, not a second.
    response = org.submit("/roster/", name="Luis Gil", faction="Yu Jing", club="")
    assert response.status_code == 400
    assert ALREADY[lang] in text_of(response)
    assert EventPlayer.objects.count() == 2


@pytest.mark.parametrize("lang", ["en", "es"])
def test_a_cell_too_long_is_named(carol, lang):
    org = organizer(carol, lang)
    response = org.submit("/roster/paste/", players=f"Ana, PanOceania, {'C' * 61}")
    assert response.status_code == 400
    assert CLUB_TOO_LONG[lang] in text_of(response)
    assert not EventPlayer.objects.exists()


def test_pasted_pairings_read_quoted_cells_too(carol):
    from tests.web.rendered_forms import submit_on
    from tracker.models import Match

    event = TournamentEvent.objects.create(name="Liga")
    response = submit_on(
        carol,
        f"/organizer/events/{event.pk}/",
        "card",
        pairings='"1";"Pérez, Ana";"Luis Gil"',
        mission="Supplies",
    )
    assert response.status_code == 302, text_of(response)
    match = Match.objects.get(event=event)
    assert match.table_number == 1
    assert [s.listed_name for s in match.seats.order_by("letter")] == ["Pérez, Ana", "Luis Gil"]
