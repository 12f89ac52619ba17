"""Troopers that no handler can tell apart, so that the forms' offers ask
the handlers once per kind of trooper rather than once per trooper
(issue 18; declaration_offers.py).

Two troopers are twins for a kind of question (an Order, a report, a
Command Token use) when they differ only in fields its handlers never read
of any trooper (their id, their name, their place in the army list, and
for most questions their points: REPORT_READS and DECLARE_READS in
declaration_offers.py, TOKEN_READS in token_offers.py), and neither id is
named anywhere in
the state but as its own key in the trooper map: no secret (a Lieutenant, a
written position, a sealed Holoecho, a HoloMask), no Order or ARO in
progress, no spent Order of its own, no open choice. A handler then reads
each of them only through the same fields and the same state, so it answers
a command about one as it answers the same command about the other. Names
appear only in the handlers' messages, and the army-list order only in the
hooks that walk a whole army at the start or end of a turn, never in a
decision about one trooper. The undo steps are not searched: they name
every trooper a State tap touched since the last other event, and only
UndoLastStep decides by them (conditions.py; evolve asks only whether there
are any), a command the offers do not ask.

Anything the check cannot read as a plain value makes a trooper no twin
(`key` is None): asking too often is safe, sharing too widely is not.
tests/rules/test_fast_offers.py checks the offers against asking every pair
at every state of the rules tests' scripted matches and of matches played
by what they offer.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Callable, Hashable
from dataclasses import fields
from operator import attrgetter
from typing import TypeVar

from .process_caches import emptied_by
from .state import MatchState, Trooper, replace

T = TypeVar("T")

# What a handler may read of a trooper: every field but these three. The key
# of a question whose reads are not recorded (tests/rules/test_fast_offers.py)
# holds them all.
_ANONYMOUS = ("id", "name", "position")
EVERY_FIELD = tuple(f.name for f in fields(Trooper) if f.name not in _ANONYMOUS)
# What may name a trooper elsewhere in the state (the trooper map apart).
_READ_BY_HANDLERS = tuple(f.name for f in fields(MatchState) if f.name not in ("troopers", "undo"))


def twin_key(state: MatchState, fields: tuple[str, ...]) -> Callable[[Trooper], Hashable | None]:
    """key(trooper): equal for twins, None for a trooper the state names.
    `fields`: the trooper's fields the handlers asked may read of any
    trooper (EVERY_FIELD if not known: fewer find more twins).
    The last few states' are kept (each view asks it for every offer, both
    views of an action ask it of the same state, and a server's threads
    build other matches' views in between): each is the state's alone, read
    from no viewer, and says only which answers may be shared, never one."""
    kept = _kept_of(state)
    key = kept.keys.get(fields)
    if key is None:
        # Two threads may both make it: the same key, one of them kept.
        key = kept.keys[fields] = _twin_key(kept, fields)
    return key


def named_elsewhere(state: MatchState) -> Callable[[str], bool]:
    """names(trooper_id): whether anything in `state` but the trooper map's
    own key names that trooper (a secret, the Order in progress, a choice,
    another trooper's field): a handler may then read any of its fields."""
    return _kept_of(state).names


def _kept_of(state: MatchState) -> _Kept:
    with _lock:
        kept = _keys.get(id(state))
    if kept is None or kept.state is not state:
        kept = _Kept(state)
        with _lock:
            _keys[id(state)] = kept
            while len(_keys) > _KEYS_KEPT:
                _keys.popitem(last=False)
    return kept


def troopers_as_read(state: MatchState, fields: tuple[str, ...]) -> tuple:
    """Each trooper of `state` in the map's order, as a handler that reads
    `fields` of any trooper the state names nowhere else may read it: its
    id, name, place in the list and those fields, or the whole trooper if
    the state names it elsewhere. Two states whose other parts are the same
    and whose troopers read alike are alike to such a handler
    (kept_offers.py). Made once per state: both views of an action ask it."""
    kept = _kept_of(state)
    found = kept.as_read.get(fields)
    if found is None:
        read = attrgetter(*fields)
        found = kept.as_read[fields] = tuple(
            trooper
            if kept.names(trooper.id)
            else (trooper.id, trooper.name, trooper.position, read(trooper))
            for trooper in state.troopers.values()
        )
    return found


class _Kept:
    """What the twin keys of one state share: which troopers it names (the
    search of the state written out is most of what a key costs, so it is
    made once per state and trooper, whatever the fields) and its keys."""

    def __init__(self, state: MatchState) -> None:
        self.state = state
        self._text: str | None = None
        self._named: dict[str, bool] = {}
        self.keys: dict[tuple[str, ...], Callable[[Trooper], Hashable | None]] = {}
        self.as_read: dict[tuple[str, ...], tuple] = {}

    def names(self, trooper_id: str) -> bool:
        named = self._named.get(trooper_id)
        if named is None:
            if self._text is None:
                self._text = _everything_but_own_ids(self.state)
            named = self._named[trooper_id] = trooper_id in self._text
        return named


# id(state) -> what its keys share, the state held, so its id is never
# another's while kept. A few per match being played at once in a process.
_KEYS_KEPT = 64
_keys: OrderedDict[int, _Kept] = OrderedDict()
_lock = threading.Lock()


def _twin_key(kept: _Kept, fields: tuple[str, ...]) -> Callable[[Trooper], Hashable | None]:
    fields_of = attrgetter(*fields)
    keys: dict[str, Hashable | None] = {}

    def key(trooper: Trooper) -> Hashable | None:
        if trooper.id not in keys:
            keys[trooper.id] = None if kept.names(trooper.id) else fields_of(trooper)
        return keys[trooper.id]

    return key


def once_per_twin(key: Callable[[Trooper], Hashable | None], ask: Callable[[Trooper], T]):
    """`ask`, asked once for each set of twins (`key`, from twin_key) and
    for each trooper that has none; never kept beyond one view."""
    answers: dict[Hashable, T] = {}

    def answer(trooper: Trooper) -> T:
        twin = key(trooper)
        if twin is None:
            return ask(trooper)
        if twin not in answers:
            answers[twin] = ask(trooper)
        return answers[twin]

    return answer


def _everything_but_own_ids(state: MatchState) -> str:
    """The state written out, each trooper without its own id: a trooper id
    found in it is named by something else (a substring match may also find
    an id inside a longer one, or across two parts: that only makes fewer
    twins). Each part and trooper is written out once (_written): from one
    state to the next an action changes a trooper or two, and writing out
    the whole state was most of what deciding which troopers it names cost."""
    rest = [_written(getattr(state, name), repr) for name in _READ_BY_HANDLERS]
    troopers = [_written(trooper, _without_id) for trooper in state.troopers.values()]
    return "\n".join((*rest, *troopers))


def _without_id(trooper: Trooper) -> str:
    return repr(replace(trooper, id=""))


# id(part) -> (the part, held so that its id is no other's, written out).
# States are immutable and share their unchanged parts and troopers, so a
# part's text is its own for as long as it lives. Emptied whole when full:
# room for a venue's troopers (150 tables of 50) and the parts its last
# actions made, each a few hundred bytes written out.
_WRITTEN_KEPT = 16384
_texts: dict[int, tuple[object, str]] = {}


def _written(part: object, write: Callable[[object], str]) -> str:
    kept = _texts.get(id(part))
    if kept is not None and kept[0] is part:
        return kept[1]
    text = write(part)
    if len(_texts) >= _WRITTEN_KEPT:
        _texts.clear()
    _texts[id(part)] = (part, text)
    return text


@emptied_by
def forget() -> None:
    """Empty the kept keys and texts, as a new process starts (tests/conftest.py)."""
    with _lock:
        _keys.clear()
    _texts.clear()
