"""The server side of the socket heartbeat (issue 17, tracker/heartbeat.py):
a ping is answered at once with the server's clock; a socket that pinged and
then fell silent is closed after SOCKET_SILENCE_SECONDS (set short here), and
so is one that never pinged, counted from its first frame (every app.js pings
as its socket opens; one that never does only held a venue's sockets)."""

import asyncio
import json
import re
import time

import pytest
from asgiref.sync import sync_to_async

from tracker import announce
from tracker.heartbeat import SILENT
from tracker.models import Match

from .leaks import frame_seq
from .table import seated
from .test_live import socket_for

pytestmark = pytest.mark.django_db(transaction=True)


async def opened(alice, bob):
    a, _b = await sync_to_async(seated)(alice, bob)
    socket = socket_for(alice, a.match)
    connected, _ = await socket.connect()
    assert connected
    first = await socket.receive_from(timeout=3)
    assert 'id="blk-seat_A"' in first
    return socket


async def test_a_ping_is_answered_with_the_server_clock(alice, bob):
    socket = await opened(alice, bob)
    before = time.time() * 1000
    await socket.send_to(text_data=json.dumps({"ping": 1234.5}))
    pong = json.loads(await socket.receive_from(timeout=3))
    after = time.time() * 1000
    assert pong["pong"] == 1234.5
    assert before - 1 <= pong["t"] <= after + 1
    # Only a number is echoed: the phone times its round trip with it.
    await socket.send_to(text_data=json.dumps({"ping": "<script>"}))
    assert json.loads(await socket.receive_from(timeout=3))["pong"] is None
    await socket.disconnect()


async def test_a_pong_hands_no_work_to_a_thread(alice, bob, monkeypatch, settings):
    """Issue 18: a ping a second per phone is most of a socket's traffic, so
    a pong is answered on the loop from what it holds: no thread is handed
    work (Channels' dispatch hops to asgiref's thread before every other
    message), and so no query either (the loop cannot make one)."""
    from concurrent.futures import ThreadPoolExecutor

    settings.SEQ_POLL_SECONDS = 60  # the newest seqs' read (on a thread) not meanwhile
    socket = await opened(alice, bob)
    handed = []
    submit = ThreadPoolExecutor.submit

    def counted(self, *args, **kwargs):
        handed.append(args[0])
        return submit(self, *args, **kwargs)

    monkeypatch.setattr(ThreadPoolExecutor, "submit", counted)
    for n in range(5):
        await socket.send_to(text_data=json.dumps({"ping": n}))
        assert json.loads(await socket.receive_from(timeout=3))["pong"] == n
    monkeypatch.undo()
    assert handed == []
    await socket.disconnect()


async def test_a_socket_that_falls_silent_is_closed_after_the_deadline(alice, bob, settings):
    settings.SOCKET_SILENCE_SECONDS = 0.4
    socket = await opened(alice, bob)
    # While the phone keeps pinging, the socket stays open past the deadline.
    for n in range(8):
        await socket.send_to(text_data=json.dumps({"ping": n}))
        last_heard = time.monotonic()
        assert json.loads(await socket.receive_from(timeout=3))["pong"] == n
        await socket.receive_nothing(timeout=0.1)
    # Then the phone goes quiet (a stalled Wi-Fi): closed, with our code.
    closed = await socket.receive_output(timeout=3)
    assert closed == {"type": "websocket.close", "code": SILENT}
    assert 0.35 <= time.monotonic() - last_heard < 2
    await socket.disconnect()


async def test_a_socket_that_never_pinged_is_closed_after_the_deadline(alice, bob, settings):
    settings.SOCKET_SILENCE_SECONDS = 0.4
    a, _b = await sync_to_async(seated)(alice, bob)
    socket = socket_for(alice, a.match)
    connected, _ = await socket.connect()
    assert connected
    assert 'id="blk-seat_A"' in await socket.receive_from(timeout=3)
    first_frame = time.monotonic()
    closed = await socket.receive_output(timeout=3)
    assert closed == {"type": "websocket.close", "code": SILENT}
    assert time.monotonic() - first_frame >= 0.35
    await socket.disconnect()


DIGEST = re.compile(r'<section[^>]*data-h="([0-9a-f]{16})"')


async def _pong_at(socket, seq: int) -> int | None:
    """Ping until a pong says `seq` (at most 100 pings): the seq it said."""
    for n in range(100):
        await socket.send_to(text_data=json.dumps({"ping": n}))
        pong = json.loads(await socket.receive_from(timeout=3))
        assert pong["pong"] == n, pong  # a pong, not a push
        if pong.get("seq") == seq:
            break
        await asyncio.sleep(0.02)
    return pong.get("seq")


async def test_a_pong_says_the_newest_seq_so_a_phone_whose_push_was_lost_asks_for_it(
    alice, bob, settings, monkeypatch
):
    """Issue 18: pushes are at most once (a channel layer drops one past its
    expiry or capacity). The pong carries the match's newest seq, read from
    the database (tracker/match_seqs.py), so a phone behind it learns that it
    missed one; its resync names the blocks it shows and gets only the rest."""
    settings.SEQ_POLL_SECONDS = 0.05
    a, _b = await sync_to_async(seated)(alice, bob)
    socket = socket_for(bob, a.match)
    connected, _ = await socket.connect()
    assert connected
    first = await socket.receive_from(timeout=3)
    shown = DIGEST.findall(first)
    before = frame_seq(first)
    assert len(shown) == 6, shown  # header, controls, recent, the two seats, the log
    assert await _pong_at(socket, before) == before

    # Alice acts; its announcement is lost on the way (as the layer drops it).
    monkeypatch.setattr(announce, "seq_exists", lambda match_id, seq: None)
    await sync_to_async(a.submit)("draft/add", name="Fusilier", cost="10")
    await sync_to_async(a.submit)("LockArmyList")
    after = await sync_to_async(lambda: Match.objects.get().seq)()
    assert after > before
    # No push comes; the pongs say the newer seq within a few polls.
    assert await _pong_at(socket, after) == after

    # The phone asks for it, naming what it shows: the answer is the newest
    # seq with only the blocks that changed (Alice's draft changed her seat
    # block, as Bob sees it; Bob's own seat did not change).
    await socket.send_to(text_data=json.dumps({"resync": True, "h": ".".join(shown)}))
    frame = await socket.receive_from(timeout=3)
    assert frame_seq(frame) == after
    assert 'id="blk-seat_B"' not in frame
    assert len(DIGEST.findall(frame)) < len(shown)
    # And it is what a fresh page shows.
    page = await sync_to_async(bob.get)(f"/m/{a.match.code}/")
    fresh = dict(re.findall(r'<section[^>]*data-h="([0-9a-f]{16})" id="(blk-[^"]+)"', page.text))
    sent = dict(re.findall(r'<section[^>]*data-h="([0-9a-f]{16})" id="(blk-[^"]+)"', frame))
    assert set(sent) <= set(fresh)
    await socket.disconnect()


async def test_while_a_push_is_on_its_way_the_pong_says_the_seq_the_socket_sent(
    alice, bob, settings
):
    """A busy server's push may take seconds; the phone must not ask for a
    seq whose push is already coming (each ask is a render): until it is
    sent, the pong says the seq this socket sent last."""
    settings.SEQ_POLL_SECONDS = 0.05
    a, _b = await sync_to_async(seated)(alice, bob)
    socket = socket_for(bob, a.match)
    await socket.connect()
    before = frame_seq(await socket.receive_from(timeout=3))
    settings.SLOW_PUSH_RENDER_SECONDS = 2.0
    await sync_to_async(a.submit)("draft/add", name="Fusilier", cost="10")
    await sync_to_async(a.submit)("LockArmyList")
    after = await sync_to_async(lambda: Match.objects.get().seq)()
    await asyncio.sleep(0.3)  # several polls: this process has read `after`
    await socket.send_to(text_data=json.dumps({"ping": 1}))
    pong = json.loads(await socket.receive_from(timeout=3))
    assert pong == {"pong": 1, "t": pong["t"], "seq": before}
    # And the push does come.
    assert frame_seq(await socket.receive_from(timeout=10)) == after
    await socket.disconnect()


async def test_a_push_the_database_was_too_busy_for_is_not_hidden_from_the_pongs(
    alice, bob, settings, monkeypatch
):
    """A push skipped because the database stayed busy (consumers._push) is
    healed by the phone's resync, and the phone asks for one only when a
    pong says a newer seq than it shows. While a push is on its way the pong
    says the seq the socket sent (the test above); once the push has been
    given up, nothing is on its way, and the pong says the newest again."""
    from django.db import OperationalError

    from tracker import consumers

    settings.SEQ_POLL_SECONDS = 0.05
    a, _b = await sync_to_async(seated)(alice, bob)
    socket = socket_for(bob, a.match)
    await socket.connect()
    first = await socket.receive_from(timeout=3)
    before = frame_seq(first)

    def busy(*args, **kwargs):
        raise OperationalError("the pool stayed exhausted")

    monkeypatch.setattr(consumers, "seat_rows_since", busy)
    await sync_to_async(a.submit)("draft/add", name="Fusilier", cost="10")
    await sync_to_async(a.submit)("LockArmyList")
    after = await sync_to_async(lambda: Match.objects.get().seq)()
    assert after > before
    assert await _pong_at(socket, after) == after
    # The resync the phone then sends heals it.
    monkeypatch.undo()
    await socket.send_to(
        text_data=json.dumps({"resync": True, "h": ".".join(DIGEST.findall(first))})
    )
    assert frame_seq(await socket.receive_from(timeout=3)) == after
    await socket.disconnect()
