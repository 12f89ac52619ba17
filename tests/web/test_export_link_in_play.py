"""The audit page of a match in play offers its JSON export (every secret's
payload) only once the organizer has opened the sealed information up to the
match's last seq: before that it offers the opening, which both players are
told of, and the CSV (public facts) only."""

import pytest
from django.test import Client

from tests.web.organizer_table import audit_page, finished, fresh, open_sealed, playing
from tests.web.table import error_of

pytestmark = pytest.mark.django_db


def json_link(match) -> str:
    return f'href="/organizer/matches/{match.code}/export.json"'


def test_the_json_export_is_offered_only_once_the_sealed_information_is_open(alice, bob, carol):
    a, _b = playing(alice, bob, rounds=3)
    sealed = audit_page(carol, fresh(a.match))
    assert json_link(a.match) not in sealed
    assert f'href="/organizer/matches/{a.match.code}/export.csv"' in sealed
    open_sealed(carol, a.match)
    assert json_link(a.match) in audit_page(carol, fresh(a.match))
    # A tap after the opening seals something new: no export until opened again.
    assert error_of(a.submit("AdvancePhase")) is None
    assert json_link(a.match) not in audit_page(carol, fresh(a.match))


def test_a_finished_match_offers_its_json_export(carol, mallory):
    a, _b = finished(Client(), mallory)
    assert json_link(a.match) in audit_page(carol, fresh(a.match))
