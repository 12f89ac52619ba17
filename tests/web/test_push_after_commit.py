"""A tap's "seq n exists" reaches the match's sockets only once its events
are committed (tracker/actions.py: transaction.on_commit). Announced from
inside the transaction, a socket's push could read the match before the
commit, render the old seq and leave the opponent's phone behind until its
next pong; and a tap rolled back afterwards would be announced all the same."""

from __future__ import annotations

import pytest
from django.db import connection

from tracker import announce
from tracker.models import Match

from .table import error_of, seated

pytestmark = pytest.mark.django_db(transaction=True)


def test_a_tap_is_announced_after_its_commit_with_the_seq_it_committed(alice, bob, monkeypatch):
    a, _b = seated(alice, bob)
    assert error_of(a.submit("draft/add", name="Kaplan", cost="20")) is None
    before = Match.objects.get().seq
    heard = []

    def seq_exists(match_id, seq):
        # What a push handed this announcement would find: still inside the
        # write's transaction, or the seq committed and readable.
        heard.append((connection.in_atomic_block, seq))

    monkeypatch.setattr(announce, "seq_exists", seq_exists)
    response = a.submit("LockArmyList")
    assert error_of(response) is None
    committed = Match.objects.get().seq
    assert committed > before
    assert heard == [(False, committed)]
