"""An event is created once (issue 21): the organizer's "Create the event"
sent again, by a tap repeated after a stalled answer or by Back and send,
made a second, empty event of the same name and date, and the night was
run on one of two look-alikes in the list. The form sent again is now told
the event exists, in the organizer's language, and creates nothing; an
event of the same name on another date (next week's league night) is
still created."""

from __future__ import annotations

import pytest
from bs4 import BeautifulSoup

from tests.web.rendered_forms import submit
from tracker.models import TournamentEvent

pytestmark = pytest.mark.django_db

EXISTS = {
    "en": (
        "The event Copa Meseta on Dec. 12, 2026 already exists: open it from the list below, "
        "or give this one another name."
    ),
    "es": (
        "El evento Copa Meseta del 12 de diciembre de 2026 ya existe: ábrelo en la lista de "
        "abajo o ponle otro nombre a este."
    ),
}


@pytest.mark.parametrize("lang", ["en", "es"])
def test_the_event_form_sent_twice_creates_one_event(carol, lang):
    carol.defaults["HTTP_ACCEPT_LANGUAGE"] = lang
    page = carol.get("/organizer/events/").content.decode()
    fill = {"name": "Copa Meseta", "date": "2026-12-12", "location": "Toledo"}
    first = submit(carol, page, "/organizer/events/", at="/organizer/events/", **fill)
    assert first.status_code == 302
    again = submit(carol, page, "/organizer/events/", at="/organizer/events/", **fill)
    assert again.status_code == 400
    assert TournamentEvent.objects.count() == 1
    text = " ".join(BeautifulSoup(again.content.decode(), "lxml").get_text(" ").split())
    assert EXISTS[lang] in text
    # Typed differently, it is the same event all the same.
    fill["name"] = "copa  MESETA"
    response = submit(carol, page, "/organizer/events/", at="/organizer/events/", **fill)
    assert response.status_code == 400 and TournamentEvent.objects.count() == 1
    # Next week's night of the same name is another event.
    fill.update(name="Copa Meseta", date="2026-12-19")
    response = submit(carol, page, "/organizer/events/", at="/organizer/events/", **fill)
    assert response.status_code == 302 and TournamentEvent.objects.count() == 2
