"""A lists deadline typed in the past (yesterday for tomorrow, a date slip)
locked every army list at once, with none of the question "Lock the lists
now" asks first, and the run page offers no unlock. It is refused now, in
the organizer's language, the time typed kept to be corrected, and nothing
locks. Through the run page's rendered deadline form."""

from __future__ import annotations

from datetime import timedelta

import pytest
from bs4 import BeautifulSoup
from django.utils import timezone

from tests.web.rendered_forms import submit
from tests.web.test_event_running import Organizer
from tracker import event_running
from tracker.models import TournamentEvent

pytestmark = pytest.mark.django_db

PASSED = {
    "en": "That time has already passed: every list would lock at once. "
    "Choose a time to come, or use “Lock the lists now”.",
    "es": "Esa hora ya ha pasado: todas las listas se cerrarían a la vez. "
    "Elige una hora por venir, o usa «Cerrar las listas ya».",
}


@pytest.mark.parametrize("lang", ["en", "es"])
def test_a_deadline_in_the_past_is_refused_and_locks_nothing(carol, lang):
    carol.defaults["HTTP_ACCEPT_LANGUAGE"] = lang
    event = TournamentEvent.objects.create(name="Open de invierno")
    org = Organizer(carol, event)
    assert org.submit("/roster/paste/", players="Ana, PanOceania\nBea, Yu Jing").status_code == 302
    yesterday = timezone.localtime() - timedelta(days=1)
    typed = yesterday.strftime("%Y-%m-%dT%H:%M")

    response = submit(carol, org.page(), "/lists/", within="#lists", deadline=typed)

    assert response.status_code == 400
    page = BeautifulSoup(response.content.decode(), "lxml")
    assert PASSED[lang] in " ".join(page.get_text(" ").split())
    assert page.select_one("form.deadline input[name=deadline]")["value"] == typed
    event.refresh_from_db()
    assert event.lists_deadline is None and not event_running.lists_locked(event)


def test_a_deadline_to_come_is_still_set(carol):
    event = TournamentEvent.objects.create(name="Open de invierno")
    org = Organizer(carol, event)
    soon = (timezone.localtime() + timedelta(hours=2)).strftime("%Y-%m-%dT%H:%M")
    assert org.submit("/lists/", within="#lists", deadline=soon).status_code == 302
    event.refresh_from_db()
    assert event.lists_deadline is not None and not event_running.lists_locked(event)
    assert "The army lists lock at the deadline." in org.text()


def test_attack_a_deadline_past_the_last_day_utc_has_is_refused(carol, settings):
    """West of UTC, the last minute of year 9999 is a time UTC has no day
    for: saving it was a 500 with its traceback. Refused as a date the form
    cannot read; nothing locks."""
    settings.TIME_ZONE = "America/New_York"
    event = TournamentEvent.objects.create(name="Open de invierno")
    carol.raise_request_exception = False
    response = Organizer(carol, event).submit(
        "/lists/", within="#lists", deadline="9999-12-31T23:59"
    )
    assert response.status_code == 400
    assert "Enter a valid date/time." in response.content.decode()
    event.refresh_from_db()
    assert event.lists_deadline is None
