"""Django's own form messages speak "tú" in Spanish, as the app does.

Django's Spanish catalogue says "usted": a points limit of 40 on the home
page read "Asegúrese de que este valor es mayor o igual a 50.", a decimal
comma "Introduzca un número entero.", a player's name too long on the run
page "Asegúrese de que este valor tenga menos de 60 caracteres (tiene
61)." (wrong, too: 60 are allowed), beside the app's own "Escribe el
nombre del jugador.". The project's catalogue now words each message the
app's forms can raise (tracker/django_tu.py). English is Django's own.
"""

from __future__ import annotations

import importlib
import pkgutil
import re

import pytest
from bs4 import BeautifulSoup
from django import forms
from django.contrib.auth.forms import AuthenticationForm
from django.test import Client
from django.utils import translation

import tracker
from tests.web.rendered_forms import submit
from tests.web.test_event_round_checks import event_of

pytestmark = pytest.mark.django_db

# The "usted" of Django's Spanish: its imperatives, its "su", its "por favor".
USTED = re.compile(
    r"\b(Introduzca|Ingrese|Asegúrese|Escoja|Seleccione|Observe|Compruebe|Corrija|Envíe"
    r"|[Pp]or favor|[Uu]sted|[Ss]us?)\b"
)

BELOW_MINIMUM = {
    "en": "Ensure this value is greater than or equal to 50.",
    "es": "Escribe un valor mayor o igual que 50.",
}
NOT_WHOLE = {"en": "Enter a whole number.", "es": "Escribe un número entero."}
TOO_LONG = {
    "en": "Ensure this value has at most 60 characters (it has 61).",
    "es": "Escribe como máximo 60 caracteres (llevas 61).",
}
BAD_DATE = {"en": "Enter a valid date.", "es": "Escribe una fecha válida."}


def errors_shown(html: str) -> list[str]:
    soup = BeautifulSoup(html, "lxml")
    return [" ".join(e.get_text(" ").split()) for e in soup.select(".error li, span.error")]


def new_match(lang: str, points_limit: str):
    client = Client()
    client.cookies["django_language"] = lang
    home = client.get("/").content.decode()
    return submit(client, home, "/new/", name="Viernes", points_limit=points_limit)


@pytest.mark.parametrize("lang", ["en", "es"])
def test_a_points_limit_below_the_minimum_is_refused_in_the_players_words(lang):
    response = new_match(lang, "40")
    assert BELOW_MINIMUM[lang] in errors_shown(response.content.decode())


@pytest.mark.parametrize("lang", ["en", "es"])
def test_a_decimal_comma_is_refused_in_the_players_words(lang):
    response = new_match(lang, "2,5")
    assert NOT_WHOLE[lang] in errors_shown(response.content.decode())


@pytest.mark.parametrize("lang", ["en", "es"])
def test_a_players_name_too_long_on_the_run_page_says_how_long_it_may_be(carol, lang):
    carol.cookies["django_language"] = lang
    event, org = event_of(carol, "Ana, PanOceania")
    response = org.submit("/roster/", name="N" * 61, faction="Tohaa")
    assert response.status_code == 400
    assert TOO_LONG[lang] in errors_shown(response.content.decode())
    assert event.roster.count() == 1


@pytest.mark.parametrize("lang", ["en", "es"])
def test_a_history_link_with_a_bad_date_says_so_in_the_organizers_words(carol, lang):
    carol.cookies["django_language"] = lang
    page = carol.get("/organizer/", {"date_from": "2026-02-30"}).content.decode()
    assert BAD_DATE[lang] in errors_shown(page)


class AnyValue(dict):
    """Fills every placeholder of a message (and counts its plural) with 60."""

    def __missing__(self, key):
        return 60


def _app_forms() -> list[type[forms.BaseForm]]:
    for module in pkgutil.walk_packages(tracker.__path__, "tracker."):
        if ".migrations" not in module.name and ".management" not in module.name:
            importlib.import_module(module.name)
    found, todo = [], [forms.BaseForm]
    while todo:
        for cls in todo.pop().__subclasses__():
            todo.append(cls)
            if cls.__module__.startswith("tracker."):
                found.append(cls)
    return [*found, AuthenticationForm]


def _messages(form_class) -> list:
    """Every message a field, a validator or the form itself can raise."""
    out = list(getattr(form_class, "error_messages", {}).values())
    for field in form_class.base_fields.values():
        out += field.error_messages.values()
        out += [v.message for v in field.validators]
    return out


def test_every_django_message_the_apps_forms_can_show_speaks_tu():
    """Django's Spanish for every message of the app's forms, ours or
    Django's, has no "usted" left; a new form with a new kind of field
    fails here until tracker/django_tu.py words its messages."""
    classes = _app_forms()
    assert {c.__name__ for c in classes} >= {"CreateMatchForm", "SettleForm", "PlayerForm"}
    checked = set()
    with translation.override("es"):
        for form_class in classes:
            for message in _messages(form_class):
                text = str(message % AnyValue())
                assert not USTED.search(text), (form_class.__name__, text)
                checked.add(text)
    assert {
        "Escribe un número entero.",
        "Escribe una fecha y hora válidas.",
        "Elige una opción válida. 60 no está entre las opciones.",
        "Escribe como máximo 60 caracteres (llevas 60).",
    } <= checked
