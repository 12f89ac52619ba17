"""A link carrying a character that no code, token or name of ours has (a
NUL above all, "%00", from a mangled QR code or a curious player) matches
no route: our own 404 page in the phone's language, and a clean 4404 close
on a socket, with no view reached. Each string a route carries is looked up
in the database, and PostgreSQL refuses a text holding U+0000: the match
page, a seat link, the hand-off, a list's link and the organizer's audit
were 500s there (tests/scale/test_postgres_nul_links.py asks PostgreSQL
itself). Django's `slug` converter (tracker/urls.py)."""

from __future__ import annotations

import re

import pytest
from channels.testing import WebsocketCommunicator
from django.test import Client
from django.urls import Resolver404, resolve

from tracker.asgi import application
from tracker.routing import websocket_urlpatterns

from .test_authorization_matrix import routes

pytestmark = pytest.mark.django_db

SEGMENT = re.compile(r"<(\w+):(\w+)>")
ODD = ("\x00", "%00", "é", " ", ".", "'")


def test_every_string_a_route_carries_is_a_slug():
    """A route added with Django's `str` converter lets any character through
    to its view again: every text segment is a <slug:...>. The admin is
    Django's own, for staff only."""
    loose = [
        route
        for route in [*routes(), *(str(p.pattern) for p in websocket_urlpatterns)]
        for converter, _name in SEGMENT.findall(route)
        if converter not in ("slug", "int") and not route.startswith("admin/")
    ]
    assert loose == []


@pytest.mark.parametrize("odd", ODD)
def test_no_route_takes_a_segment_outside_the_links_alphabet(odd):
    reached = []
    for route in routes():
        if route.startswith("admin/"):
            continue
        for converter, name in SEGMENT.findall(route):
            if converter == "int":
                continue
            path = "/" + SEGMENT.sub(
                lambda m, name=name: (
                    f"ab{odd}cd" if m.group(2) == name else "1" if m.group(1) == "int" else "abcd"
                ),
                route,
            )
            try:
                resolve(path)
            except Resolver404:
                continue
            reached.append(path)
    assert reached == []


@pytest.mark.parametrize("language", ["es", "en"])
def test_a_match_link_with_a_nul_is_our_own_404_in_the_phones_language(language):
    words = {"es": "Página no encontrada", "en": "Page not found"}[language]
    client = Client(HTTP_ACCEPT_LANGUAGE=language)
    for path in (
        "/m/%00abcdefgh/",
        "/m/abcdefgh%00/s/%00token/",
        "/e/list/tok%00en/",
        "/organizer/matches/%00abc/",
    ):
        answer = client.get(path)
        assert answer.status_code == 404, path
        assert words in answer.content.decode(), path
    answer = client.post("/m/abcdefgh/hand-off/%00/")
    assert answer.status_code == 404


async def test_a_socket_whose_code_has_a_nul_is_closed_as_an_unknown_path():
    headers = [(b"origin", b"http://localhost"), (b"host", b"localhost")]
    socket = WebsocketCommunicator(application, "/ws/m/ab\x00cd/", headers=headers)
    connected, code = await socket.connect(timeout=10)
    if connected:
        closed = await socket.receive_output(timeout=10)
        code = closed.get("code")
    assert code == 4404
    await socket.disconnect()
