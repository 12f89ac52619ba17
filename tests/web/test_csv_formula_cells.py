"""Every cell a spreadsheet would run as a formula (one starting with =, +,
- or @) is quoted with a ' in the organizer's CSV: player names are typed by
anyone who takes a seat."""

import csv
import io

import pytest
from django.contrib.auth.models import Group, User
from django.test import Client

from .table import claim, create_match

pytestmark = pytest.mark.django_db


@pytest.fixture
def organizer():
    user = User.objects.create_user("carol", password="carol-organizes-2026")
    user.groups.add(Group.objects.get_or_create(name="organizers")[0])
    client = Client()
    client.force_login(user)
    return client


@pytest.mark.parametrize("name", ["=1+1", "+1+1", "-1+1", "@SUM(1+1)"])
def test_a_player_name_that_reads_as_a_formula_is_quoted(alice, bob, organizer, name):
    match = create_match(alice)
    claim(alice, match, "A", name)
    claim(bob, match, "B", "Bob")
    response = organizer.get(f"/organizer/matches/{match.code}/export.csv")
    assert response.status_code == 200
    [row] = list(csv.DictReader(io.StringIO(response.content.decode("utf-8-sig"))))
    assert row["player_a"] == "'" + name
    assert row["player_b"] == "Bob"
