"""An event's table reads its round and table in each reader's language: a
Spanish organizer publishes the round, an English and a Spanish player take
their seats from the printed sheet. The title used to be composed once, in
the organizer's language, into the match's log ("Ronda 1 · Mesa 1" on the
English phone). Through the pages' rendered forms only."""

from __future__ import annotations

import pytest
from bs4 import BeautifulSoup
from django.conf import settings

from tests.web.test_event_running import seat_phone
from tests.web.test_table_without_result import round_one_of_two_tables

pytestmark = pytest.mark.django_db


def title_of(html: str) -> tuple[str, str]:
    soup = BeautifulSoup(html, "lxml")
    return soup.title.get_text(strip=True), soup.select_one("#blk-header h1").get_text(strip=True)


def test_a_spanish_organizers_table_reads_round_and_table_in_each_phones_language(carol):
    carol.cookies[settings.LANGUAGE_COOKIE_NAME] = "es"
    _org, (first, _second) = round_one_of_two_tables(carol)
    english = seat_phone(carol, first, "A", language="en")
    spanish = seat_phone(carol, first, "B", language="es")
    english.open()
    spanish.open()
    assert title_of(english.html) == ("Noche de liga · Round 1 · Table 1",) * 2
    assert title_of(spanish.html) == ("Noche de liga · Ronda 1 · Mesa 1",) * 2
    assert "Ronda" not in english.text and "Mesa" not in english.text
    # Said once in the header: the meta line leaves the table to the title.
    header = " ".join(english.soup.select_one("#blk-header").get_text(" ").split())
    assert header.count("Table 1") == 1
    # The organizer's own audit page, in hers.
    audit = BeautifulSoup(carol.get(f"/organizer/matches/{first.code}/").content, "lxml")
    meta = " ".join(audit.select_one("p.meta").get_text(" ").split())
    assert "Ronda 1" in meta and "Mesa 1" in meta


def test_a_table_paired_before_titles_were_composed_per_reader_reads_as_stored():
    """Its stored name (and its log's) already ends with the round and the
    table, in the organizer's language: nothing is added twice."""
    from django.utils import translation

    from tracker.models import Match
    from tracker.templatetags.tracker_tags import match_title

    old = Match(name="Noche de liga · Ronda 1 · Mesa 2", event_round=1, table_number=2)
    new = Match(name="Noche de liga", event_round=1, table_number=2)
    with translation.override("en"):
        assert match_title(old) == "Noche de liga · Ronda 1 · Mesa 2"
        assert match_title(new) == "Noche de liga · Round 1 · Table 2"
    with translation.override("es"):
        assert match_title(new) == "Noche de liga · Ronda 1 · Mesa 2"


def test_a_stand_alone_match_reads_its_name_alone(client):
    from tests.web.table import create_match

    match = create_match(client, name="Viernes en el club")
    page = client.get(f"/m/{match.code}/host/").content.decode()
    assert BeautifulSoup(page, "lxml").h1.get_text(strip=True) == "Viernes en el club"


def test_a_table_pasted_without_a_round_reads_its_table_alone(carol):
    """The pairings form leaves the round optional (pairings pasted from the
    official tool for a one-off table): such a table reads its table number
    in each phone's language, and no round."""
    from tests.web.rendered_forms import submit
    from tracker.models import Match, TournamentEvent

    event = TournamentEvent.objects.create(name="Amistoso")
    page = f"/organizer/events/{event.pk}/"
    response = submit(
        carol,
        carol.get(page).content.decode(),
        page,
        at=page,
        points_limit=300,
        rounds=3,
        pairings="2, Ana, Bea",
    )
    assert response.status_code == 302
    match = Match.objects.get(event=event)
    assert match.event_round is None and match.table_number == 2
    english = seat_phone(carol, match, "A", language="en")
    spanish = seat_phone(carol, match, "B", language="es")
    english.open()
    spanish.open()
    assert title_of(english.html) == ("Amistoso · Table 2",) * 2
    assert title_of(spanish.html) == ("Amistoso · Mesa 2",) * 2
