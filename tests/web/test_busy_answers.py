"""Issue 9: "busy, tap again" is a 503 with Retry-After (app.js sends the
same tap again after it, with the same action id), whichever way the
database could not be reached: a pool that stayed exhausted or a lost
connection (OperationalError, InterfaceError), or the write path's own
Busy, and in the phone's language."""

from __future__ import annotations

import pytest
from django.db import InterfaceError, OperationalError
from django.utils import translation

from tracker import actions, views

from .phone import PhoneError
from .table import seated

pytestmark = pytest.mark.django_db


def busy_words(language: str) -> str:
    with translation.override(language):
        return translation.gettext("The tracker is busy; tap again.")


@pytest.mark.parametrize("error", [OperationalError, InterfaceError])
def test_a_page_whose_database_is_gone_answers_busy_with_retry_after(
    alice, bob, monkeypatch, error
):
    a, _b = seated(alice, bob)

    def gone(*args, **kwargs):
        raise error("the connection is gone")

    monkeypatch.setattr(views, "viewer_blocks", gone)
    response = alice.get(f"/m/{a.match.code}/", HTTP_ACCEPT_LANGUAGE="es")
    assert response.status_code == 503
    assert response["Retry-After"] == "1"
    assert busy_words("es") in response.content.decode()
    assert "Traceback" not in response.content.decode()


def test_a_tap_the_write_path_finds_busy_answers_503_with_retry_after(alice, bob, monkeypatch):
    a, _b = seated(alice, bob)

    def busy(*args, **kwargs):
        raise actions.Busy()

    assert a.submit("draft/add", name="Kaplan", cost="20").status_int == 200
    monkeypatch.setattr(views.actions, "perform", busy)
    phone = a.phone
    with pytest.raises(PhoneError, match="answered 503"):
        phone.submit("LockArmyList")  # the form the page renders, through the write path
    response = phone.last
    assert response.status_int == 503
    assert response.headers["Retry-After"] == "1"
    assert response.text == f'<p class="error busy" role="alert">{busy_words("en")}</p>'
