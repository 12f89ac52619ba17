"""Two laptops add the same player at the same moment (issue 21): both
forms checked the roster before either wrote, and the second write met
the first's entry (one roster entry per name) and was answered a 500. The
race is played as the database plays it to the second: the other laptop's
entry is written between this form's check and its write. The page now
says the player is already on the roster, in the organizer's language,
and adds nothing."""

from __future__ import annotations

import pytest

from tests.web.rendered_forms import submit
from tests.web.test_event_running import Organizer
from tracker import event_running
from tracker.models import EventPlayer, TournamentEvent
from tracker.organizer import event_views

pytestmark = pytest.mark.django_db

ALREADY = {
    "en": "Zoe Zamora is already on the roster (as Zoe Zamora).",
    "es": "Zoe Zamora ya figura entre los inscritos (como Zoe Zamora).",
}
PASTED = {
    "en": "Line 2: Zoe Zamora is already on the roster (as Zoe Zamora).",
    "es": "Línea 2: Zoe Zamora ya figura entre los inscritos (como Zoe Zamora).",
}


def the_other_laptop_adds_zoe_first(monkeypatch, event):
    joining = event_views._joining_round

    def meanwhile(of_event):
        EventPlayer.objects.create(
            event=event, name="Zoe Zamora", key=event_running.player_key("Zoe Zamora")
        )
        return joining(of_event)

    monkeypatch.setattr(event_views, "_joining_round", meanwhile)


@pytest.mark.parametrize("lang", ["en", "es"])
def test_a_player_added_on_two_laptops_at_once_is_added_once(carol, lang, monkeypatch):
    carol.defaults["HTTP_ACCEPT_LANGUAGE"] = lang
    event = TournamentEvent.objects.create(name="Noche de torneo")
    org = Organizer(carol, event)
    page = org.page()
    the_other_laptop_adds_zoe_first(monkeypatch, event)
    response = submit(carol, page, "/roster/", name="Zoe Zamora", faction="Nomads")
    assert response.status_code == 400
    assert ALREADY[lang] in response.content.decode()
    assert event.roster.count() == 1


@pytest.mark.parametrize("lang", ["en", "es"])
def test_a_paste_meeting_a_player_added_meanwhile_adds_nobody(carol, lang, monkeypatch):
    carol.defaults["HTTP_ACCEPT_LANGUAGE"] = lang
    event = TournamentEvent.objects.create(name="Noche de torneo")
    org = Organizer(carol, event)
    page = org.page()
    the_other_laptop_adds_zoe_first(monkeypatch, event)
    players = "Ana Arroyo, PanOceania\nZoe Zamora, Nomads\n"
    response = submit(carol, page, "/roster/paste/", players=players)
    assert response.status_code == 400
    assert PASTED[lang] in response.content.decode()
    assert list(event.roster.values_list("name", flat=True)) == ["Zoe Zamora"]
