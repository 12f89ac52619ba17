"""A push whose socket closed while it was rendered logs no error (issue 18:
at a venue, phones come and go all night).

daphne sends through autobahn, which raises Disconnected on a socket that
closed meanwhile; the push logged "push failed" with a traceback for each,
and closed the socket again. It is nobody's error: nothing is logged above
debug, and the socket is not closed a second time.
"""

from __future__ import annotations

import logging

import pytest
from asgiref.sync import sync_to_async
from autobahn.exception import Disconnected

from tracker.consumers import MatchConsumer

from .table import seated
from .test_live import socket_for

pytestmark = pytest.mark.django_db(transaction=True)


async def test_a_push_to_a_socket_that_closed_meanwhile_is_no_error(
    alice, bob, monkeypatch, caplog
):
    a, b = await sync_to_async(seated)(alice, bob)
    socket = socket_for(bob, a.match)
    assert (await socket.connect())[0]
    await socket.receive_from(timeout=10)  # the first frame
    sent, closed = [], []

    async def gone(self, text_data=None, bytes_data=None, close=False):
        sent.append(text_data)
        raise Disconnected("Attempt to send on a closed protocol")

    async def close_again(self, code=None, reason=None):
        closed.append(code)

    monkeypatch.setattr(MatchConsumer, "send", gone)
    monkeypatch.setattr(MatchConsumer, "close", close_again)
    with caplog.at_level(logging.INFO, logger="tracker.consumers"):
        await sync_to_async(a.submit)("draft/add", name="Kaplan", cost="20")
        await sync_to_async(a.submit)("LockArmyList")  # a push for Bob's socket
        await socket.receive_nothing(timeout=2)  # the push ran and met the closed socket
    assert sent, "the push was tried"
    assert [r for r in caplog.records if r.levelno >= logging.INFO] == []
    assert closed == []
    await socket.disconnect()
