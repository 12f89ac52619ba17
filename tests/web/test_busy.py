"""Issue 9: a database that cannot be reached in time (pool exhausted, SQLite
locked) answers "busy, tap again" in the phone's language with 503, never a
500, and the tap repeated afterwards counts once."""

from __future__ import annotations

import pytest
from django.db import OperationalError
from django.utils import translation

from tests.web.phone import Phone, PhoneError
from tracker import views

pytestmark = pytest.mark.django_db


def test_an_exhausted_pool_answers_busy_tap_again_in_the_phones_language(monkeypatch):
    links = Phone().create_match(name="Busy")
    alice = Phone(language="es")
    alice.claim(links["A"], "Alice")
    alice.submit("draft/add", name="Fusilier", cost="10")
    rendered = alice.form("LockArmyList")
    rendered.fill({})
    real = views.actions.perform

    def exhausted(*args, **kwargs):
        raise OperationalError("couldn't get a connection after 10.00 sec")

    monkeypatch.setattr(views.actions, "perform", exhausted)
    with pytest.raises(PhoneError, match="503") as refused:
        alice.send(rendered, action_id="busy-tap-0001")
    with translation.override("es"):
        assert translation.gettext("The tracker is busy; tap again.") in str(refused.value)
    assert "Traceback" not in str(refused.value)
    monkeypatch.setattr(views.actions, "perform", real)
    alice.send(rendered, action_id="busy-tap-0001")
    alice.send(rendered, action_id="busy-tap-0001")  # a double tap: once
    assert alice.error is None
    assert not alice.can("LockArmyList")
