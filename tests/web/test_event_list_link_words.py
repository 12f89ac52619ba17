"""An event's army lists (issue 21), through the player's pages: the list
link says what is true of the lock (no "late list" words before any lock),
the notice after a submission warns of a list without a Lieutenant option
and only then, and a second hand-in from a match is refused, keeping the
first list."""

from __future__ import annotations

import datetime as dt

import pytest
from django.utils import timezone

from tests.web.phone import Phone
from tests.web.test_event_running import ARMY, Organizer, list_link_of, take_late_list
from tests.web.test_handed_list_keeps_drafts import open_event, pair_round, seat_link
from tracker.models import EventPlayer, HandedList, TournamentEvent

pytestmark = pytest.mark.django_db

LATE_WORDS = "The lists are locked, but the organizer takes one late list from you"
NO_LIEUTENANT = "No trooper has the Lieutenant option."
# ARMY without "(Lieutenant)": no trooper may be the Lieutenant.
ARMY_WITHOUT_LIEUTENANT = ARMY.replace(" (Lieutenant)", "")


def ana_of(carol, deadline=None) -> tuple[TournamentEvent, Organizer, str]:
    event = TournamentEvent.objects.create(name="Liga", lists_deadline=deadline)
    org = Organizer(carol, event)
    assert org.submit("/roster/paste/", players="Ana Arroyo, PanOceania").status_code == 302
    return event, org, list_link_of(org, "Ana Arroyo")


def paste(link: str, text: str, player: Phone | None = None) -> Phone:
    """The player pastes `text` on their list link, on `player` (a phone of
    its own by default)."""
    player = player or Phone()
    player.visit(link)
    [form] = [f for f in player.forms() if "text" in f.names()]
    form.fill({"text": text})
    player.send(form)
    return player


@pytest.mark.parametrize("deadline", [None, "future"])
def test_an_open_list_link_says_nothing_of_a_late_list(carol, deadline):
    """Before any lock, the link is simply open: with a deadline it names
    it, without one it says nothing of a lock."""
    when = timezone.now() + dt.timedelta(days=2) if deadline else None
    _event, _org, link = ana_of(carol, when)
    page = Phone()
    page.visit(link)
    assert LATE_WORDS not in page.text
    assert "The army lists of this event are locked." not in page.text
    assert [f for f in page.forms() if "text" in f.names()]
    assert ("Lists lock at" in page.text) == bool(deadline)


def test_a_late_list_link_says_so_only_once_the_lists_lock(carol):
    _event, org, link = ana_of(carol)
    assert org.submit("/lists/", within=".lock-now").status_code == 302
    take_late_list(org, "Ana Arroyo")
    page = Phone()
    page.visit(link)
    assert LATE_WORDS in page.text


def test_a_list_without_a_lieutenant_option_is_taken_with_a_warning(carol):
    _event, _org, link = ana_of(carol)
    player = paste(link, ARMY_WITHOUT_LIEUTENANT)
    assert "Your list is in: 2 troopers (25 points)." in player.text
    assert NO_LIEUTENANT in player.text
    assert HandedList.objects.get(player="Ana Arroyo").rows


def test_a_list_with_a_lieutenant_option_is_taken_without_the_warning(carol):
    _event, _org, link = ana_of(carol)
    player = paste(link, ARMY)
    assert "Your list is in: 2 troopers (25 points)." in player.text
    assert NO_LIEUTENANT not in player.text


def kaplan_handed_in(match) -> Phone:
    """Alice claims seat A of `match` and hands in a list of one Kaplan."""
    alice = Phone()
    alice.claim(seat_link(match), "Alice Arroyo")
    alice.submit("draft/add", name="Kaplan", cost="20")
    alice.submit("draft/hand")
    assert alice.error is None
    return alice


def test_attack_a_second_hand_in_from_a_match_is_refused_and_keeps_the_first_list(carol):
    spring = open_event(carol, "Spring Open")
    match = pair_round(carol, spring, 1)
    alice = kaplan_handed_in(match)
    alice.submit("draft/add", name="Fusilier", cost="10")
    assert alice.error is None
    assert not alice.forms("draft/hand")  # handed once: no button any more
    again = alice.app.post(
        f"/m/{match.code}/draft/hand/",
        {},
        headers={"X-CSRFToken": alice.app.cookies["csrftoken"], "HX-Request": "true"},
        expect_errors=True,
    )
    assert again.status_code < 500
    assert "You have already handed a list to the organizer of this event." in again.text
    assert [row["name"] for row in HandedList.objects.get().rows] == ["Kaplan"]


def test_a_late_list_handed_in_from_a_match_uses_up_the_organizers_exception(carol):
    """The organizer takes one late list: handed in from the match, the
    exception is spent, as it is when submitted through the link."""
    spring = open_event(carol, "Spring Open")
    org = Organizer(carol, spring)
    assert org.submit("/roster/paste/", players="Alice Arroyo, PanOceania").status_code == 302
    assert org.submit("/lists/", within=".lock-now").status_code == 302
    take_late_list(org, "Alice Arroyo")
    match = pair_round(carol, spring, 1)
    kaplan_handed_in(match)
    assert EventPlayer.objects.get(event=spring, name="Alice Arroyo").late_list is False


def test_a_list_taken_after_the_lock_is_one_list():
    """The organizer's exception after the lock (a late list, or later a
    corrected one) opens one list: once it is handed in, the lock holds for
    that player again."""
    from tracker.event_running import list_open_for, submit_list

    event = TournamentEvent.objects.create(name="Liga", lists_deadline=timezone.now())
    ana = EventPlayer.objects.create(event=event, name="Ana", key="ana", late_list=True)
    rows = [{"name": "Fusilier", "cost": 10, "combat_group": 1, "silhouette": 2, "traits": []}]
    for _taken in ("late", "corrected"):
        assert list_open_for(ana)
        submit_list(ana, rows)
        ana.refresh_from_db()
        assert not list_open_for(ana)
        ana.late_list = True  # the organizer takes one more (a corrected one)
        ana.save(update_fields=["late_list"])
    assert HandedList.objects.filter(event=event).count() == 1


def test_two_sends_of_a_reopened_link_read_together_take_one_list():
    """Two sends of a late list's form (two tabs, a double tap) each read
    the player's row before either was taken: both lists were taken, the
    last one winning. The second, reading the row under the first's lock,
    now finds the lists locked for this player again."""
    from tracker.event_running import ListsLocked, submit_list

    event = TournamentEvent.objects.create(name="Liga", lists_deadline=timezone.now())
    EventPlayer.objects.create(event=event, name="Ana", key="ana", late_list=True)
    first, second = (EventPlayer.objects.get(key="ana") for _send in range(2))
    row = {"cost": 10, "combat_group": 1, "silhouette": 2, "traits": []}
    submit_list(first, [{"name": "Fusilier", **row}])
    with pytest.raises(ListsLocked):
        submit_list(second, [{"name": "Bolt", **row}])
    [handed] = HandedList.objects.filter(event=event)
    assert [r["name"] for r in handed.rows] == ["Fusilier"]


def test_the_warning_of_a_list_without_a_lieutenant_option_is_in_spanish(carol):
    _event, _org, link = ana_of(carol)
    player = Phone("es")
    player.visit(link)
    [form] = [f for f in player.forms() if "text" in f.names()]
    form.fill({"text": ARMY_WITHOUT_LIEUTENANT})
    player.send(form)
    assert "Tu lista está entregada: 2 tropas (25 puntos)." in player.text
    assert "Ninguna tropa tiene la opción de Teniente." in player.text
    assert NO_LIEUTENANT not in player.text
