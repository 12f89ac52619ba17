"""The new-match form's Classified deck in the reader's language (CL-1).

A Spanish phone was offered the default deck in English; kept as offered it
is the default deck, so both phones later read each drawn card in their own
language. A Spanish phone that keeps the Spanish names draws the same cards
an English one would."""

from __future__ import annotations

import pytest
from bs4 import BeautifulSoup

from tests.web.rendered_forms import submit
from tracker.models import Match
from tracker.reading import load_state
from tracker.rules.classified import DEFAULT_DECK, config_of

pytestmark = pytest.mark.django_db


def offered_deck(client) -> list[str]:
    home = client.get("/").content.decode()
    box = BeautifulSoup(home, "lxml").select_one("textarea[name=classified_deck]")
    return box.get_text().strip().splitlines()


def create(client) -> Match:
    home = client.get("/").content.decode()
    response = submit(client, home, "/new/", name="Noche de liga", classified_drawn=3)
    assert response.status_code == 302, response.content.decode()[:800]
    return Match.objects.get(code=response["Location"].split("/")[2])


def test_a_spanish_phone_is_offered_the_deck_in_spanish(client):
    client.defaults["HTTP_ACCEPT_LANGUAGE"] = "es"
    deck = offered_deck(client)
    assert "Escaneo de Datos" in deck
    assert "Data Scan" not in deck
    assert len(deck) == len(DEFAULT_DECK)


def test_an_english_phone_is_offered_the_deck_in_english(client):
    client.defaults["HTTP_ACCEPT_LANGUAGE"] = "en"
    assert offered_deck(client) == list(DEFAULT_DECK)


@pytest.mark.parametrize("language", ["es", "en"])
def test_the_offered_deck_kept_as_it_is_is_the_default_deck(client, language):
    client.defaults["HTTP_ACCEPT_LANGUAGE"] = language
    match = create(client)
    assert list(config_of(load_state(match))["deck"]) == list(DEFAULT_DECK)


def test_a_deck_of_ones_own_keeps_its_own_names_beside_default_cards(client):
    client.defaults["HTTP_ACCEPT_LANGUAGE"] = "es"
    home = client.get("/").content.decode()
    response = submit(
        client,
        home,
        "/new/",
        name="Noche de liga",
        classified_drawn=2,
        classified_deck="Escaneo   de Datos\nMi carta\nOtra carta",
    )
    assert response.status_code == 302, response.content.decode()[:800]
    match = Match.objects.get(code=response["Location"].split("/")[2])
    assert list(config_of(load_state(match))["deck"]) == ["Data Scan", "Mi carta", "Otra carta"]
