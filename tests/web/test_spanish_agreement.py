"""Spanish lines that put a noun of either gender before an adjective (a
refusal naming the field, a seal's label and when it was sealed) read right
whatever that noun: "La posición anotada" is not "vacío", a "Posición" is not
"sellado"."""

from __future__ import annotations

import re

import pytest
from django.utils import translation

from tracker.models import TournamentEvent

from .phone_flows import CANARY_NINJA, lists_locked, ok, seal, seated, trooper_ids
from .rendered_forms import submit_on
from .test_event_running import Organizer, roster_row

pytestmark = pytest.mark.django_db


def spanish_deployment():
    a, b = seated(language_a="es", language_b="es")
    lists_locked(a, b)
    ok(a, a.submit("SetInitiative", first_turn="Alice", deploys_first="Alice"))
    a.open()
    return a, b


def test_an_empty_written_position_is_refused_in_agreeing_spanish():
    a, _b = spanish_deployment()
    ids = trooper_ids()
    a.submit(
        "SealDeployment",
        lieutenant="Kaplan",
        map_taps={f"hd_x_{ids[CANARY_NINJA]}": (300, 1000)},
        **{
            f"hd_position_{ids[CANARY_NINJA]}": "   ",  # spaces pass the browser's "required"
            f"holoecho_{ids['Hassassin Ayyar']}": "marker1",
        },
    )
    assert a.error == "La posición anotada: no puede quedar en blanco."


def test_messages_for_nouns_of_either_gender_use_no_gendered_adjective():
    """One msgid names nouns of both genders ("La posición anotada", "Tu
    nombre", "Posición de Despliegue Oculto", "Teniente"): its Spanish agrees
    with none of them, so it reads right with all."""
    with translation.override("es"):
        for msgid, gendered in (
            ("%(what)s cannot be empty.", "vacío"),
            ("%(what)s is too long (at most %(max)s characters).", "%(what)s: demasiado"),
            ("sealed at %(time)s", "sellado"),
            ("sealed (still in play)", "sellado"),
            # A trooper may be of either gender too.
            ("%(name)s is not Possessed (TM-E2).", "no está Poseído"),
            ("%(name)s is not a Doctor (TM-T5).", "no es Médico"),
            ("%(name)s is not an Engineer (TM-T6).", "no es Ingeniero"),
            ("Choose which Holoecho is the real %(name)s.", "verdadero"),
        ):
            spanish = translation.gettext(msgid)
            assert spanish != msgid and gendered not in spanish, spanish


def test_a_sealed_position_reads_se_sello_not_sellado():
    a, b = spanish_deployment()
    ids = trooper_ids()
    seal(
        a,
        lieutenant="Kaplan",
        map_taps={f"hd_x_{ids[CANARY_NINJA]}": (300, 1000)},
        **{
            f"hd_position_{ids[CANARY_NINJA]}": "detrás del contenedor azul",
            f"holoecho_{ids['Hassassin Ayyar']}": "marker1",
        },
    )
    (position,) = [
        " ".join(li.get_text().split())
        for li in a.soup.select("li.secret")
        if "Posición de Despliegue Oculto" in li.get_text()
    ]
    assert "se selló a las" in position and "sellado" not in position


def test_the_spanish_roster_says_nothing_gendered_of_a_player(carol):
    """A roster holds players of either gender: "Ana ya está inscrito" and
    "retirado" misread half of them; "figura entre los inscritos" and "baja"
    read right for anyone."""
    carol.defaults["HTTP_ACCEPT_LANGUAGE"] = "es"
    submit_on(carol, "/organizer/events/", "card", name="Liga", date="2026-05-09")
    org = Organizer(carol, TournamentEvent.objects.get(name="Liga"))
    players = "Ana Arroyo, PanOceania\nBea Blanco, Yu Jing\nCarlos Cruz, Ariadna\n"
    assert org.submit("/roster/paste/", players=players).status_code == 302
    again = org.submit("/roster/paste/", players="ana  arroyo, Nomads")
    assert "ana arroyo ya figura entre los inscritos (como Ana Arroyo)." in again.content.decode()
    assert org.submit("/rounds/draw/", seed=3).status_code == 302
    assert org.submit("/rounds/publish/", points_limit=300, rounds=3, minutes=90).status_code == 302
    assert submit_on(carol, org.url, "/drop/").status_code == 302  # the first row: Ana
    assert "Ana Arroyo · baja tras la ronda 1" in roster_row(org, "Ana Arroyo").get_text()
    assert "Ana Arroyo (baja)" in org.text()
    assert not re.search(r"retirad[oa]|inscrit[oa]\b", org.text()), org.text()
