"""A player's log shows the lines of her own private events (a hidden
trooper moved to another Combat Group, HD-5), on the answer to her tap and
on her page; the opponent's shows only that a hidden trooper moved. Each
viewer's log is redacted for that viewer (reading.seen_by), not for the
public: the owner would otherwise lose the record of what she did."""

from __future__ import annotations

import pytest
from bs4 import BeautifulSoup

from .phone_flows import CANARY_NINJA, ok, seal_both, set_up

pytestmark = pytest.mark.django_db


def _lines(html: str, selector: str) -> list[str]:
    soup = BeautifulSoup(html, "lxml")
    return [" ".join(li.get_text(" ").split()) for li in soup.select(selector)]


def test_the_owner_reads_her_hidden_troopers_move_and_the_opponent_does_not():
    a, b = set_up()
    seal_both(a, b, holoecho="marker1")
    a.open()
    answer = a.submit("ChangeCombatGroup", trooper_id=CANARY_NINJA, group="2")
    ok(a, answer)
    moved = f"{CANARY_NINJA} moves from Combat Group 1 to Combat Group 2"
    assert moved in answer.text  # the answer's new lines
    a.open()
    assert any(moved in line for line in _lines(a.html, "#log-list > li"))
    assert moved in _lines(a.html, "#recent > li")[0]
    b.open()
    assert CANARY_NINJA not in b.html
    assert any(
        "Hidden Deployment to another Combat Group" in li for li in _lines(b.html, "#log-list > li")
    )
