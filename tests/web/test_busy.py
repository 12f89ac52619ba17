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


@pytest.mark.django_db(transaction=True)
async def test_an_overloaded_process_sheds_taps_at_once_in_the_phones_language(settings):
    """Past HTTP_THREADS + HTTP_QUEUE taps in flight, a tap (a POST) is
    answered 503 "busy, tap again" at once, in the language the phone asks
    for, without reaching Django; a page load has a budget of its own
    (tracker/admission.py) and is served."""
    from channels.testing import HttpCommunicator

    from tracker.asgi import application

    http = application.application_mapping["http"]
    settings.HTTP_THREADS, settings.HTTP_QUEUE = 2, 1
    http.admission.in_flight["tap"] = 3  # as if three taps were being served or waiting
    try:
        tap = HttpCommunicator(
            http,
            "POST",
            "/m/nothing/act/SetTrooperState/",
            body=b"trooper_id=x",
            headers=[(b"accept-language", b"es"), (b"hx-request", b"true")],
        )
        answer = await tap.get_response(timeout=5)
        assert answer["status"] == 503
        assert (b"retry-after", b"1") in answer["headers"]
        with translation.override("es"):
            busy = translation.gettext("The tracker is busy; tap again.")
        assert busy != "The tracker is busy; tap again."
        assert answer["body"].decode() == f'<p class="error busy" role="alert">{busy}</p>'
        page = HttpCommunicator(http, "GET", "/", headers=[(b"host", b"localhost")])
        assert (await page.get_response(timeout=10))["status"] == 200
        await page.wait(timeout=5)
        assert http.admission.in_flight == {"tap": 3, "page": 0, "static": 0}  # came and went
    finally:
        http.admission.in_flight["tap"] = 0
