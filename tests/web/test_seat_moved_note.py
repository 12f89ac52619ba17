"""A phone whose seat moved to another phone (its PIN typed there, or a
hand-off) is told so: before, its buttons vanished and only "You are
watching as a spectator." in the middle of the page said why. Its page, its
HTTP resync and its socket's push say "Your seat moved to another phone";
any other spectator reads the plain line, and the seat's new phone is the
player's. The note is the header block's, rendered for a key of its own
(rendering._key), so no other spectator's render carries it."""

from __future__ import annotations

import pytest
from asgiref.sync import sync_to_async
from bs4 import BeautifulSoup
from django.test import Client
from django.utils import translation

from tests.web.rendered_forms import submit_on
from tests.web.table import seated
from tests.web.test_live import socket_for
from tracker.models import Seat

MOVED = "Your seat moved to another phone: this one now watches as a spectator."
WATCHING = "You are watching as a spectator."


def said(msgid: str, language: str) -> str:
    with translation.override(language):
        return translation.gettext(msgid)


def header_text(html: str) -> str:
    header = BeautifulSoup(html, "lxml").select_one("#blk-header")
    return " ".join(header.get_text(" ").split())


def move_seat_a_to(phone: Client, match) -> None:
    """Alice's PIN typed on the seat link's page of another phone."""
    seat = Seat.objects.get(match=match, letter="A")
    response = submit_on(phone, f"/m/{match.code}/s/{seat.token}/", "card", pin="739164")
    assert response.status_code == 302, response.content[:300]


@pytest.mark.django_db
@pytest.mark.parametrize("language", ["en", "es"])
def test_the_phone_a_seat_moved_from_says_so_and_no_one_else_s(alice, bob, language):
    for client in (alice, bob):
        client.defaults["HTTP_ACCEPT_LANGUAGE"] = language
    a, _b = seated(alice, bob)
    tablet, stranger = Client(HTTP_ACCEPT_LANGUAGE=language), Client(HTTP_ACCEPT_LANGUAGE=language)
    move_seat_a_to(tablet, a.match)
    page = f"/m/{a.match.code}/"
    assert said(MOVED, language) in header_text(alice.get(page).content.decode())
    # The HTTP resync of that phone's blocks (app.js) keeps the note.
    partial = alice.get(f"/m/{a.match.code}/blocks/", HTTP_HX_REQUEST="true")
    assert said(MOVED, language) in header_text(partial.content.decode())
    # A spectator who never sat here reads the plain line; the tablet plays.
    text = header_text(stranger.get(page).content.decode())
    assert said(WATCHING, language) in text and said(MOVED, language) not in text
    text = header_text(tablet.get(page).content.decode())
    assert said(MOVED, language) not in text and said(WATCHING, language) not in text
    # The seat back on her phone (its PIN again): a player's page, no note.
    move_seat_a_to(alice, a.match)
    text = header_text(alice.get(page).content.decode())
    assert said(MOVED, language) not in text and said(WATCHING, language) not in text


@pytest.mark.django_db(transaction=True)
async def test_the_socket_of_the_phone_a_seat_moved_from_pushes_the_note(alice, bob):
    a, _b = await sync_to_async(seated)(alice, bob)
    socket = socket_for(alice, a.match)
    connected, _ = await socket.connect()
    assert connected
    first = await socket.receive_from(timeout=5)
    assert MOVED not in first
    await sync_to_async(move_seat_a_to)(Client(), a.match)
    frame = await socket.receive_from(timeout=5)
    while 'id="blk-header"' not in frame:
        frame = await socket.receive_from(timeout=5)
    assert MOVED in frame
    await socket.disconnect()
