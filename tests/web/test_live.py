"""Live updates over websockets: each socket renders its own seat's view."""

import json

import pytest
from asgiref.sync import sync_to_async
from channels.testing import WebsocketCommunicator

from tracker.asgi import application
from tracker.models import Match
from tracker.reading import load_state

from .flows import CANARY_NINJA, CANARY_POSITION, seal_both, set_up
from .leaks import frame_seq
from .table import seated

pytestmark = pytest.mark.django_db(transaction=True)


def socket_for(client, match, origin="http://localhost"):
    cookie = (
        f"sessionid={client.cookies['sessionid'].value}" if "sessionid" in client.cookies else ""
    )
    headers = [(b"origin", origin.encode()), (b"host", b"localhost")]
    if cookie:
        headers.append((b"cookie", cookie.encode()))
    return WebsocketCommunicator(application, f"/ws/m/{match.code}/", headers=headers)


async def receive_until(socket, text, attempts=5):
    frames = []
    for _ in range(attempts):
        frame = await socket.receive_from(timeout=3)
        frames.append(frame)
        if text in frame:
            return frame, frames
    raise AssertionError(f"{text!r} never arrived in {len(frames)} frames")


async def test_a_change_by_alice_reaches_bobs_socket(alice, bob):
    a, b = await sync_to_async(seated)(alice, bob)
    socket = socket_for(bob, a.match)
    connected, _ = await socket.connect()
    assert connected
    first = await socket.receive_from(timeout=3)
    assert 'id="blk-seat_B"' in first and "You: Bob" in first
    await sync_to_async(a.submit)("draft/add", name="Hassassin Ayyar", cost="40")
    await sync_to_async(b.submit)("draft/add", name="Fusilier", cost="10")
    await sync_to_async(a.submit)("LockArmyList")
    frame, _ = await receive_until(socket, "Hassassin Ayyar")
    assert 'hx-swap-oob="true"' in frame
    await socket.disconnect()


async def test_frames_carry_the_current_seq(alice, bob):
    a, _b = await sync_to_async(seated)(alice, bob)
    socket = socket_for(alice, a.match)
    await socket.connect()
    frame = await socket.receive_from(timeout=3)
    match = await sync_to_async(Match.objects.get)(pk=a.match.pk)
    assert f'data-seq="{match.seq}"' in frame
    await socket.disconnect()


async def test_bobs_frames_never_contain_alices_secrets(alice, bob):
    a, b = await sync_to_async(set_up)(alice, bob)
    socket = socket_for(bob, a.match)
    await socket.connect()
    frames = [await socket.receive_from(timeout=3)]
    state = await sync_to_async(lambda: load_state(Match.objects.get()))()
    await sync_to_async(seal_both)(a, b, state)
    # Every frame up to the seq the sealing reached, however late they come
    # (a condition, not a time window).
    target = await sync_to_async(lambda: Match.objects.get().seq)()
    while frame_seq(frames[-1]) < target:
        frames.append(await socket.receive_from(timeout=10))
    await socket.send_to(text_data=json.dumps({"resync": True}))
    frames.append(await socket.receive_from(timeout=3))
    everything = "".join(frames)
    assert "Round 1 of 3" in everything
    assert CANARY_NINJA not in everything and CANARY_POSITION not in everything
    assert "The real one is" not in everything
    await socket.disconnect()


async def test_a_socket_renders_the_seat_of_its_session_not_one_it_names(alice, bob, mallory):
    a, _b = await sync_to_async(set_up)(alice, bob)
    socket = socket_for(mallory, a.match)
    await socket.connect()
    frame = await socket.receive_from(timeout=3)
    assert "You are watching as a spectator." in frame
    await socket.send_to(text_data=json.dumps({"resync": True, "seat": "A", "viewer": "A"}))
    frame = await socket.receive_from(timeout=3)
    assert CANARY_NINJA not in frame and "You: Alice" not in frame
    await socket.disconnect()


async def test_reconnecting_phone_gets_the_full_current_view(alice, bob):
    a, b = await sync_to_async(seated)(alice, bob)
    await sync_to_async(a.submit)("draft/add", name="Hassassin Ayyar", cost="40")
    await sync_to_async(a.submit)("LockArmyList")  # while Bob is offline
    socket = socket_for(bob, a.match)
    await socket.connect()
    frame = await socket.receive_from(timeout=3)
    fresh = await sync_to_async(lambda: bob.get(f"/m/{a.match.code}/").content.decode())()
    for block in ("blk-header", "blk-seat_A", "blk-seat_B", "blk-controls", "blk-log"):
        assert f'id="{block}"' in frame
    assert "Hassassin Ayyar" in frame and "Hassassin Ayyar" in fresh
    await socket.disconnect()


async def test_a_foreign_origin_is_refused(alice, bob):
    a, _b = await sync_to_async(seated)(alice, bob)
    socket = socket_for(alice, a.match, origin="http://evil.example")
    connected, _ = await socket.connect()
    assert not connected


async def test_an_unknown_match_closes_the_socket(alice):
    """With the host header a phone's socket has: without it the origin
    check closed the socket before the consumer ran, so this test never
    reached the unknown match it names (a mutation round found it)."""
    socket = WebsocketCommunicator(
        application,
        "/ws/m/nope/",
        headers=[(b"origin", b"http://localhost"), (b"host", b"localhost")],
    )
    assert await socket.connect() == (False, 4404)


async def test_only_changed_blocks_are_pushed(alice, bob):
    a, b = await sync_to_async(seated)(alice, bob)
    await sync_to_async(b.submit)("draft/add", name="Fusilier", cost="10")
    socket = socket_for(bob, a.match)
    await socket.connect()
    await socket.receive_from(timeout=3)
    await sync_to_async(a.submit)("draft/add", name="Hassassin Ayyar", cost="40")
    await sync_to_async(a.submit)("LockArmyList")
    frame, _ = await receive_until(socket, "Hassassin Ayyar")
    # Bob's own block (his draft, mid-edit) was not re-sent.
    assert 'id="blk-seat_A"' in frame
    assert "Fusilier" not in frame
    await socket.disconnect()


async def test_a_pushed_block_speaks_the_language_of_its_phone(alice, bob):
    """A Spanish phone's pushes are in Spanish, like its page (issue 8): the
    language cookie first, then Accept-Language, as for the page itself."""
    a, _b = await sync_to_async(seated)(alice, bob)
    socket = socket_for(bob, a.match)
    socket.scope["headers"].append((b"accept-language", b"es-ES,es;q=0.9"))
    await socket.connect()
    first = await socket.receive_from(timeout=3)
    assert "Tokens de Mando" in first and "Command Tokens" not in first
    await socket.disconnect()

    socket = socket_for(alice, a.match)
    socket.scope["headers"].append((b"accept-language", b"es-ES"))
    socket.scope["headers"] = [
        (k, v + b"; django_language=en" if k == b"cookie" else v)
        for k, v in socket.scope["headers"]
    ]
    await socket.connect()
    first = await socket.receive_from(timeout=3)
    assert "Command Tokens" in first and "Tokens de Mando" not in first
    await socket.disconnect()
