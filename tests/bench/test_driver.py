"""bench/load.py's phones do what app.js does with a tap's answer (issue 18):
the load they put on the server is a real phone's only if they do."""

from __future__ import annotations

import asyncio
import json

from aiohttp import web
from aiohttp.test_utils import TestServer

from bench import load

SEAT = '<section hx-swap-oob="true" data-h="{}" id="blk-seat_A"><ul></ul></section>'


def answer(seq: int, digest: str) -> str:
    return f'<div id="seq" hx-swap-oob="true" data-seq="{seq}"></div>' + SEAT.format(digest)


async def tap_answered_with(seq: int, newest: int) -> tuple[load.Phone, list[dict]]:
    """A phone whose socket has shown seq `newest` taps; the server answers
    with seq `seq` and a new seat block. What the phone then records, and
    what it asked on its socket."""
    asked: list[dict] = []

    async def act(_request):
        return web.Response(text=answer(seq, "b" * 16), content_type="text/html")

    async def socket(request):
        ws = web.WebSocketResponse()
        await ws.prepare(request)
        async for message in ws:
            asked.append(json.loads(message.data))
        return ws

    app = web.Application()
    app.router.add_post("/m/code/act/SetTrooperState/", act)
    app.router.add_get("/ws", socket)
    server = TestServer(app)
    await server.start_server()
    try:
        base = str(server.make_url("")).rstrip("/")
        phone = load.Phone(base, "code", "session", as_app=False)
        phone.form_url = "/m/code/act/SetTrooperState/"
        phone.troopers = [("a1", "normal")]
        phone.prone["a1"] = False
        phone.socket.shown["seat_A"] = "a" * 16
        phone.socket.newest = newest
        async with load.session() as http:
            phone.socket.ws = await http.ws_connect(base + "/ws")
            served, error = await load.tap(http, phone, 0)
            await asyncio.sleep(0.2)
            await phone.socket.ws.close()
        assert (served, error) == (seq, "")
        return phone, asked
    finally:
        await server.close()


async def test_an_answer_older_than_a_push_is_dropped_and_the_phone_resyncs():
    """app.js's checkAnswer: a push for a newer seq came first, so the
    answer shows the past. Its digests are not recorded as the page's (the
    next tap and push would be sized against blocks the phone does not
    show) and the phone asks over its socket, naming what it shows."""
    phone, asked = await tap_answered_with(seq=5, newest=7)
    assert phone.socket.shown == {"seat_A": "a" * 16}
    assert asked == [{"resync": True, "h": "a" * 16}]
    assert phone.socket.resyncs == 1


async def test_a_current_answer_is_recorded_and_asks_nothing():
    phone, asked = await tap_answered_with(seq=7, newest=7)
    assert phone.socket.shown == {"seat_A": "b" * 16}
    assert asked == []
    assert phone.prone["a1"] is True


async def test_cookies_the_server_sets_go_back_with_the_next_tap_as_a_browser_sends_them():
    """A phone returns what the server set (the offline copy's tag, the CSRF
    cookie, a new session) and stops sending what it deleted: a driver that
    dropped them had the server set them again on every answer."""
    sent: list[str] = []

    async def act(request):
        sent.append(request.headers.get("Cookie", ""))
        response = web.Response(text=answer(len(sent), "b" * 16), content_type="text/html")
        if len(sent) == 1:
            response.set_cookie("tracker_copy", "tag1")
            response.set_cookie("sessionid", "cycled")
        else:
            response.del_cookie("tracker_copy")
        return response

    app = web.Application()
    app.router.add_post("/m/code/act/SetTrooperState/", act)
    server = TestServer(app)
    await server.start_server()
    try:
        phone = load.Phone(str(server.make_url("")).rstrip("/"), "code", "first", as_app=False)
        phone.form_url = "/m/code/act/SetTrooperState/"
        phone.troopers = [("a1", "normal")]
        phone.prone["a1"] = False
        async with load.session() as http:
            for n in range(3):
                assert (await load.tap(http, phone, n))[1] == ""
    finally:
        await server.close()
    assert sent == [
        "sessionid=first",
        "sessionid=cycled; tracker_copy=tag1",
        "sessionid=cycled",
    ]
