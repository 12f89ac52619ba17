"""The match history filtered to one day: "From" and "To" the same date is
that day's matches, not "The end date is before the start date." (the
organizer looking up last Saturday's league night types the date twice).
The filter is the form the history page renders (a GET form)."""

from __future__ import annotations

import re

import pytest
from bs4 import BeautifulSoup
from django.utils import timezone

from tests.web.organizer_table import text_of
from tests.web.rendered_forms import fields_of
from tests.web.test_organizer_history import bulk_matches

pytestmark = pytest.mark.django_db


def filtered(carol, **fill) -> str:
    page = carol.get("/organizer/").content.decode()
    form = BeautifulSoup(page, "lxml").select_one("form.filters")
    values = fields_of(form)
    for name, value in fill.items():
        assert name in values, name
        values[name] = [value]
    response = carol.get(form.get("action") or "/organizer/", values)
    assert response.status_code == 200
    return response.content.decode()


def test_from_and_to_the_same_day_lists_that_days_matches(carol):
    matches = bulk_matches(6, start=timezone.now(), day_step=1)  # a match a day
    day = timezone.localdate(matches[2].created_at)
    that_day = {m.name.split()[1] for m in matches if timezone.localdate(m.created_at) == day}
    html = filtered(carol, date_from=str(day), date_to=str(day))
    assert "The end date is before the start date." not in text_of(html)
    assert set(re.findall(r"A-player-(\d+)", html)) == that_day
    assert "2" in that_day and len(that_day) < 6
