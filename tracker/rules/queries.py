"""Pure queries on the match state, shared by the rule modules and by
player_view: nothing here strips or reveals anything, it only reads.

They lived in visibility.py, which made every rule module that counts Orders
or survivors import the module that builds views, and visibility in turn
import three of them back (eight rule modules in one import circle).
tests/rules/test_import_graph.py keeps the rules free of circles.
"""

from __future__ import annotations

from collections.abc import Iterable

from .state import IRREGULAR, MatchState, Secret, Trooper


def trooper_visible(trooper: Trooper, viewer: str | None) -> bool:
    # HD intro: while hidden, nothing about the trooper reaches the opponent.
    return not trooper.hidden or trooper.seat == viewer


def secret_visible(secret: Secret, viewer: str | None) -> bool:
    return secret.seat == viewer or secret.revealed or secret.existence_public


def order_pool(troopers: Iterable[Trooper]) -> tuple[dict, int]:
    """Regular Orders per Combat Group and the Irregular count, from troopers
    on the table. Hidden troopers keep their Order apart (HD-3), so the pool is
    the same whoever looks at it."""
    regular: dict[int, int] = {}
    irregular = 0
    for trooper in troopers:
        if trooper.hidden or trooper.out_of_action or trooper.evacuated:
            continue
        if trooper.has(IRREGULAR) and not trooper.regular_this_turn:
            irregular += 1
        else:
            regular[trooper.combat_group] = regular.get(trooper.combat_group, 0) + 1
    return dict(sorted(regular.items())), irregular


def surviving_points(state: MatchState, seat: str) -> int:
    """RT-A survivors: not Dead/Unconscious/Sepsitorized (on the table or in
    HD), plus those evacuated by their deployment edge during Retreat! (RT-6)."""
    return sum(t.cost for t in state.troopers_of(seat) if not t.out_of_action or t.evacuated)


def orders_left(state: MatchState) -> dict:
    """Regular Orders per Combat Group still in the active player's Pool.
    Read from the public parts of the turn only (never its private notes)."""
    turn = state.turn
    if turn is None:
        return {}
    pool = turn.extra.get("pool", {})
    spent = turn.extra.get("spent", {})
    cancelled = turn.extra.get("cancelled", {})
    return {
        int(group): max(0, count - spent.get(f"group:{group}", 0) - cancelled.get(group, 0))
        for group, count in sorted(pool.items(), key=lambda item: int(item[0]))
    }
