""" "Undo my last change" is offered to whoever changed something last, and
to nobody else, on every page and push after each tap: the Undo part of
the controls is rendered again when it moves between the players, even
where nothing else of the controls changed (rendering.fresh_parts)."""

from __future__ import annotations

import pytest

from .phone_flows import ok, started

pytestmark = pytest.mark.django_db


def _state_tap(phone, trooper: str, tokens: list[str]) -> None:
    phone.open()
    trooper_id = phone.trooper_id(trooper)
    ok(
        phone,
        phone.submit("SetTrooperState", trooper_id=trooper_id, condition="normal", tokens=tokens),
    )


def test_undo_moves_to_the_player_who_changed_something_last():
    a, b, _ids = started()
    _state_tap(b, "Bolt", ["prone"])
    assert b.can("UndoLastStep")
    a.open()
    assert not a.can("UndoLastStep")

    _state_tap(a, "Kaplan", ["prone"])
    assert a.can("UndoLastStep")
    b.open()
    assert not b.can("UndoLastStep")
