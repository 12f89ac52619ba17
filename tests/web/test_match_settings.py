"""Match settings as one value (#20): one field set shared by the home
page's new-match form and the organizer's pairings, one MatchSettings from
it through the creation events to each viewer's page."""

import pytest
from django.test import Client

from tracker.forms import CreateMatchForm, MatchSettingsForm
from tracker.models import Match
from tracker.organizer.forms import PairingsForm
from tracker.reading import load_state
from tracker.rules import player_view

pytestmark = pytest.mark.django_db


def test_the_home_form_and_the_pairings_form_share_one_field_set():
    shared = set(MatchSettingsForm.base_fields)
    assert {"points_limit", "rounds", "mission", "classified_drawn"} <= shared
    for form in (CreateMatchForm, PairingsForm):
        assert issubclass(form, MatchSettingsForm)
        for name in shared:
            assert form.base_fields[name] is MatchSettingsForm.base_fields[name], (form, name)


def test_the_settings_typed_on_the_home_page_reach_the_view():
    client = Client()
    response = client.post(
        "/new/",
        {
            "name": "Settings",
            "points_limit": 250,
            "rounds": 4,
            "mission": "Frontline",
            "table": "12",
        },
    )
    assert response.status_code == 302
    match = Match.objects.get(code=response["Location"].split("/")[2])
    view = player_view(load_state(match), None)
    assert (view.points_limit, view.rounds, view.mission, view.table) == (
        250,
        4,
        "Frontline",
        "12",
    )
    form = CreateMatchForm(
        {"name": "x", "points_limit": 250, "rounds": 4, "mission": "Frontline", "table": "12"}
    )
    assert form.is_valid()
    assert form.match_settings(table="12").created("x").rounds == 4
