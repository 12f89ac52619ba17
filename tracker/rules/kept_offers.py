"""A seat's Order, ARO, second Short Skill and report offers
(declaration_offers.py), and its per-trooper Command Token uses
(token_offers.py: TM-S2's Suppressive Fire, TM-E1, TM-E2, TM-T1 to TM-T4),
kept from one state to the next while nothing they read changed (issue 18).

Asking the handlers for every offer was about a quarter of an action's CPU
in process, and most taps at a table change nothing the offers read: a State
tap that puts a trooper Prone, Engaged or Immobilized changes its tokens,
which no declaration, no report and most Command Token uses read of a
trooper the state names nowhere else (DECLARE_READS, REPORT_READS,
TOKEN_READS: recorded at every state of tests/rules/test_fast_offers.py's
matches; TM-E2 and TM-T3 read tokens, and are asked again). Such a tap now
finds its seat's offers already asked.

Two states share a seat's answer to a question when they differ only in
- their seq and their undo steps (no offered command decides by either:
  only UndoLastStep reads the steps, and no handler reads the seq; checked
  at every state of the rules tests' matches, tests/rules/test_kept_offers.py),
- and fields outside the question's key (key_fields: KEY_FIELDS, with the
  tokens for TM-E2 and TM-T3) of troopers that nothing else in the state
  names (twins.named_elsewhere): a trooper named elsewhere (a secret's, the
  Order's, a choice's) is compared whole, since handlers may read any of
  its fields.
Everything else of the state is compared by identity (a state steps by
copying only what an event changed, so an untouched part is the same
object in the next state; a state read afresh from the log shares nothing
and is asked again). A seat's offers are never another seat's: the seat is
in the key. Nothing here is ever shown; it says only which answers the
handlers already gave for the same inputs.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass, fields
from operator import attrgetter
from typing import TypeVar

from .declaration_offers import (
    DECLARE_READS,
    REPORT_READS,
    Offer,
    ReportOffer,
    aro_offers,
    order_offers,
    report_offers,
    second_skills,
)
from .process_caches import emptied_by
from .state import MatchState
from .twins import EVERY_FIELD, troopers_as_read

T = TypeVar("T")

# What the declarations may read of a trooper the state names nowhere
# else: what their handlers read (declaration_offers.DECLARE_READS,
# REPORT_READS) and what the offers read themselves to pick the troopers
# they ask about (condition, reserved, hidden, marker: all among those).
_DECLARATIONS_READ = frozenset({*DECLARE_READS, *REPORT_READS})
# The fields a key compares: every field of a trooper but those no offer
# reads (points, tokens, Fireteam, the Holoecho token, replacement): one
# set for every question (the declarations and the Command Token uses but
# TM-E2 and TM-T3), so that a state's troopers are read out once for all of
# them (twins.troopers_as_read), and that set with the tokens for those two.
# A key compares its id, name and place in the list too.
_READ_BY_NONE = ("cost", "fireteam", "holoecho_token", "no_room", "replaced", "replacement_choice")
KEY_FIELDS: tuple[str, ...] = tuple(
    f for f in EVERY_FIELD if f not in _READ_BY_NONE and f != "tokens"
)
WITH_TOKENS: tuple[str, ...] = (*KEY_FIELDS, "tokens")


def key_fields(reads: tuple[str, ...]) -> tuple[str, ...]:
    """The fields a key compares for a question that reads `reads` of a
    trooper: KEY_FIELDS or WITH_TOKENS if either holds them, else `reads`."""
    wanted = set(reads)
    for fields_ in (KEY_FIELDS, WITH_TOKENS):
        if wanted.issubset(fields_):
            return fields_
    return tuple(reads)


DECLARATIONS_KEY = key_fields(tuple(sorted(_DECLARATIONS_READ)))
# The state's parts compared by identity: all but the troopers (compared as
# above), the seq and the undo steps (read by no offered command).
_HELD: tuple[str, ...] = tuple(
    f.name for f in fields(MatchState) if f.name not in ("seq", "undo", "troopers")
)
_held = attrgetter(*_HELD)


@dataclass(frozen=True)
class DeclarationOffers:
    aro: tuple[Offer, ...] = ()
    order: tuple[Offer, ...] = ()
    second: tuple[str, ...] = ()
    report: tuple[ReportOffer, ...] = ()


NONE = DeclarationOffers()

# key -> (the state's parts it was asked with, held, and the answer). The
# held parts keep their ids from being another object's while the entry
# lives. Up to a dozen entries a match being played (each seat's
# declarations and open Command Token uses): room for about 680 tables, a
# big venue's and make bench's 500 matches; past it, offers are asked
# again, never wrong. An entry's key holds its state's troopers read out
# (a few KB, shared by the entries of that state).
_KEPT = 8192
_kept: OrderedDict[tuple, tuple[tuple, object]] = OrderedDict()
_lock = threading.Lock()
# asked: answers asked of the handlers; kept: answers found here.
stats = {"asked": 0, "kept": 0}


def declaration_offers(state: MatchState, seat: str | None) -> DeclarationOffers:
    """The seat's declaration offers at `state` (none for a spectator)."""
    if seat is None:
        return NONE
    return kept_answer(
        state,
        seat,
        "declarations",
        DECLARATIONS_KEY,
        lambda: DeclarationOffers(
            aro=aro_offers(state, seat),
            order=order_offers(state, seat),
            second=second_skills(state, seat),
            report=report_offers(state, seat),
        ),
    )


def kept_answer(
    state: MatchState, seat: str, question: str, fields: tuple[str, ...], ask: Callable[[], T]
) -> T:
    """`ask()`, or what it answered at a state alike for `question` asked
    for `seat`: the same parts but for the seq, the undo steps and the
    troopers, and troopers alike in `fields` (twins.troopers_as_read), which
    must hold every field `ask` reads of a trooper the state names nowhere
    else (token_offers.py's uses: TOKEN_READS)."""
    held = _held(state)
    key = (seat, question, tuple(map(id, held)), troopers_as_read(state, fields))
    with _lock:
        found = _kept.get(key)
        if found is not None and all(a is b for a, b in zip(found[0], held, strict=True)):
            _kept.move_to_end(key)
            stats["kept"] += 1
            return found[1]  # type: ignore[return-value]
    answer = ask()
    with _lock:
        stats["asked"] += 1
        _kept[key] = (held, answer)
        _kept.move_to_end(key)
        while len(_kept) > _KEPT:
            _kept.popitem(last=False)
    return answer


@emptied_by
def forget() -> None:
    with _lock:
        _kept.clear()
