"""Create COUNT matches in play for `make bench`, in-process on the database
the environment names, and print them as JSON: code and each seat's session
cookie. Done here rather than through the pages because set-up is not what is
measured, and 500 matches through ~20 requests each would take most of the
bench's ten minutes; the measured load goes through the real pages.

One match is brought into play through the one write path (actions.py);
the others are copies of it: the same events (the hash chain covers no
match id, so each copy's chain verifies as the original's), their own match
and seat rows, and seats claimed by sessions of their own (seats.claim), as
a phone claims one. Copying costs a few inserts a match instead of seven
actions' replays and renders: 500 matches took minutes of the bench's ten.
(A copy's private events share the original's salts: nothing the bench
measures depends on them.)
"""

from __future__ import annotations

import json
import os
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "tracker.settings")

import django  # noqa: E402

django.setup()

from django.conf import settings  # noqa: E402
from django.contrib.sessions.backends.base import VALID_KEY_CHARS  # noqa: E402
from django.contrib.sessions.backends.db import SessionStore  # noqa: E402
from django.contrib.sessions.models import Session  # noqa: E402
from django.db import transaction  # noqa: E402
from django.utils.crypto import get_random_string  # noqa: E402

from tracker import actions, seats  # noqa: E402
from tracker.models import Match, MatchEvent, Seat  # noqa: E402
from tracker.reading import load_state  # noqa: E402
from tracker.rules.command_tokens import s2_deciding  # noqa: E402
from tracker.rules.orders import DeclareAro, DeclareSkill, EndOrder, ReportOutcome  # noqa: E402
from tracker.rules.sealing import SealDeployment  # noqa: E402
from tracker.rules.setup import ClaimSeat, LockArmyList, SetInitiative  # noqa: E402
from tracker.rules.state import ORDERS, other_seat  # noqa: E402
from tracker.rules.turns import AdvancePhase, DeclineStrategicUse  # noqa: E402

TROOPERS = 10
PIN = "2468"


# BENCH_DISTINCT=1: each trooper of a list costs points of its own, as in a
# real list, where few troopers are alike. Alike troopers (twins,
# tracker/rules/twins.py) are asked the forms' offers once for all: the
# default list of alike troopers measures that shortcut at its best, and
# real lists cost more (docs/benchmarks-notes.md, twelfth round).
DISTINCT = os.environ.get("BENCH_DISTINCT") == "1"
# BENCH_ORDERS=1: the matches start in the first Orders Phase rather than
# its Tactical Phase, where a match spends most of its taps and the active
# player's page offers an Order to each trooper (declaration_offers.py).
ORDERS_PHASE = os.environ.get("BENCH_ORDERS") == "1"


def army(letter: str, count: int = TROOPERS) -> list[dict]:
    """A locked list of `count` troopers for seat `letter`; the first may be
    Lieutenant. Ids are `a0000000`, `a0000001`... (a match's own: each match
    has them): 8 hex digits, as long as the list editor's (tracker/row_ids.py),
    since a page names each trooper about nine times and its bytes are
    measured."""
    return [
        {
            "id": f"{letter.lower()}{k:07d}",
            "name": f"{'Fusilier' if letter == 'A' else 'Zhanshi'} {k}",
            "cost": 20 + k if DISTINCT else 20,
            "combat_group": 1 + k // 10,
            "silhouette": 2,
            "traits": ["lieutenant_candidate"] if k == 0 else [],
        }
        for k in range(count)
    ]


def bring_to_play(match: Match, troopers: dict[str, list[dict]]) -> None:
    """Both seats claimed, lists locked, A first, both deployments sealed
    (a Lieutenant each): the first Player Turn, through the write path."""
    for letter in "AB":
        actions.perform(match, letter, ClaimSeat(name=f"Player {letter}"))
    for letter in "AB":
        actions.perform(match, letter, LockArmyList(troopers=troopers[letter]))
    actions.perform(match, "A", SetInitiative(first_turn="A", deploys_first="A"))
    for letter in "AB":
        secret = {
            "id": f"lt{letter}00001",
            "nonce": "ab" * 16,
            "kind": "lieutenant",
            "trooper_id": troopers[letter][0]["id"],
        }
        actions.perform(match, letter, SealDeployment(secrets=[secret]))
    if ORDERS_PHASE:
        to_orders_phase(match)


def to_orders_phase(match: Match) -> None:
    """The active player ends phases until the Orders Phase, the other
    letting the TM-S2 moment pass, as a table does at the start of a Turn."""
    while True:
        match.refresh_from_db()
        state = load_state(match)
        if state.turn.phase == ORDERS:
            return
        if (deciding := s2_deciding(state)) is not None:
            actions.perform(match, deciding, DeclineStrategicUse())
        else:
            actions.perform(match, state.turn.seat, AdvancePhase(expected=state.turn.phase))


def play_orders(match: Match, count: int) -> None:
    """`count` whole Orders of the active player, each as a table plays one:
    a trooper Moves, the reactive player's trooper of the same place in its
    list answers with a BS Attack ARO, the first shoots back, a hit that
    forces a Saving Roll is reported and the Order ends (five log lines an
    Order). So a page loaded after them is one of the middle of a Turn, its
    log full (reading.RECENT lines), not the start of play's few. From the
    Tactical Phase (BENCH_ORDERS=0), the Orders Phase is reached first."""
    to_orders_phase(match)  # returns with `match` read afresh
    active = load_state(match).turn.seat  # the same for every Order of its Turn
    reactive = other_seat(active)
    for k in range(count):
        mine, theirs = f"{active.lower()}{k:07d}", f"{reactive.lower()}{k:07d}"
        for letter, command in (
            (active, DeclareSkill(trooper_id=mine, skill="move")),
            (reactive, DeclareAro(trooper_id=theirs, skill="bs_attack", target_id=mine)),
            (active, DeclareSkill(trooper_id=mine, skill="bs_attack")),
            (active, ReportOutcome(outcome="saving_roll", trooper_id=theirs)),
            (active, EndOrder()),
        ):
            actions.perform(match, letter, command)  # reads the match by its pk
    match.refresh_from_db()  # main() copies it as it now stands


class _NewSession(dict):
    """A browser's new session as seats.claim sees it, kept in memory and
    saved with the others in one insert (saved_sessions): a SessionStore
    would cost four queries a seat (its key's check and insert, twice, as
    claiming cycles the key)."""

    def cycle_key(self) -> None:
        """Nothing to cycle: the session is saved only once claimed."""


def claimed(match: Match, sessions: list[Session]) -> dict:
    """Each seat of `match` claimed (seats.claim) by a session of its own,
    appended to `sessions` for saving: the cookies."""
    cookies = {}
    for seat in match.seats.order_by("letter"):
        held = _NewSession()
        assert seats.claim(held, seat, PIN)
        store = SessionStore()
        row = Session(
            # As SessionStore makes one, without asking the database whether
            # 32 random characters are taken.
            session_key=get_random_string(32, VALID_KEY_CHARS),
            session_data=store.encode(dict(held)),
            expire_date=store.get_expiry_date(),
        )
        sessions.append(row)
        cookies[seat.letter] = row.session_key
    return {"code": match.code, **cookies}


def copy_of(original: Match, events: list[MatchEvent], seat_rows: list[Seat]) -> Match:
    match = Match.objects.create(
        name=original.name,
        points_limit=original.points_limit,
        mission=original.mission,
        table=original.table,
        seq=original.seq,
        last_hash=original.last_hash,
        status=original.status,
        result=original.result,
    )
    Seat.objects.bulk_create(
        [
            Seat(match=match, letter=s.letter, name=s.name, listed_name=s.listed_name)
            for s in seat_rows
        ]
    )
    MatchEvent.objects.bulk_create(
        [
            MatchEvent(
                match=match,
                seq=e.seq,
                kind=e.kind,
                data=e.data,
                private_to=e.private_to,
                actor=e.actor,
                action_id=e.action_id,
                created_at=e.created_at,
                hash=e.hash,
            )
            for e in events
        ]
    )
    return match


def main() -> None:
    actions.notify = lambda *args: None  # no server is listening yet
    # The PIN is never checked in the bench: a fast hasher spares set-up the
    # deliberate slowness of PBKDF2 (about 0.3 s a seat on this machine).
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
    count = int(sys.argv[1])
    # Troopers a list (argv[2]): issue 18's sizes are for 25-trooper lists.
    troopers = int(sys.argv[2]) if len(sys.argv) > 2 else TROOPERS
    # Whole Orders played before the copies are made (argv[3], play_orders;
    # with BENCH_ORDERS=1): a page of the middle of a Turn.
    orders_played = int(sys.argv[3]) if len(sys.argv) > 3 else 0
    lists = {letter: army(letter, troopers) for letter in "AB"}
    points = max(sum(t["cost"] for t in listed) for listed in lists.values())
    original = actions.create_match(name="Bench", points_limit=max(300, points))
    bring_to_play(original, lists)
    original.refresh_from_db()
    if orders_played:
        play_orders(original, orders_played)
    events = list(original.events.order_by("seq"))
    seat_rows = list(original.seats.order_by("letter"))
    sessions: list[Session] = []
    made = [claimed(original, sessions)]
    for start in range(1, count, 100):
        # One commit per 100 matches: set-up time is disk flushes otherwise.
        with transaction.atomic():
            made += [
                claimed(copy_of(original, events, seat_rows), sessions)
                for _ in range(start, min(start + 100, count))
            ]
            Session.objects.bulk_create(sessions)
        sessions.clear()
    Session.objects.bulk_create(sessions)
    print(json.dumps(made[:count]))


if __name__ == "__main__":
    main()
