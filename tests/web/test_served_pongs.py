"""Pings on the server `make run` starts, answered as daphne reads them
(issue 18, tracker/fast_pongs.py), say what the consumer's pongs say
(tests/web/test_heartbeat.py, through Channels' communicator):

- a phone pinging as its socket opens (app.js pings at once) gets its first
  frame first: app.js says "Live" on the first frame it hears, which must be
  the page as the server has it, not a pong;
- a pong echoes the phone's number, carries the server's clock, and says the
  match's newest seq, also after the opponent's tap;
- pings keep a socket open past the silence deadline, and a socket that
  stops pinging is closed with 4408 once it passes;
- every other frame still reaches the consumer: a resync is answered with
  the blocks, a frame that only mentions ping is no ping.
"""

from __future__ import annotations

import json
import re
import time

import pytest
from bs4 import BeautifulSoup

from tests.scale.servers import (
    Browser,
    LiveServer,
    make_matches,
    manage,
    phone_socket,
    server_env,
)
from tracker.heartbeat import SILENT

from .rendered_forms import _form, fields_of

SILENCE = 3  # SOCKET_SILENCE_SECONDS of the served app here
SEQ = re.compile(r'id="seq"[^>]*data-seq="(\d+)"')


@pytest.fixture(scope="module")
def served(tmp_path_factory):
    tmp = tmp_path_factory.mktemp("served-pongs")
    env = server_env(tmp, SOCKET_SILENCE_SECONDS=str(SILENCE))
    manage(env, "migrate", "--noinput", "-v0")
    matches = make_matches(env, 3)
    server = LiveServer(env, tmp / "serve.log").start()
    yield server, matches
    server.stop()


def _pong(socket, number) -> dict:
    """Ping with `number`; the pong that answers it (pushes meanwhile skipped)."""
    socket.send(json.dumps({"ping": number}))
    while True:
        message = socket.recv(timeout=10)
        if message.startswith("{"):
            pong = json.loads(message)
            if pong.get("pong") == number:
                return pong


def _seq_said(socket, wanted: int | None = None) -> int | None:
    """The seq the pongs say, once they say one (and `wanted`, if given)."""
    deadline = time.monotonic() + 10
    while time.monotonic() < deadline:
        seq = _pong(socket, 9).get("seq")
        if seq is not None and seq == (wanted if wanted is not None else seq):
            return seq
        time.sleep(0.2)
    return seq


def _phone(server: LiveServer, session: str) -> Browser:
    browser = Browser(server.url)
    browser.jar.set_cookie(_cookie("sessionid", session))
    return browser


def _cookie(name: str, value: str):
    import http.cookiejar

    return http.cookiejar.Cookie(
        0, name, value, None, False, "127.0.0.1", False, False, "/", True,
        False, None, False, None, None, {},
    )  # fmt: skip


def _tap_state(browser: Browser, code: str) -> int:
    """A State tap as app.js makes one (tests/web/phone.py's tap_row): the
    page's State form, given the first row this phone may tap, with its
    state as the row shows it and Prone toggled. The seq its answer shows."""
    page = browser.get(f"/m/{code}/").body
    form, url = _form(page, "/act/SetTrooperState/", at=f"/m/{code}/")
    row = next(
        row
        for row in BeautifulSoup(page, "lxml").select("li.trooper")
        if row.select_one(":scope > button.name") is not None
    )
    tokens = set((row.get("data-tokens") or "").split()) ^ {"prone"}
    offered = {box["value"] for box in form.select('input[type="checkbox"][name="tokens"]')}
    assert tokens <= offered, (tokens, offered)
    data = [
        ("trooper_id", row["id"].removeprefix("trooper-")),
        ("condition", row.get("data-cond") or "normal"),
        *(("tokens", token) for token in sorted(tokens)),
        ("action_id", f"pong-test-{time.monotonic_ns()}"),
    ]
    assert {name for name, _ in data} <= set(fields_of(form)) | {"action_id"}
    reply = browser.post(url, data)
    assert reply.status == 200, (reply.status, reply.body[:300])
    return int(SEQ.search(reply.body).group(1))


def test_a_ping_sent_as_the_socket_opens_is_answered_after_the_first_frame(served):
    server, matches = served
    made = matches[0]
    with phone_socket(server, made["code"], made["A"]) as socket:
        socket.send(json.dumps({"ping": 1}))  # app.js's onopen: before any frame
        first = socket.recv(timeout=30)
        assert 'id="seq"' in first, first[:200]
        assert _pong(socket, 2)["pong"] == 2


def test_a_pong_echoes_the_phone_and_says_the_server_clock_and_the_newest_seq(served):
    server, matches = served
    made = matches[1]
    with phone_socket(server, made["code"], made["A"]) as socket:
        first = socket.recv(timeout=30)
        shown = int(SEQ.search(first).group(1))
        before = time.time() * 1000
        pong = _pong(socket, 1234.5)
        assert pong["pong"] == 1234.5
        assert before - 1 <= pong["t"] <= time.time() * 1000 + 1
        # The seq once the process has read it (match_seqs.py, once a second).
        assert _seq_said(socket) == shown
        # Only a number is echoed (the phone times its round trip with it).
        socket.send(json.dumps({"ping": "<script>"}))
        while "pong" not in (answer := json.loads(socket.recv(timeout=10))):
            pass
        assert answer["pong"] is None
        # The opponent taps: the pongs say its seq.
        newer = _tap_state(_phone(server, made["B"]), made["code"])
        assert newer > shown
        assert _seq_said(socket, newer) == newer


def test_pings_keep_a_socket_open_and_silence_closes_it(served):
    from websockets.exceptions import ConnectionClosed

    server, matches = served
    made = matches[2]
    with phone_socket(server, made["code"], made["B"]) as socket:
        socket.recv(timeout=30)
        started = time.monotonic()
        while time.monotonic() - started < SILENCE + 2:
            assert "pong" in _pong(socket, 3)
            time.sleep(0.5)
        # Silent from here on: closed once the deadline passes.
        with pytest.raises(ConnectionClosed) as closed:
            while True:
                socket.recv(timeout=SILENCE + 10)
        assert closed.value.rcvd is not None and closed.value.rcvd.code == SILENT


def test_other_frames_still_reach_the_consumer(served):
    server, matches = served
    made = matches[0]
    with phone_socket(server, made["code"], made["B"]) as socket:
        socket.recv(timeout=30)
        # Mentions ping but is none: no pong, and the socket lives on.
        socket.send(json.dumps({"note": "ping"}))
        socket.send(json.dumps({"resync": True, "h": ""}))
        answer = socket.recv(timeout=10)
        assert 'id="seq"' in answer and 'id="blk-seat_B"' in answer, answer[:200]
        assert _pong(socket, 5)["pong"] == 5
