"""Suggest what the builder's text does not carry (silhouette, Hidden
Deployment, Camouflage, Holoprojector...) from earlier locked lists on this
server that had a trooper of the same name.

Sources: every `ArmyListLocked` (public from the moment it is locked), and
the `HiddenTroopersEnlisted` of finished matches only, so that a hidden
trooper of a match still being played never colours a suggestion anyone can
see. A suggestion is the most common choice, and the player still sees and
edits every row before locking.
"""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Iterable

from tracker.models import Match, MatchEvent
from tracker.rules.state import LIEUTENANT_CANDIDATE

RECENT_LISTS = 500
# The Lieutenant option is in the pasted text itself, and differs per list.
NOT_SUGGESTED = {LIEUTENANT_CANDIDATE}


def _recent_rows():
    public = MatchEvent.objects.filter(kind="ArmyListLocked")
    hidden = MatchEvent.objects.filter(
        kind="HiddenTroopersEnlisted",
        match__status__in=[Match.Status.FINISHED, Match.Status.DISPUTED],
    )
    for events in (public, hidden):
        for data in events.order_by("-id").values_list("data", flat=True)[:RECENT_LISTS]:
            try:
                yield from json.loads(data).get("troopers") or []
            except (ValueError, AttributeError):
                continue


def suggestions(names: Iterable[str]) -> dict[str, dict]:
    """name.casefold() -> {"silhouette": n, "traits": [...], "lists": count}."""
    wanted = {name.casefold() for name in names}
    seen: dict[str, Counter] = {}
    for row in _recent_rows():
        key = str(row.get("name", "")).casefold()
        if key not in wanted:
            continue
        traits = tuple(sorted(set(row.get("traits") or []) - NOT_SUGGESTED))
        seen.setdefault(key, Counter())[(int(row.get("silhouette", 2)), traits)] += 1
    found = {}
    for key, counts in seen.items():
        (silhouette, traits), _count = counts.most_common(1)[0]
        found[key] = {
            "silhouette": silhouette,
            "traits": list(traits),
            "lists": sum(counts.values()),
        }
    return found
