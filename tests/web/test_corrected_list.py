"""A list found wrong after the lists lock (over the points a round plays
at): the roster showed only "submitted", a late list was offered only to
players without one, and a player who fixed the list in a match was still
told "Your list is with the organizer: each round's match starts with it",
while each new round's match started from the wrong one again. Now the
roster shows each list's points, the organizer may take one corrected list
that replaces it for the rounds to come, and a draft edited after the
hand-in says it is this match's only. A player who dropped before round 1
is not counted among the missing lists nor offered a late one. Through the
pages' rendered forms, in both languages."""

from __future__ import annotations

import pytest
from bs4 import BeautifulSoup

from tests.web.phone import Phone
from tests.web.rendered_forms import submit
from tests.web.test_event_running import Organizer, list_link_of, submit_through_link
from tests.web.test_handed_list_keeps_drafts import open_event, pair_round, seat_link
from tracker.models import EventPlayer, HandedList, TournamentEvent

pytestmark = pytest.mark.django_db

CORRECTED = """PanOceania
Event list

GROUP 1 3 0

FUSILIER (Lieutenant) Combi Rifle / Pistol, Knife. (0 | 10)
"""
TAKEN = {
    "en": "Ana may submit one corrected list through their link, despite the lock. "
    "It replaces theirs for the rounds to come.",
    "es": "Ana puede entregar una lista corregida por su enlace, pese al cierre. "
    "Sustituye a la suya en las rondas que faltan.",
}
SUBMITTED = {"en": "submitted (25 points)", "es": "entregada (25 puntos)"}
ACCEPTED = {"en": "corrected list accepted (once)", "es": "lista corregida aceptada (una vez)"}
ON_THE_LINK = {
    "en": "The lists are locked, but the organizer takes one corrected list from you: "
    "it replaces the one above for the rounds to come.",
    "es": "Las listas están cerradas, pero el organizador te acepta una lista corregida: "
    "sustituye a la de arriba en las rondas que faltan.",
}
LOCKED = {
    "en": "The army lists of this event are locked.",
    "es": "Las listas de ejército de este evento están cerradas.",
}


def squeezed(html: str) -> str:
    return " ".join(BeautifulSoup(html, "lxml").get_text(" ").split())


@pytest.mark.parametrize("lang", ["en", "es"])
def test_the_organizer_takes_a_corrected_list_once_after_the_lock(carol, lang):
    carol.defaults["HTTP_ACCEPT_LANGUAGE"] = lang
    event = TournamentEvent.objects.create(name="Open")
    org = Organizer(carol, event)
    assert (
        org.submit("/roster/paste/", players="Ana, PanOceania\nBea, Yu Jing\n").status_code == 302
    )
    link = list_link_of(org, "Ana")
    submit_through_link(link, "Ana")
    assert org.submit("/lists/", within=".lock-now").status_code == 302
    assert SUBMITTED[lang] in org.text()

    assert org.submit("/late-list/", within=f"#list-{_pk('Ana')}").status_code == 302
    text = org.text()
    assert TAKEN[lang] in text and ACCEPTED[lang] in text

    ana = Phone(lang)
    ana.visit(link)
    assert ON_THE_LINK[lang] in ana.text
    [form] = [f for f in ana.forms() if "text" in f.names()]
    form.fill({"text": CORRECTED})
    ana.send(form)
    handed = HandedList.objects.get(event=event, player_key=HandedList.key("Ana"))
    assert [row["name"] for row in handed.rows] == ["Fusilier"]
    # Once: the lock holds for her again, and the roster shows the new list.
    ana.visit(link)
    assert LOCKED[lang] in ana.text and not [f for f in ana.forms() if "text" in f.names()]
    assert ("submitted (10 points)" if lang == "en" else "entregada (10 puntos)") in org.text()


def _pk(name: str) -> int:
    return EventPlayer.objects.get(name=name).pk


def test_a_late_list_button_from_before_the_list_came_reopens_nothing(carol):
    """The late list's button (no list yet) sent after the list came in:
    still refused, the corrected list's is another form."""
    event = TournamentEvent.objects.create(name="Open")
    org = Organizer(carol, event)
    assert (
        org.submit("/roster/paste/", players="Ana, PanOceania\nBea, Yu Jing\n").status_code == 302
    )
    assert org.submit("/lists/", within=".lock-now").status_code == 302
    before = org.page()  # offers Ana a late list
    assert org.submit("/late-list/", within=f"#list-{_pk('Ana')}").status_code == 302
    submit_through_link(list_link_of(org, "Ana"), "Ana")
    assert submit(carol, before, "/late-list/", within=f"#list-{_pk('Ana')}").status_code == 302
    assert "Ana has already submitted a list." in org.text()
    assert EventPlayer.objects.get(name="Ana").late_list is False


HINT_CHANGED = {
    "en": "This list is not the one you handed to the organizer of Spring Open: your changes "
    "stay in this match only, and each new round's match starts with the list you handed in.",
    "es": "Esta lista no es la que entregaste al organizador de Spring Open: tus cambios se "
    "quedan solo en esta partida, y la partida de cada nueva ronda empieza con la lista que "
    "entregaste.",
}

HINT_HANDED = {
    "en": "Your list is with the organizer of Spring Open",
    "es": "Tu lista la tiene el organizador de Spring Open",
}


@pytest.mark.parametrize("lang", ["en", "es"])
def test_a_draft_changed_after_the_hand_in_says_it_is_this_matchs_only(carol, lang):
    spring = open_event(carol, "Spring Open")
    match = pair_round(carol, spring, 1)
    alice = Phone(lang)
    alice.claim(seat_link(match), "Alice Arroyo")
    alice.submit("draft/add", name="Kaplan", cost="20")
    alice.submit("draft/hand")
    assert alice.error is None
    assert HINT_CHANGED[lang] not in alice.text and HINT_HANDED[lang] in alice.text
    alice.submit("draft/add", name="Fusilier", cost="10")
    assert alice.error is None
    assert HINT_CHANGED[lang] in alice.text and HINT_HANDED[lang] not in alice.text


@pytest.mark.parametrize("lang", ["en", "es"])
def test_a_trooper_edited_after_the_hand_in_says_so_though_the_list_is_as_long(carol, lang):
    """The same number of troopers is not the same list: a Combat Group
    changed, or one trooper swapped for another, is this match's only; put
    back as handed in, it is the organizer's list again."""
    spring = open_event(carol, "Spring Open")
    match = pair_round(carol, spring, 1)
    alice = Phone(lang)
    alice.claim(seat_link(match), "Alice Arroyo")
    alice.submit("draft/add", name="Kaplan", cost="20")
    alice.submit("draft/hand")
    assert alice.error is None
    assert HINT_HANDED[lang] in alice.text
    alice.submit("draft/edit", combat_group="2")
    assert alice.error is None
    assert HINT_CHANGED[lang] in alice.text and HINT_HANDED[lang] not in alice.text
    alice.submit("draft/edit", combat_group="1")
    assert alice.error is None
    assert HINT_HANDED[lang] in alice.text and HINT_CHANGED[lang] not in alice.text
    alice.submit("draft/remove")
    alice.submit("draft/add", name="Fusilier", cost="20")
    assert alice.error is None
    assert HINT_CHANGED[lang] in alice.text and HINT_HANDED[lang] not in alice.text


def test_a_player_dropped_before_round_1_needs_no_list(carol):
    event = TournamentEvent.objects.create(name="Open")
    org = Organizer(carol, event)
    assert (
        org.submit("/roster/paste/", players="Ana, PanOceania\nBea, Yu Jing\n").status_code == 302
    )
    submit_through_link(list_link_of(org, "Ana"), "Ana")
    assert "1 player has not submitted a list." in org.text()
    assert org.submit("/drop/", within=f"#player-{_pk('Bea')}").status_code == 302
    assert org.submit("/lists/", within=".lock-now").status_code == 302
    text = org.text()
    assert "has not submitted a list" not in text
    bea_row = BeautifulSoup(org.page(), "lxml").select_one(f"#list-{_pk('Bea')}")
    assert "not submitted" in bea_row.get_text() and bea_row.find("form") is None
