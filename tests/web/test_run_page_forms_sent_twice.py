"""The run page's forms sent again from a page behind the event (issue 21):
a double tap, a tap sent again after a stalled answer, Back, or a second
laptop. A swap trades two players wherever they stand, so the same swap
sent twice traded them back, and said "Swapped" twice over pairings the
organizer had not chosen; a deadline form from before "Lock the lists
now" reopened every list once the pairings were out. Each is now told what
is already so, in the organizer's language, and changes nothing."""

from __future__ import annotations

import pytest
from bs4 import BeautifulSoup

from tests.web.rendered_forms import submit
from tests.web.test_event_running import Organizer
from tracker import event_running
from tracker.models import TournamentEvent

pytestmark = pytest.mark.django_db

EIGHT = "Ana, PanOceania\nBea, Yu Jing\nCai, Nomads\nDan, ALEPH\nEva, Tohaa\nFer, O-12\nGil, JSA\nHal, Ariadna\n"

SWAPPED_TWICE = {
    "en": (
        "The pairings of round 1 changed since this page showed them (a swap sent twice, "
        "or another device): nothing was swapped. Check them, then swap."
    ),
    "es": (
        "Los emparejamientos de la ronda 1 han cambiado desde que esta página los mostró "
        "(un intercambio enviado dos veces, u otro dispositivo): no se ha intercambiado a "
        "nadie. Revísalos y luego intercambia."
    ),
}
ALREADY_LOCKED = {
    "en": "The army lists are already locked: nothing changed. "
    "For a player without a list, use “Take a late list”.",
    "es": (
        "Las listas de ejército ya están cerradas: no ha cambiado nada. "
        "Para un jugador sin lista, usa «Aceptar una lista tardía»."
    ),
}


def organizer(carol, lang: str) -> Organizer:
    carol.defaults["HTTP_ACCEPT_LANGUAGE"] = lang
    event = TournamentEvent.objects.create(name="Noche de torneo")
    org = Organizer(carol, event)
    assert org.submit("/roster/paste/", players=EIGHT).status_code == 302
    return org


def pairs(org: Organizer) -> list[list[int]]:
    return org.event.rounds.get(number=1).pairs


@pytest.mark.parametrize("lang", ["en", "es"])
def test_a_swap_sent_twice_swaps_once(carol, lang):
    org = organizer(carol, lang)
    assert org.submit("/rounds/draw/", seed=7).status_code == 302
    page, drawn = org.page(), pairs(org)
    offered = [
        o["value"]
        for o in BeautifulSoup(page, "lxml").select(
            'form[action$="/rounds/swap/"] select[name=one] option'
        )
    ]
    one, two = offered[0], offered[2]  # table 1's A and table 2's A
    assert submit(carol, page, "/rounds/swap/", one=one, two=two).status_code == 302
    swapped = pairs(org)
    assert swapped != drawn
    # The same tap again, from the same page: nothing changes, and the page says why.
    assert submit(carol, page, "/rounds/swap/", one=one, two=two).status_code == 302
    assert pairs(org) == swapped
    assert SWAPPED_TWICE[lang] in org.text()
    # From the page as it is now, the organizer may swap them back.
    assert org.submit("/rounds/swap/", one=one, two=two).status_code == 302
    assert pairs(org) == drawn


@pytest.mark.parametrize("lang", ["en", "es"])
def test_a_swap_from_a_page_behind_the_publishing_changes_nothing(carol, lang):
    org = organizer(carol, lang)
    assert org.submit("/rounds/draw/", seed=7).status_code == 302
    page = org.page()
    offered = [
        o["value"]
        for o in BeautifulSoup(page, "lxml").select(
            'form[action$="/rounds/swap/"] select[name=one] option'
        )
    ]
    assert org.submit("/rounds/publish/", points_limit=300, rounds=3, minutes=90).status_code == 302
    published = pairs(org)
    assert org.submit("/rounds/draw/").status_code == 400  # round 1 is still being played
    assert submit(carol, page, "/rounds/swap/", one=offered[0], two=offered[2]).status_code == 302
    assert pairs(org) == published
    already = {"en": "Round 1 is already published.", "es": "La ronda 1 ya está publicada."}
    assert already[lang] in org.text()


@pytest.mark.parametrize("lang", ["en", "es"])
def test_a_deadline_from_a_page_before_the_lock_does_not_reopen_the_lists(carol, lang):
    org = organizer(carol, lang)
    before = org.page()  # a second laptop, or the page Back returns to
    assert org.submit("/lists/", within=".lock-now").status_code == 302
    event = TournamentEvent.objects.get(pk=org.event.pk)
    locked_at = event.lists_deadline
    assert event_running.lists_locked(event)
    response = submit(carol, before, "/lists/", within="#lists", deadline="2099-12-03T18:05")
    assert response.status_code == 302
    event.refresh_from_db()
    assert event.lists_deadline == locked_at and event_running.lists_locked(event)
    assert ALREADY_LOCKED[lang] in org.text()
    # "Lock the lists now" sent again keeps the moment they locked.
    assert submit(carol, before, "/lists/", within=".lock-now").status_code == 302
    event.refresh_from_db()
    assert event.lists_deadline == locked_at


SCORING_CHANGED = {
    "en": (
        "The scoring table was changed on another device since this page showed it "
        "(Tournament Points for a win: 3): nothing was saved. Check it, then save."
    ),
    "es": (
        "La tabla de puntuación se cambió en otro dispositivo desde que esta página la "
        "mostró (Puntos de Torneo por una victoria: 3): no se ha guardado nada. "
        "Revísala y luego guarda."
    ),
}


@pytest.mark.parametrize("lang", ["en", "es"])
def test_a_scoring_form_from_a_page_behind_does_not_undo_another_device_s_change(carol, lang):
    from django.contrib.auth.models import User
    from django.test import Client

    org = organizer(carol, lang)
    behind = org.page()  # the first tab
    second = Client()
    second.force_login(User.objects.get(username="carol"))
    assert Organizer(second, org.event).submit("/scoring/", win=3).status_code == 302

    # The first tab changes the bye alone: its form still says 4 for a win.
    response = submit(carol, behind, "/scoring/", bye_tp=3)
    assert response.status_code == 400
    event = TournamentEvent.objects.get(pk=org.event.pk)
    assert event.scoring["win"] == 3 and event.scoring["bye_tp"] == 4
    text = " ".join(BeautifulSoup(response.content.decode(), "lxml").get_text(" ").split())
    assert SCORING_CHANGED[lang] in text
    # The form shown again holds both: the other device's win, the bye as
    # typed. "Save" on it, untouched, saves both (before, it held the win
    # this tab had shown, and that save undid the other device's change).
    form = BeautifulSoup(response.content.decode(), "lxml").select_one("#scoring")
    assert form.select_one("input[name=bye_tp]")["value"] == "3"
    assert form.select_one("input[name=win]")["value"] == "3"
    assert submit(carol, response.content.decode(), "/scoring/").status_code == 302
    event.refresh_from_db()
    assert event.scoring["win"] == 3 and event.scoring["bye_tp"] == 3


@pytest.mark.parametrize("lang", ["en", "es"])
def test_a_stale_scoring_form_corrected_after_an_error_is_still_checked(carol, lang):
    """A value out of range on a page behind: the page shown again keeps
    what was typed and the table it was typed on, so the corrected save is
    refused as the first would have been, not saved over the other device."""
    from django.contrib.auth.models import User
    from django.test import Client

    org = organizer(carol, lang)
    behind = org.page()
    second = Client()
    second.force_login(User.objects.get(username="carol"))
    assert Organizer(second, org.event).submit("/scoring/", win=3).status_code == 302

    wrong = submit(carol, behind, "/scoring/", bye_tp=30)  # past its bound of 20
    assert wrong.status_code == 400
    corrected = submit(carol, wrong.content.decode(), "/scoring/", bye_tp=3)
    assert corrected.status_code == 400
    event = TournamentEvent.objects.get(pk=org.event.pk)
    assert event.scoring["win"] == 3 and event.scoring["bye_tp"] == 4
    text = " ".join(BeautifulSoup(corrected.content.decode(), "lxml").get_text(" ").split())
    assert SCORING_CHANGED[lang] in text
    assert submit(carol, corrected.content.decode(), "/scoring/").status_code == 302
    event.refresh_from_db()
    assert event.scoring["win"] == 3 and event.scoring["bye_tp"] == 3


def test_a_scoring_form_sent_twice_saves_once_without_a_refusal(carol):
    org = organizer(carol, "en")
    page = org.page()
    assert submit(carol, page, "/scoring/", win=5).status_code == 302
    assert submit(carol, page, "/scoring/", win=5).status_code == 302
    assert TournamentEvent.objects.get(pk=org.event.pk).scoring["win"] == 5
    assert "Scoring table saved; the standings use it." in org.text()
