"""What the organizer's pages say where the QA night found them saying
something untrue or too little, in en and es: the audit of a match still
being set up is "not finished" (not "still in play"), opening a match's
sealed information asks first (the players are told, and it cannot be
undone), and a new event points to where it is run, not only to pasted
pairings."""

from __future__ import annotations

import pytest
from bs4 import BeautifulSoup

from tests.web.organizer_table import playing
from tests.web.rendered_forms import submit

pytestmark = pytest.mark.django_db

WORDS = {
    "en": {
        "heading": "This match is not finished",
        "ask": "Open the sealed information of this match now? Both players' phones will "
        "say that you viewed it, and when. It cannot be undone.",
        "created": "Event created. Add its players and draw its Swiss rounds on its run page, "
        "or paste pairings made elsewhere below.",
    },
    "es": {
        "heading": "Esta partida no ha terminado",
        "ask": "¿Abrir ahora la información sellada de esta partida? Los móviles de ambos "
        "jugadores dirán que la has visto, y cuándo. No se puede deshacer.",
        "created": "Evento creado. Añade sus jugadores y sortea sus rondas suizas en su página "
        "de dirección, o pega abajo los emparejamientos hechos en otra parte.",
    },
}


@pytest.mark.parametrize("language", ["en", "es"])
def test_a_match_in_setup_is_not_finished(client, carol, language):
    home = client.get("/").content.decode()
    response = submit(client, home, "/new/", name="Friday game")
    code = response["Location"].split("/")[2]
    carol.defaults["HTTP_ACCEPT_LANGUAGE"] = language
    soup = BeautifulSoup(carol.get(f"/organizer/matches/{code}/").content.decode(), "lxml")
    assert soup.select_one(".sealed-notice h2").get_text() == WORDS[language]["heading"]


@pytest.mark.parametrize("language", ["en", "es"])
def test_opening_the_sealed_information_asks_first(alice, bob, carol, language):
    a, _b = playing(alice, bob)
    code = a.match.code
    carol.defaults["HTTP_ACCEPT_LANGUAGE"] = language
    soup = BeautifulSoup(carol.get(f"/organizer/matches/{code}/").content.decode(), "lxml")
    assert soup.select_one(".sealed-notice h2").get_text() == WORDS[language]["heading"]
    opening = soup.select_one(f'form[action="/organizer/matches/{code}/open/"]')
    assert opening is not None and opening.select_one("#open-sealed")
    assert opening["data-confirm"] == WORDS[language]["ask"]


@pytest.mark.parametrize("language", ["en", "es"])
def test_a_new_event_points_to_where_it_is_run(carol, language):
    carol.defaults["HTTP_ACCEPT_LANGUAGE"] = language
    page = carol.get("/organizer/events/").content.decode()
    response = submit(
        carol, page, "/organizer/events/", at="/organizer/events/", name="Copa", date="2026-05-09"
    )
    assert response.status_code == 302
    shown = BeautifulSoup(carol.get(response["Location"]).content.decode(), "lxml").get_text()
    assert WORDS[language]["created"] in " ".join(shown.split())
