"""Who a viewer may know a trooper as (DESIGN.md: ids in events, names in views).

Two states make the opponent know a trooper by something else than its
army-list line:

- a Camouflage marker (HD-C3): which trooper stands under "Camouflage marker
  1" is private until the marker state ends (RT-5 names marker states beside
  Holoecho). The opponent knows it by a public marker number and a reference
  made of that number alone, never by the trooper's id or list position;
- HoloMask (HE-9): the troop type the opponent reads is the masked one sealed
  at deployment, until HoloMask ends (holomask.py).

Everything a viewer receives resolves troopers through `aliases`: the
trooper list (visibility), the log lines (visibility.log_for), the refusals
(commands.decide) and the targets a command names (conditions.visible_trooper).
Pure: imports only the state.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from .i18n import _
from .state import HOLOMASK, HOLOMASK_TYPE, MatchState, Trooper

MARKER_REF = "marker"
# Shown for a marker in any language; the web layer translates it.
MARKER_NAME = _("Camouflage marker %(number)s")
# A HoloMask trooper whose owner has not sealed its mask yet (deployment).
MASK_PENDING = _("Trooper not yet deployed")


@dataclass(frozen=True)
class Alias:
    """How one viewer knows a trooper whose identity is private to it."""

    ref: str  # the id the viewer uses for it (forms, log, export)
    name: str  # the name shown (English msgid filled in for markers)
    marker_number: int = 0  # > 0: a Camouflage marker
    masked: bool = False  # HoloMask: `name` is the masked troop type
    cost: int = 0  # HoloMask: the points of the masked troop type


def marker_ref(seat: str, number: int) -> str:
    return f"{MARKER_REF}{seat}{number}"


def masked_marker(trooper: Trooper, viewer: str | None) -> bool:
    """HD-C3: the viewer sees a marker, not the trooper under it."""
    return trooper.marker and trooper.marker_number > 0 and trooper.seat != viewer


def holomask_secret(state: MatchState, trooper_id: str):
    """The still-sealed true troop type of a HoloMask trooper, if any."""
    return state.secret_for(trooper_id, HOLOMASK_TYPE)


def holomask_on(state: MatchState, trooper: Trooper) -> bool:
    """HoloMask in force: the trait, and no reveal of its true type yet."""
    if not trooper.has(HOLOMASK):
        return False
    if holomask_secret(state, trooper.id) is not None:
        return True
    # Before the owner seals the mask (deployment), nothing is revealed either.
    return not any(
        s.kind == HOLOMASK_TYPE and s.trooper_id == trooper.id for s in state.secrets.values()
    )


def alias_for(state: MatchState, trooper: Trooper, viewer: str | None) -> Alias | None:
    if trooper.seat == viewer:
        return None
    if masked_marker(trooper, viewer):
        number = trooper.marker_number
        return Alias(
            ref=marker_ref(trooper.seat, number),
            name=MARKER_NAME % {"number": number},
            marker_number=number,
        )
    if holomask_on(state, trooper):
        secret = holomask_secret(state, trooper.id)
        payload = secret.payload if secret is not None else {}
        shown = str(payload.get("masked_as", ""))
        cost = int(payload.get("masked_cost", 0) or 0)
        return Alias(ref=trooper.id, name=shown or MASK_PENDING, masked=True, cost=cost)
    return None


def aliases(state: MatchState, viewer: str | None) -> dict[str, Alias]:
    """true trooper id -> how `viewer` knows it, for troopers it knows otherwise."""
    found = {}
    for trooper in state.troopers.values():
        alias = alias_for(state, trooper, viewer)
        if alias is not None:
            found[trooper.id] = alias
    return found


def resolve_ref(state: MatchState, viewer: str | None, ref: str) -> Trooper | None:
    """The trooper a viewer names by `ref`; None if the viewer cannot name it so.
    A masked marker answers only to its marker reference: its true id is
    refused like an unknown one (a refusal must not confirm who it is)."""
    trooper = state.troopers.get(ref)
    if trooper is not None:
        return None if masked_marker(trooper, viewer) else trooper
    if not ref.startswith(MARKER_REF):
        return None
    for candidate in state.troopers.values():
        if candidate.marker and marker_ref(candidate.seat, candidate.marker_number) == ref:
            return candidate
    return None


# Params that name a trooper by its name alone. In a log line, TM-T1's and a
# Fireteam's `names` (their trooper_ids always beside them) and HE-8's
# `target_name` (beside target_id; lines written before it was kept have
# none); "name" there is the match's, a player's or a Fireteam's, never
# renamed. In a refusal, "name" is a trooper's.
LOG_NAME_ONLY = ("target_name", "names")
REFUSAL_NAME_ONLY = ("name",)


def rename(
    params: Mapping,
    known: Mapping[str, Alias],
    state: MatchState,
    viewer: str | None,
    name_only: tuple[str, ...] = REFUSAL_NAME_ONLY,
) -> dict:
    """`params` (a log line's or a refusal's) with every trooper named the way
    the viewer knows it: "<x>_id" -> the alias ref, "<x>_name" -> the alias
    name, and "<x>_name_marker" the marker number for the web layer."""
    out = dict(params)
    if not known:
        return out
    for key, value in params.items():
        if key.endswith("_id") and isinstance(value, str) and value in known:
            alias = known[value]
            out[key] = alias.ref
            name_key = key[: -len("_id")] + "_name"
            out[name_key] = alias.name
            if alias.marker_number:
                out[f"{name_key}_marker"] = alias.marker_number
        elif key.endswith("_ids") and isinstance(value, list):
            out[key] = [known[v].ref if v in known else v for v in value]
        elif isinstance(value, list) and any(isinstance(v, dict) for v in value):
            # Rows of an army list (ArmyListLocked): an aliased row is its alias.
            out[key] = [
                {"id": known[v["id"]].ref, "name": known[v["id"]].name}
                if isinstance(v, dict) and v.get("id") in known
                else v
                for v in value
            ]
    for key in name_only:
        value = out.get(key)
        if not isinstance(value, str) or not value:
            continue
        if key == "names":
            # By the ids beside them: a name list cannot say which of two
            # namesakes it means (a visible Ninja read "Camouflage marker 1"
            # in the opponent's log when the marker was a Ninja too).
            ids = params.get("trooper_ids") or []
            if any(i in known for i in ids) and all(i in state.troopers for i in ids):
                out[key] = ", ".join(
                    known[i].name if i in known else state.troopers[i].name for i in ids
                )
        elif key.endswith("_name") and key[: -len("_name")] + "_id" in params:
            continue  # named by its id, above
        else:
            alias = _by_name(value, known, state, viewer)
            if alias is not None and f"{key}_marker" not in out:
                out[key] = alias.name
                if alias.marker_number:
                    out[f"{key}_marker"] = alias.marker_number
    return out


def _by_name(name: str, known: Mapping[str, Alias], state: MatchState, viewer: str | None):
    """For a name with no id beside it (a refusal's; a log line written
    before its id was kept): the alias of a trooper this viewer knows
    otherwise whose true name is `name`, unless the viewer reads a trooper
    by that very name (its own, or one of the opponent's on the table:
    mirror lists field the same profiles). The name then means that one as
    far as the viewer can tell, and renaming it would both misname it and
    say what the marker or the mask hides. Never decided by a hidden
    trooper, which the viewer does not know of."""
    troopers = state.troopers.values()
    if any(
        t.name == name and t.id not in known and (t.seat == viewer or not t.hidden)
        for t in troopers
    ):
        return None
    found = sorted(
        (known[t.id] for t in troopers if t.name == name and t.id in known),
        key=lambda alias: (alias.marker_number, alias.ref),
    )
    return found[0] if found else None
