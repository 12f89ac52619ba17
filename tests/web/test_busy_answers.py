"""Issue 9: "busy, tap again" is a 503 with Retry-After (app.js sends the
same tap again after it, with the same action id), whichever way the
database could not be reached: a pool that stayed exhausted or a lost
connection (OperationalError, InterfaceError), or the write path's own
Busy, and in the phone's language."""

from __future__ import annotations

import re

import pytest
from django.db import InterfaceError, OperationalError
from django.utils import translation

from tracker import actions, views

from .phone import Phone, PhoneError
from .table import seated

pytestmark = pytest.mark.django_db


RELOADS = "The tracker is busy: this page loads again by itself in a moment."


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
    page = response.content.decode()
    assert "Traceback" not in page
    # A page load: it says it loads again by itself, and does (issue 18).
    with translation.override("es"):
        assert translation.gettext(RELOADS) in page
    refresh = re.search(r'<meta http-equiv="refresh" content="(\d+)">', page)
    assert refresh and 1 <= int(refresh.group(1)) <= 5
    assert '<a href="">' in page  # "load it now": this very address


def test_a_form_sent_without_htmx_answered_busy_is_not_sent_again_by_itself(monkeypatch):
    """Loading the address of a POST again would not send the form: its busy
    page does not reload, and says to go back and send it again (it has
    nothing to tap: "tap again" left players at a round's start on a page
    without a form). The home page's new-match form, a plain form, as the
    page renders it."""

    def busy(*args, **kwargs):
        raise actions.Busy()

    monkeypatch.setattr(views.actions, "create_match", busy)
    host = Phone("es")
    host.visit("/")
    [rendered] = host.forms("new")
    rendered.fill({"name": "Viernes", "points_limit": "300", "rounds": "3"})
    response = host.send(rendered)
    assert response.status_int == 503
    assert "vuelve atrás y envíalo de nuevo" in response.text
    assert "<form" not in response.text and "refresh" not in response.text
    assert '<html lang="es">' in response.text


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
