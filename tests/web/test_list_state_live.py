"""A player's match page follows their list's state in the event live
(issue 21's lists, issue 18's "no state that is not true"): the hand-in of
an army list and the late list an organizer takes are not events of the
match's log, so no seq moved and no push went; the page kept saying "the
lists are locked, ask the organizer" after the organizer had taken her late
list, and after she handed it in, until she reloaded. Now both reach her
phone's socket at once, in the phone's language."""

from __future__ import annotations

import pytest
from asgiref.sync import sync_to_async
from channels.testing import WebsocketCommunicator

from tests.web.phone import Phone
from tests.web.test_event_running import (
    Organizer,
    list_link_of,
    seat_phone,
    submit_through_link,
    take_late_list,
)
from tracker.asgi import application
from tracker.models import Match, TournamentEvent

pytestmark = pytest.mark.django_db(transaction=True)

SAID = {
    "en": {
        "locked": "The army lists of this event are locked",
        "hand_in": "Hand this list to the organizer of Liga",
        # Her match's draft, typed before, is not the list she hands in by
        # her link: her page says so (a started draft is never overwritten).
        "handed": "This list is not the one you handed to the organizer of Liga",
    },
    "es": {
        "locked": "Las listas de ejército de este evento están cerradas",
        "hand_in": "Entregar esta lista al organizador de Liga",
        "handed": "Esta lista no es la que entregaste al organizador de Liga",
    },
}


def _locked_event_with_anas_draft(carol, language: str):
    """Lists locked before Ana handed one in; round 1 drawn and published;
    Ana on her seat with a trooper in her draft."""
    event = TournamentEvent.objects.create(name="Liga")
    org = Organizer(carol, event)
    players = "Ana Arroyo, PanOceania\nBea Bello, Yu Jing"
    assert org.submit("/roster/paste/", players=players).status_code == 302
    assert org.submit("/lists/", within=".lock-now").status_code == 302
    assert org.submit("/rounds/draw/", seed=5).status_code == 302
    response = org.submit("/rounds/publish/", points_limit=300, rounds=3, minutes=60)
    assert response.status_code == 302
    match = Match.objects.get(event=event)
    letter = next(s.letter for s in match.seats.all() if s.listed_name == "Ana Arroyo")
    ana = seat_phone(carol, match, letter, language)
    ana.open()
    ana.submit("draft/add", name="Fusilier", cost="10")
    assert SAID[language]["locked"] in ana.open().text
    return org, match, ana


def _socket(phone, match: Match) -> WebsocketCommunicator:
    language = phone.app.extra_environ.get("HTTP_ACCEPT_LANGUAGE", "en")
    headers = [
        (b"origin", b"http://localhost"),
        (b"host", b"localhost"),
        (b"cookie", f"sessionid={phone.app.cookies['sessionid']}".encode()),
        (b"accept-language", language.encode()),
    ]
    return WebsocketCommunicator(application, f"/ws/m/{match.code}/", headers=headers)


async def _frame_saying(socket, text: str) -> str:
    for _ in range(5):
        frame = await socket.receive_from(timeout=5)
        if text in frame:
            return frame
    raise AssertionError(f"no frame said {text!r}")


@pytest.mark.parametrize("language", ["en", "es"])
async def test_a_late_list_taken_and_handed_in_reaches_the_players_page_live(carol, language):
    org, match, ana = await sync_to_async(_locked_event_with_anas_draft)(carol, language)
    socket = _socket(ana, match)
    connected, _ = await socket.connect()
    assert connected
    first = await socket.receive_from(timeout=5)
    assert SAID[language]["locked"] in first

    # The organizer takes her late list: the hand-in comes back on her page.
    await sync_to_async(take_late_list)(org, "Ana Arroyo")
    frame = await _frame_saying(socket, SAID[language]["hand_in"])
    assert SAID[language]["locked"] not in frame

    # She hands it in through her private link: her page says it is handed.
    link = await sync_to_async(list_link_of)(org, "Ana Arroyo")
    await sync_to_async(submit_through_link)(link, "Ana Arroyo")
    frame = await _frame_saying(socket, SAID[language]["handed"])
    assert SAID[language]["hand_in"] not in frame
    await socket.disconnect()


def _open_event_with_anas_draft(carol):
    """Lists open; round 1 drawn and published; Ana on her seat with a
    trooper in her draft."""
    event = TournamentEvent.objects.create(name="Liga")
    org = Organizer(carol, event)
    players = "Ana Arroyo, PanOceania\nBea Bello, Yu Jing"
    assert org.submit("/roster/paste/", players=players).status_code == 302
    assert org.submit("/rounds/draw/", seed=5).status_code == 302
    response = org.submit("/rounds/publish/", points_limit=300, rounds=3, minutes=60)
    assert response.status_code == 302
    match = Match.objects.get(event=event)
    letter = next(s.letter for s in match.seats.all() if s.listed_name == "Ana Arroyo")
    ana = seat_phone(carol, match, letter)
    ana.open()
    ana.submit("draft/add", name="Fusilier", cost="10")
    assert SAID["en"]["hand_in"] in ana.open().text
    return match, ana


async def test_a_list_handed_in_from_the_match_reaches_the_players_other_tab_live(carol):
    """The hand-in tap answers the tab that tapped; her other tab (the
    same session's socket) is told too, and drops its hand-in button."""
    match, ana = await sync_to_async(_open_event_with_anas_draft)(carol)
    socket = _socket(ana, match)
    connected, _ = await socket.connect()
    assert connected
    assert SAID["en"]["hand_in"] in await socket.receive_from(timeout=5)
    await sync_to_async(ana.submit)("draft/hand")
    assert ana.error is None
    frame = await _frame_saying(socket, "Your list is with the organizer of Liga")
    assert SAID["en"]["hand_in"] not in frame
    await socket.disconnect()


def _event_with_beas_list_from_her_laptop(carol):
    """Lists open; Bea hands hers in through her link on her laptop; round 1
    published; Bea takes her seat on her phone from the sheet, its draft
    empty (her phone has not opened her list link yet)."""
    event = TournamentEvent.objects.create(name="Liga")
    org = Organizer(carol, event)
    players = "Ana Arroyo, PanOceania\nBea Bello, Yu Jing"
    assert org.submit("/roster/paste/", players=players).status_code == 302
    link = list_link_of(org, "Bea Bello")
    submit_through_link(link, "Bea Bello")
    assert org.submit("/rounds/draw/", seed=5).status_code == 302
    response = org.submit("/rounds/publish/", points_limit=300, rounds=3, minutes=60)
    assert response.status_code == 302
    match = Match.objects.get(event=event)
    seat = next(s for s in match.seats.all() if s.listed_name == "Bea Bello")
    sheet = carol.get(f"/organizer/matches/{match.code}/sheet/").content.decode()
    seat_url = f"/m/{match.code}/s/{seat.token}/"
    assert seat_url in sheet
    bea = Phone()
    bea.claim(seat_url, "Bea Bello")
    assert "open your list link on this phone" in bea.text
    assert "Bolt" not in bea.text
    return match, bea, link


async def test_a_list_link_opened_in_another_tab_fills_the_match_tab_live(carol):
    """Bea's match tab tells her to open her list link on this phone; she
    does, in another tab: the match tab shows her list at once."""
    match, bea, link = await sync_to_async(_event_with_beas_list_from_her_laptop)(carol)
    socket = _socket(bea, match)
    connected, _ = await socket.connect()
    assert connected
    assert "open your list link on this phone" in await socket.receive_from(timeout=5)
    await sync_to_async(bea.visit)(link)
    frame = await _frame_saying(socket, "Your list is with the organizer of Liga")
    assert "Bolt" in frame and "open your list link on this phone" not in frame
    await socket.disconnect()
