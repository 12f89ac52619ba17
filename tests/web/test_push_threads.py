"""A push's work on threads (issue 18, consumers.MatchConsumer.dispatch).

Channels' dispatch hops to asgiref's thread-sensitive thread before every
handler, to close database connections this consumer never opens there: a
hop per socket per action, about 7% of a served action. A push hands one
job to a thread, its render, and nothing else."""

from concurrent.futures import ThreadPoolExecutor

import pytest
from asgiref.sync import sync_to_async
from channels.layers import get_channel_layer

from tracker import announce
from tracker.models import Match

from .leaks import frame_seq
from .table import seated
from .test_live import socket_for

pytestmark = pytest.mark.django_db(transaction=True)


async def test_a_push_hands_only_its_render_to_a_thread(alice, bob, monkeypatch, settings):
    settings.SEQ_POLL_SECONDS = 60  # the newest seqs' read (on a thread) not meanwhile
    a, b = await sync_to_async(seated)(alice, bob)
    socket = socket_for(bob, a.match)
    assert (await socket.connect())[0]
    before = frame_seq(await socket.receive_from(timeout=3))

    # Alice's tap is written with its announcement held, to be made below
    # while the threads are watched (the tap's own work is not the push's).
    held = []
    monkeypatch.setattr(announce, "seq_exists", lambda match_id, seq: held.append(seq))
    await sync_to_async(a.submit)("draft/add", name="Fusilier", cost="10")
    await sync_to_async(a.submit)("LockArmyList")
    seq = await sync_to_async(lambda: Match.objects.get().seq)()
    assert seq > before and held[-1] == seq

    handed = []
    submit = ThreadPoolExecutor.submit

    def counted(self, *args, **kwargs):
        handed.append(self._thread_name_prefix)
        return submit(self, *args, **kwargs)

    monkeypatch.setattr(ThreadPoolExecutor, "submit", counted)
    group = announce.group_of(a.match.pk)
    await get_channel_layer().group_send(group, {"type": "match.changed", "seq": seq})
    frame = await socket.receive_from(timeout=3)
    monkeypatch.undo()
    assert frame_seq(frame) == seq
    assert "blk-seat_A" in frame  # Alice's locked list, as Bob sees it
    # One job, on the pushes' threads: no hop to asgiref's thread first.
    assert handed == ["socket-push"], handed
    await socket.disconnect()
