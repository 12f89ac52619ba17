"""What a mutation round on the sockets' push and heartbeat path found the
suite did not notice (tracker/consumers.py, tracker/match_seqs.py,
tracker/announce.py; issue 18: pushes are at most once, and every pong says
the match's newest seq so that a phone that missed one asks for it). Each
test here failed on a small change to that code that the other socket
tests let pass, and passes on the code as it is:

- an announcement that arrives after a newer one (two taps committed on two
  HTTP threads announce in either order) never takes the socket's push back
  to the older seq, which left the phone a seq behind until a pong healed it;
- a read of the newest seqs that fails (the database busy) is followed by
  the next: the poll that feeds the pongs outlives it, or no pong would say
  a newer seq again until another phone connects, and a lost push would
  never be asked for. An InterfaceError (a dead connection, no
  DatabaseError) did end it: a product bug this round found, fixed in
  match_seqs;
- (the match's sockets pushing one seq at once read its seats once, with
  their threads made to overlap: test_render_once's read-once test, which
  this round made so);
- a coalesced resync counts against its socket's burst as one answered at
  once does: were it not counted, each window would answer one resync more
  at once than RESYNC_BURST allows (issue 18's resync coalescing); and a
  coalesced resync still waiting when its socket closes is dropped, not
  rendered for nobody (the close waited for it, its window and its render);
- a socket for a match that does not exist is refused with 4404, the one
  close code app.js does not retry: with any other, a phone holding an old
  match's page (a deleted match, a flushed database) would reconnect for as
  long as the page stays open. test_live's unknown match never reached the
  consumer: without a host header the origin checks refuse it first;
- a socket that closes stops counting among its match's watchers: once the
  last has gone, the process no longer reads the match's seq every second,
  and the poll ends when no match is watched, but only then: while another
  socket of the match is open its pongs still say the newest seq. And it
  leaves its match's group on the channel layer (Redis's pub/sub layer
  would keep its subscription, and every push of the match would still go
  to it);
- a redraw (announce.redraw: a change outside the log, at no new seq) is
  told to a socket once, and sends only the blocks that differ from those
  the socket sent, as a resync naming them would, not every block again;
- under `serve`'s daphne each socket's scope carries its protocol's pong
  slot (tracker/fast_pongs.py): without it the consumer answered every ping
  itself, as correct and about 30% more CPU, which no served test noticed.
"""

from __future__ import annotations

import pytest
from asgiref.sync import sync_to_async
from channels.layers import get_channel_layer

from tracker import announce, consumers
from tracker.models import Match

from .leaks import frame_seq
from .table import error_of, seated
from .test_each_push_reaches_its_seq import bobs_socket_once_sealed
from .test_heartbeat import _pong_at
from .test_live import socket_for
from .test_render_once import seated as watched_table
from .test_render_once import socket_of

pytestmark = pytest.mark.django_db(transaction=True)

newest_seq = sync_to_async(lambda: Match.objects.get().seq)


async def _announce(match: Match, seq: int) -> None:
    """ "seq n exists", as announce.seq_exists says it, straight to the layer."""
    await get_channel_layer().group_send(
        announce.group_of(match.pk), {"type": "match.changed", "seq": seq}
    )


async def test_an_older_announcement_arriving_late_does_not_take_the_push_back_to_its_seq(
    alice, bob, settings, monkeypatch
):
    """Two taps, seqs n and n + 1, announced in the other order: the push
    for n + 1 is under way when n's announcement comes. The socket wants
    n + 1 still, and its push renders n + 1, not n from the read a push for
    n made (consumers.seat_rows_since keeps it)."""
    a, socket = await bobs_socket_once_sealed(alice, bob)
    match = await sync_to_async(Match.objects.get)()
    # The taps' own announcements are held back: this test sends them itself.
    monkeypatch.setattr(announce, "seq_exists", lambda match_id, seq: None)
    note = sync_to_async(a.submit)
    assert error_of(await note("SealNote", label="Objective", text="first")) is None
    first = await newest_seq()
    # A push for `first` read the seats at `first` (another socket's, say):
    # the read a later push for `first` may use.
    await sync_to_async(consumers.seat_rows_since)(match.pk, match.code, first)
    assert error_of(await note("SealNote", label="Objective", text="second")) is None
    second = await newest_seq()
    assert second == first + 1

    settings.SLOW_PUSH_RENDER_SECONDS = 1.0  # n's announcement comes meanwhile
    await _announce(match, second)
    await _announce(match, first)
    frame = await socket.receive_from(timeout=10)
    assert frame_seq(frame) == second
    await socket.disconnect()


@pytest.mark.parametrize("error", ["OperationalError", "InterfaceError", "RuntimeError"])
async def test_a_busy_read_of_the_newest_seqs_does_not_end_the_pongs_seqs(
    alice, bob, settings, monkeypatch, error
):
    """The poll behind the pongs' seq (match_seqs.NewestSeqs._poll) meets a
    busy database: that read is skipped, the next one made. Had the error
    ended the poll, the pongs would say the seq of the last good read for
    as long as the socket stays open (only another socket's connect starts
    a poll again), and a push lost after it would never be asked for. Both
    errors the rest of the app takes for "busy" (busy.py, consumers._push):
    a connection the pool hands over dead raises InterfaceError, which is
    no DatabaseError, and it did end the poll. Nor does any other error (a
    bug, logged as one): every pong of the process depends on the poll."""
    import builtins

    from django import db

    from tracker import match_seqs

    settings.SEQ_POLL_SECONDS = 0.05
    a, _b = await sync_to_async(seated)(alice, bob)
    socket = socket_for(bob, a.match)
    assert (await socket.connect())[0]
    before = frame_seq(await socket.receive_from(timeout=3))
    assert await _pong_at(socket, before) == before

    read = match_seqs._read
    failed = []

    def busy_once(ids):
        if not failed:
            failed.append(ids)
            kind = getattr(db, error, None) or getattr(builtins, error)
            raise kind("the pool stayed exhausted")
        return read(ids)

    monkeypatch.setattr(match_seqs, "_read", busy_once)
    monkeypatch.setattr(announce, "seq_exists", lambda match_id, seq: None)  # a lost push
    await sync_to_async(a.submit)("draft/add", name="Fusilier", cost="10")
    await sync_to_async(a.submit)("LockArmyList")
    after = await newest_seq()
    assert after > before
    assert await _pong_at(socket, after) == after
    assert failed  # the busy read did happen on the way
    await socket.disconnect()


async def test_a_coalesced_resync_counts_against_the_next_window(settings, monkeypatch):
    """RESYNC_BURST 1 per window of 10 s, on a clock this test moves (the
    sleeps are real: a coalesced answer waits for its window). A resync at
    0 s is answered at once; one at 9.95 s is coalesced, answered at 10 s.
    At 18.95 s the first has left the window, the coalesced one has not (9 s
    old): the next resync is coalesced too, answered a second later, not at
    once as if the coalesced render had cost nothing."""
    import time
    from types import SimpleNamespace

    settings.RESYNC_BURST = 1
    settings.RESYNC_WINDOW_SECONDS = 10
    now = [1000.0]
    monkeypatch.setattr(
        consumers, "time", SimpleNamespace(monotonic=lambda: now[0], sleep=time.sleep)
    )
    alice, _bob, _watchers = await sync_to_async(watched_table)()
    socket = socket_of(alice)
    assert (await socket.connect())[0]
    await socket.receive_from(timeout=3)  # the first frame

    await socket.send_to(text_data='{"resync": true}')
    assert 'id="seq"' in await socket.receive_from(timeout=3)  # at once
    now[0] = 1009.95
    await socket.send_to(text_data='{"resync": true}')
    assert 'id="seq"' in await socket.receive_from(timeout=3)  # coalesced, 0.05 s later

    now[0] = 1018.95
    await socket.send_to(text_data='{"resync": true}')
    # Coalesced: its answer waits the second left of the coalesced one's window.
    assert await socket.receive_nothing(timeout=0.5)
    assert 'id="seq"' in await socket.receive_from(timeout=5)
    await socket.disconnect()


async def test_a_socket_for_a_match_that_does_not_exist_is_refused_with_4404(alice):
    from channels.testing import WebsocketCommunicator

    from tracker.asgi import application

    # The host too: without it the origin checks refuse the handshake before
    # the consumer sees it (with 1000, as test_live's unknown match is).
    headers = [(b"origin", b"http://localhost"), (b"host", b"localhost")]
    socket = WebsocketCommunicator(application, "/ws/m/no-such-match/", headers=headers)
    assert await socket.connect() == (False, 4404)


async def test_a_closed_socket_no_longer_keeps_its_match_among_those_read(alice, bob):
    from tracker.match_seqs import newest_seqs

    a, _b = await sync_to_async(seated)(alice, bob)
    watching = newest_seqs._watchers.get(a.match.pk, 0)  # another test's left open, if any
    socket = socket_for(bob, a.match)
    assert (await socket.connect())[0]
    await socket.receive_from(timeout=3)
    assert newest_seqs._watchers.get(a.match.pk, 0) == watching + 1
    await socket.disconnect()
    assert newest_seqs._watchers.get(a.match.pk, 0) == watching
    if not watching:
        # Not read any more: gone from the matches the poll reads (a count
        # of 0 left behind would keep it, and the poll, going).
        assert a.match.pk not in newest_seqs._watchers
        assert newest_seqs.newest(a.match.pk) is None


async def test_a_redraw_that_changes_nothing_sends_no_block(alice, bob):
    a, _b = await sync_to_async(seated)(alice, bob)
    socket = socket_for(bob, a.match)
    assert (await socket.connect())[0]
    assert "<section" in await socket.receive_from(timeout=3)
    await sync_to_async(announce.redraw)(a.match.pk)
    frame = await socket.receive_from(timeout=3)
    assert 'id="seq"' in frame and "<section" not in frame, frame[:300]
    # One redraw, one render: the announcement reached the socket once (a
    # redraw told twice renders twice; a seq told twice is dropped).
    assert await socket.receive_nothing(timeout=0.5)
    await socket.disconnect()


async def test_a_closed_socket_leaves_its_match_s_group_on_the_channel_layer(alice, bob):
    layer = get_channel_layer()
    a, _b = await sync_to_async(seated)(alice, bob)
    group = announce.group_of(a.match.pk)
    before = set(layer.groups.get(group, {}))  # another test's left open, if any
    socket = socket_for(bob, a.match)
    assert (await socket.connect())[0]
    await socket.receive_from(timeout=3)
    assert len(set(layer.groups.get(group, {})) - before) == 1
    await socket.disconnect()
    assert set(layer.groups.get(group, {})) == before


def test_the_served_sockets_scope_carries_its_protocol_s_pong_slot():
    """What daphne's protocol calls as a socket opens: the server the
    factory gives it puts the protocol's slot in the scope, where the
    consumer hands its heartbeat over (heartbeat.hand_over)."""
    from types import SimpleNamespace

    from tracker.fast_pongs import _ServerGivingSlots
    from tracker.heartbeat import SCOPE_KEY, PongSlot, hand_over

    created = []
    server = SimpleNamespace(create_application=lambda protocol, scope: created.append(scope))
    protocol = SimpleNamespace(pongs=PongSlot())
    _ServerGivingSlots(server).create_application(protocol, {"type": "websocket"})
    (scope,) = created
    assert scope[SCOPE_KEY] is protocol.pongs
    heartbeat = object()
    hand_over(scope, heartbeat)
    assert protocol.pongs.heartbeat is heartbeat


async def test_a_coalesced_resync_is_not_rendered_once_its_socket_has_closed(settings, monkeypatch):
    from tracker.consumers import MatchConsumer

    settings.RESYNC_BURST = 1
    settings.RESYNC_WINDOW_SECONDS = 0.3
    renders = []
    render = MatchConsumer._render_full

    def counted(self):
        renders.append(self)
        return render(self)

    monkeypatch.setattr(MatchConsumer, "_render_full", counted)
    alice, _bob, _watchers = await sync_to_async(watched_table)()
    socket = socket_of(alice)
    assert (await socket.connect())[0]
    await socket.receive_from(timeout=3)  # the first frame
    await socket.send_to(text_data='{"resync": true}')
    assert 'id="seq"' in await socket.receive_from(timeout=3)  # at once
    await socket.send_to(text_data='{"resync": true}')  # coalesced: waits for the window
    await socket.disconnect(timeout=5)
    assert len(renders) == 2  # the first frame's and the first resync's


async def test_a_socket_s_pongs_still_say_the_newest_seq_after_another_of_its_match_closed(
    alice, bob, settings, monkeypatch
):
    """Two phones at one match (Alice's and Bob's); Alice's closes. The
    match is still watched for Bob's socket: a push lost after that is told
    by his pongs, as it was before."""
    settings.SEQ_POLL_SECONDS = 0.05
    a, _b = await sync_to_async(seated)(alice, bob)
    alices = socket_for(alice, a.match)
    assert (await alices.connect())[0]
    await alices.receive_from(timeout=3)
    bobs = socket_for(bob, a.match)
    assert (await bobs.connect())[0]
    before = frame_seq(await bobs.receive_from(timeout=3))
    await alices.disconnect()

    monkeypatch.setattr(announce, "seq_exists", lambda match_id, seq: None)  # a lost push
    await sync_to_async(a.submit)("draft/add", name="Fusilier", cost="10")
    await sync_to_async(a.submit)("LockArmyList")
    after = await newest_seq()
    assert after > before
    assert await _pong_at(bobs, after) == after
    await bobs.disconnect()
