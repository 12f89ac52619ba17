"""A refused form of the run page says so at the top of the page, where
the organizer is looking.

The run page is one long page of forms (roster, lists, rounds, standings,
scoring). A refusal was shown only under its own form: tapping "Draw the
next round" on an organizer's phone (360 px wide) while a table of the
last round had no result brought the page back scrolled to the top, the
roster on screen and "Round 3 still has tables without a confirmed result:
2." 3,400 px further down. Nothing seemed to happen. The refusal now also
heads the page, in the organizer's language; nothing is saved either way.
It says "Not done", what to check, then the error as its own sentence:
"No se ha hecho: La ronda…" put a capital after a colon, which Spanish
does not write, and lowercasing the error would spoil a name ("Ana").
"""

from __future__ import annotations

import pytest
from bs4 import BeautifulSoup

from tests.web.rendered_forms import submit
from tests.web.test_event_round_checks import all_lists_in, event_of, publish
from tracker.models import TournamentEvent

pytestmark = pytest.mark.django_db

# Nothing of the error follows a colon (Spanish writes lowercase there),
# and the error keeps its first word as written: a name stays a name.
REFUSED = {
    "en": "Not done. Round 1 still has tables without a confirmed result: 1.",
    "es": "No se ha hecho. La ronda 1 aún tiene mesas sin resultado confirmado: 1.",
}
ALREADY = {
    "en": "Not done: check “Name”. Ana is already on the roster (as Ana).",
    "es": "No se ha hecho: revisa «Nombre». Ana ya figura entre los inscritos (como Ana).",
}

CHECK = {"en": "Not done: check “{}”. ", "es": "No se ha hecho: revisa «{}». "}
PAIRINGS = {"en": "Pairings", "es": "Emparejamientos"}


def top_of(response) -> tuple[list[str], bool]:
    """The messages heading the page, and whether they come before the roster."""
    soup = BeautifulSoup(response.content.decode(), "lxml")
    shown = [" ".join(li.get_text(" ").split()) for li in soup.select("ul.messages li.error")]
    # select() lists matches in document order.
    order = [node.get("id") or "messages" for node in soup.select("ul.messages, #roster")]
    return shown, order[:2] == ["messages", "roster"]


@pytest.mark.parametrize("lang", ["en", "es"])
def test_a_refused_draw_heads_the_page(carol, lang):
    carol.cookies["django_language"] = lang
    event, org = event_of(carol, "Ana, PanOceania\nBea, Yu Jing")
    all_lists_in(org, ["Ana", "Bea"])
    publish(org, seed=3)
    response = org.submit("/rounds/draw/")
    assert response.status_code == 400
    shown, before = top_of(response)
    assert shown == [REFUSED[lang]]
    assert before
    assert event.rounds.count() == 1


@pytest.mark.parametrize("lang", ["en", "es"])
def test_a_refused_roster_line_heads_the_page_and_stays_in_its_box(carol, lang):
    carol.cookies["django_language"] = lang
    event, org = event_of(carol, "Ana, PanOceania")
    response = org.submit("/roster/", name="Ana", faction="Tohaa")
    assert response.status_code == 400
    shown, before = top_of(response)
    assert shown == [ALREADY[lang]]
    assert before
    soup = BeautifulSoup(response.content.decode(), "lxml")
    assert soup.select_one("form[action$='/roster/'] input[name=faction]")["value"] == "Tohaa"
    assert event.roster.count() == 1


@pytest.mark.parametrize("lang", ["en", "es"])
def test_a_refused_pairing_heads_the_event_page(carol, lang):
    """The event page: its pairings form sits below the matches and lists."""
    carol.cookies["django_language"] = lang
    event = TournamentEvent.objects.create(name="Liga")
    page = carol.get(f"/organizer/events/{event.pk}/").content.decode()
    at = f"/organizer/events/{event.pk}/"
    response = submit(carol, page, at, at=at, pairings="1, Ana")
    assert response.status_code == 400
    soup = BeautifulSoup(response.content.decode(), "lxml")
    under_the_form = [" ".join(e.get_text(" ").split()) for e in soup.select("ul.error li")]
    assert under_the_form
    label = PAIRINGS[lang]
    shown = [" ".join(li.get_text(" ").split()) for li in soup.select("ul.messages li.error")]
    assert shown == [CHECK[lang].format(label) + error for error in under_the_form]
    assert soup.select("ul.messages, table")[0].name == "ul"
    assert not event.matches.exists()
