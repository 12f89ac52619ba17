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


def _recent(phone) -> list[str]:
    block = phone.soup.find(id="recent")
    return [li.get_text(" ", strip=True) for li in block.find_all("li")] if block else []


def test_the_undo_line_says_what_the_trooper_is_again_in_each_language():
    """The undo's log line named "step 23", a number no phone shows a
    player (the log shows times): it says whose last change was undone and
    what the trooper is again, in each reader's language."""
    a, b, _ids = started(language_a="en", language_b="es")
    _state_tap(a, "Kaplan", ["prone"])
    ok(a, a.submit("UndoLastStep"))
    a.open()
    assert "Correction: the last change to Kaplan was undone; it is Normal again." in _recent(a)[0]
    b.open()
    assert (
        "Corrección: se ha deshecho el último cambio de Kaplan; vuelve a estar Normal."
        in _recent(b)[0]
    )
    for phone in (a, b):
        assert "step" not in _recent(phone)[0] and "paso" not in _recent(phone)[0]

    # Undoing the removal of a token: the tokens it has again are named too.
    a.open()
    trooper_id = a.trooper_id("Kaplan")
    ok(a, a.submit("SetTrooperState", trooper_id=trooper_id, condition="normal", tokens=["prone"]))
    ok(a, a.submit("SetTrooperState", trooper_id=trooper_id, condition="normal", tokens=[]))
    ok(a, a.submit("UndoLastStep"))
    a.open()
    assert (
        "Correction: the last change to Kaplan was undone; it is Normal, Prone again."
        in _recent(a)[0]
    )
