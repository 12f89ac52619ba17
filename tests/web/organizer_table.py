"""Matches in given states, driven through the real player views, for the
organizer tests (audit, exports, verify_matches)."""

from __future__ import annotations

import re

from django.db import connection

from tests.web.rendered_forms import submit_on
from tests.web.table import error_of, seated
from tracker.models import GENESIS_HASH, Match, MatchEvent, row_hash
from tracker.reading import load_state
from tracker.rules.command_tokens import s2_deciding
from tracker.rules.state import PLAYING

NINJA_POSITION = "ninja-position-canary behind the red container"
REAL_HOLOECHO = "marker2"


def playing(alice, bob, rounds=1, hidden=True):
    """Alice: a Holoprojector Hassassin, a hidden Ninja and Kaplan (her
    Lieutenant); Bob: Fusilier (Lieutenant) and Bolt. Lists locked, Alice
    first, deployments sealed: Game Round 1 has begun."""
    a, b = seated(alice, bob, rounds=rounds)
    for name, cost, traits in (
        ("Hassassin Ayyar", 40, ["holoprojector"]),
        ("Ninja", 30, ["hidden_deployment"] if hidden else []),
        ("Kaplan", 20, ["lieutenant_candidate"]),
    ):
        assert error_of(a.submit("draft/add", name=name, cost=str(cost), traits=traits)) is None
    assert (
        error_of(b.submit("draft/add", name="Fusilier", cost="10", traits=["lieutenant_candidate"]))
        is None
    )
    assert error_of(b.submit("draft/add", name="Bolt", cost="15")) is None
    assert error_of(a.submit("LockArmyList")) is None
    assert error_of(b.submit("LockArmyList")) is None
    assert error_of(a.submit("SetInitiative", first_turn="Alice", deploys_first="Alice")) is None
    ids = {t.name: t.id for t in load_state(fresh(a.match)).troopers.values()}
    response = a.submit(
        "SealDeployment",
        lieutenant="Kaplan",
        **{
            **({f"hd_position_{ids['Ninja']}": NINJA_POSITION} if hidden else {}),
            f"holoecho_{ids['Hassassin Ayyar']}": REAL_HOLOECHO,
        },
    )
    assert error_of(response) is None, error_of(response)
    assert error_of(b.submit("SealDeployment", lieutenant="Fusilier")) is None
    assert load_state(fresh(a.match)).phase == PLAYING
    return a, b


def open_sealed(carol, match: Match):
    """The organizer taps "Open the sealed information" on the match's audit
    page (the form that page renders; a finished match renders none)."""
    response = submit_on(carol, f"/organizer/matches/{match.code}/", "/open/")
    assert response.status_code == 302, response.status_code
    return response


def fresh(match: Match) -> Match:
    return Match.objects.get(pk=match.pk)


def play_out(a, b, limit=60):
    """Both players end every phase until the last round is over."""
    phones = {"A": a, "B": b}
    while limit:
        limit -= 1
        state = load_state(fresh(a.match))
        if state.phase != PLAYING:
            return
        deciding = s2_deciding(state)
        if deciding is not None:  # TM-S2 after the first Order Count: it passes
            assert error_of(phones[deciding].submit("DeclineStrategicUse")) is None
            continue
        phone = phones[state.turn.seat]
        assert error_of(phone.submit("AdvancePhase", expected=state.turn.phase)) is None


def agree(a, b, op=(7, 3), ap=(90, 25)):
    """Alice proposes the result and Bob confirms it."""
    response = a.submit(
        "ProposeResult", objective_a=op[0], objective_b=op[1], army_a=ap[0], army_b=ap[1]
    )
    assert error_of(response) is None, error_of(response)
    assert error_of(b.submit("ConfirmResult")) is None


def finished(alice, bob):
    a, b = playing(alice, bob)
    play_out(a, b)
    agree(a, b)
    return a, b


def audit_page(carol, match, **params) -> str:
    response = carol.get(f"/organizer/matches/{match.code}/", params)
    assert response.status_code == 200, response.status_code
    return response.content.decode()


def text_of(html: str) -> str:
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", html))


def rewrite_log(match, seq_from: int, edit=None, drop_from: int | None = None):
    """What one person with the database can do: edit or delete rows, then
    recompute every hash after them and fix up the match row. `edit(row)`
    gives the new data of row `seq_from` (or of every row, if seq_from is None)."""
    rows = list(MatchEvent.objects.filter(match=match).order_by("seq"))
    prev = GENESIS_HASH
    with connection.cursor() as cursor:
        for row in rows:
            if drop_from is not None and row.seq >= drop_from:
                cursor.execute("DELETE FROM tracker_matchevent WHERE id = %s", [row.id])
                continue
            data = edit(row) if edit and seq_from in (None, row.seq) else row.data
            new_hash = row_hash(prev, row, data=data)
            cursor.execute(
                "UPDATE tracker_matchevent SET data = %s, hash = %s WHERE id = %s",
                [data, new_hash, row.id],
            )
            prev = new_hash
    last = drop_from - 1 if drop_from else rows[-1].seq
    Match.objects.filter(pk=match.pk).update(seq=last, last_hash=prev)
