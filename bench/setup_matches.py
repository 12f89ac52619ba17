"""Create COUNT matches in play for `make bench`, in-process on the database
the environment names, and print them as JSON: code and each seat's session
cookie. Done here rather than through the pages because set-up is not what is
measured, and 500 matches through ~20 requests each would take most of the
bench's ten minutes; the measured load goes through the real pages."""

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
from django.contrib.sessions.backends.db import SessionStore  # noqa: E402
from django.db import transaction  # noqa: E402

from tracker import actions, seats  # noqa: E402
from tracker.rules.sealing import SealDeployment  # noqa: E402
from tracker.rules.setup import ClaimSeat, LockArmyList, SetInitiative  # noqa: E402

TROOPERS = 10


def one_match(n: int) -> dict:
    match = actions.create_match(name=f"Bench {n}", points_limit=300, table=str(n))
    troopers = {
        letter: [
            {
                "id": f"{letter.lower()}{n:04d}{k:03d}",
                "name": f"{'Fusilier' if letter == 'A' else 'Zhanshi'} {k}",
                "cost": 20,
                "combat_group": 1 + k // 10,
                "silhouette": 2,
                "traits": ["lieutenant_candidate"] if k == 0 else [],
            }
            for k in range(TROOPERS)
        ]
        for letter in "AB"
    }
    cookies = {}
    for seat in match.seats.order_by("letter"):
        session = SessionStore()
        assert seats.claim(session, seat, "2468")
        session.save()
        cookies[seat.letter] = session.session_key
        actions.perform(match, seat.letter, ClaimSeat(name=f"Player {seat.letter}{n}"))
    for letter in "AB":
        actions.perform(match, letter, LockArmyList(troopers=troopers[letter]))
    actions.perform(match, "A", SetInitiative(first_turn="A", deploys_first="A"))
    for letter in "AB":
        secret = {
            "id": f"lt{letter}{n:06d}",
            "nonce": "ab" * 16,
            "kind": "lieutenant",
            "trooper_id": troopers[letter][0]["id"],
        }
        actions.perform(match, letter, SealDeployment(secrets=[secret]))
    return {"code": match.code, "A": cookies["A"], "B": cookies["B"]}


def main() -> None:
    actions.notify = lambda *args: None  # no server is listening yet
    # The PIN is never checked in the bench: a fast hasher spares set-up the
    # deliberate slowness of PBKDF2 (about 0.3 s a seat on this machine).
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
    count = int(sys.argv[1])
    made = []
    for start in range(0, count, 50):
        # One commit per 50 matches: set-up time is disk flushes otherwise.
        with transaction.atomic():
            made += [one_match(n) for n in range(start, min(start + 50, count))]
    print(json.dumps(made))


if __name__ == "__main__":
    main()
