"""What this process keeps of its own to save work (trooper views, written
texts, offers; and outside the rules, read states, renders and row memos):
each cache registers the function that empties it, so that all can be
emptied at once, as a new process starts, without a list to keep up.

The tests do so before and after each test (tests/conftest.py): pytest-xdist
runs files in no fixed order, and a cache a test found filled by another
made its result depend on that order. A list of six caches there missed
the trooper views, whose test then failed in CI."""

from __future__ import annotations

from collections.abc import Callable

_forgets: list[Callable[[], None]] = []


def emptied_by(forget: Callable[[], None]) -> Callable[[], None]:
    """Register `forget` (called with no argument) as emptying a cache."""
    _forgets.append(forget)
    return forget


def forget_all() -> None:
    """Empty every registered cache."""
    for forget in _forgets:
        forget()
