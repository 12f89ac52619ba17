"""Match settings as one value (#20): one field set shared by the home
page's new-match form and the organizer's pairings, one MatchSettings from
it through the creation event to each viewer's page.

Adding a setting is a field in MatchSettings (state.py), one in
MatchSettingsForm (forms.py) and what a template shows of it
(`view.settings.<name>`): the walk below fails until the form has it, and
nothing between (create_match, MatchCreated, the state, player_view) lists
settings one by one."""

import json
from dataclasses import fields, replace

import pytest
from django.test import Client

from tracker.forms import CreateMatchForm, MatchSettingsForm
from tracker.models import Match, MatchEvent
from tracker.organizer.forms import PairingsForm
from tracker.reading import load_state
from tracker.rules import event_from_data, player_view
from tracker.rules.setup import MatchCreated
from tracker.rules.state import MatchSettings

from .rendered_forms import submit_on
from .table import claim

pytestmark = pytest.mark.django_db

# A value unlike its default for every setting the MatchCreated event logs.
# A new setting goes here: the walk checks it is here and in the forms.
TYPED = {"points_limit": 250, "rounds": 4, "mission": "Frontline", "table": "12"}
# Per-table on the pairings (each pairing its own table), typed on the home page.
PER_TABLE = {"table"}
# Several form fields (classified_drawn, ...) make one value: clean_config.
COMPOSITE = {"classified"}


def test_the_home_form_and_the_pairings_form_share_one_field_set():
    shared = set(MatchSettingsForm.base_fields)
    assert {"points_limit", "rounds", "mission", "classified_drawn"} <= shared
    for form in (CreateMatchForm, PairingsForm):
        assert issubclass(form, MatchSettingsForm)
        for name in shared:
            assert form.base_fields[name] is MatchSettingsForm.base_fields[name], (form, name)


def test_every_setting_is_a_form_field_typed_once_and_read_by_the_view():
    settings = {f.name: f for f in fields(MatchSettings)}
    assert set(settings) - COMPOSITE == set(TYPED), "a new setting: give it a value in TYPED"
    for name, value in TYPED.items():
        assert value != settings[name].default, name
        assert name in CreateMatchForm.base_fields, f"the home form lacks {name}"
        if name not in PER_TABLE:
            assert name in MatchSettingsForm.base_fields, f"the shared field set lacks {name}"

    host = Client()
    response = submit_on(host, "/", "/new/", name="Settings", **TYPED)
    assert response.status_code == 302
    match = Match.objects.get(code=response["Location"].split("/")[2])

    # The creation event logs each setting flat, as before they were one value.
    row = MatchEvent.objects.get(match=match, seq=1)
    data = json.loads(row.data)
    assert {name: data[name] for name in TYPED} == TYPED
    assert event_from_data(row.kind, data) == MatchCreated(
        name="Settings", settings=MatchSettings(**TYPED)
    )

    for viewer in ("A", "B", None):
        view = player_view(load_state(match), viewer)
        # (The home form draws Classified Objectives unless told not to.)
        assert replace(view.settings, classified=None) == MatchSettings(**TYPED), viewer

    # And the page header reads them from the view (templates/tracker/blocks/header.html).
    page = claim(Client(), match, "A", "Alice").page()
    assert "250 points" in page and "Frontline" in page and "12" in page


def test_a_log_from_before_a_setting_existed_replays_with_its_default():
    """An event written before `table` and `mission` were settings: the
    defaults fill them, so adding a setting with a default migrates nothing."""
    old = event_from_data(
        "MatchCreated", {"name": "Old", "points_limit": 200, "rounds": 3, "rule": None}
    )
    assert old.settings == MatchSettings(points_limit=200, rounds=3)
    assert old.to_data() == {
        "name": "Old",
        "points_limit": 200,
        "rounds": 3,
        "mission": "",
        "table": "",
        "private_to": None,
        "rule": None,
    }


def test_the_classified_settings_reach_the_view_in_the_same_value():
    host = Client()
    response = submit_on(host, "/", "/new/", name="Classified", classified_drawn=3)
    assert response.status_code == 302
    match = Match.objects.get(code=response["Location"].split("/")[2])
    view = player_view(load_state(match), "B")
    assert view.settings.classified["drawn"] == 3
    assert isinstance(view.settings.classified["deck"], list)  # asdict, JSON: the export
