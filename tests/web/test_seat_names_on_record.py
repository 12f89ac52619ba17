"""The name a player types when taking a seat is the name on record (the
organizer's history and CSV), whole up to the form's 60 characters; a seat
handed to a new phone (issue 22) is the same player's: taking it there
adds nothing to the log and renames no one."""

from __future__ import annotations

import csv
import io

import pytest
from django.contrib.auth.models import Group, User
from django.test import Client

from tracker.models import MatchEvent, Seat

from .phone import Phone

pytestmark = pytest.mark.django_db

LONG_NAME = "Alejandra Montserrat Fernández de Castillo"  # 42 characters


@pytest.fixture(autouse=True)
def quick_pins(settings):
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]


def organizer() -> Client:
    user = User.objects.create_user("carol", password="carol-organizes-2026")
    user.groups.add(Group.objects.get_or_create(name="organizers")[0])
    client = Client()
    client.force_login(user)
    return client


def csv_row(carol: Client, code: str) -> dict:
    response = carol.get(f"/organizer/matches/{code}/export.csv")
    assert response.status_code == 200
    [row] = list(csv.DictReader(io.StringIO(response.content.decode("utf-8-sig"))))
    return row


def test_a_long_name_is_kept_whole_in_the_organizers_records():
    host = Phone()
    links = host.create_match()
    alice, bob = Phone(), Phone()
    alice.claim(links["A"], LONG_NAME, pin="913862")
    bob.claim(links["B"], "Bob", pin="580417")
    carol = organizer()
    assert csv_row(carol, alice.code)["player_a"] == LONG_NAME
    history = carol.get("/organizer/", {"player": "Castillo"}).content.decode()
    assert LONG_NAME in history


def test_taking_a_handed_off_seat_on_a_new_phone_adds_no_claim_and_renames_no_one():
    host = Phone()
    links = host.create_match()
    alice, bob = Phone(), Phone()
    alice.claim(links["A"], "Alice", pin="913862")
    bob.claim(links["B"], "Bob", pin="580417")
    code = alice.code
    host.visit(f"/m/{code}/host/")
    host.submit("A")  # "Hand seat A to a new phone"
    new_phone = Phone()
    # The claim form offers a name field; whatever is typed, the seat is Alice's.
    new_phone.claim(host.seat_links()["A"], "Alicia", pin="604153")
    assert "You: Alice" in new_phone.text
    assert "This seat is already taken." not in new_phone.text
    assert MatchEvent.objects.filter(match__code=code, kind="SeatClaimed").count() == 2
    assert Seat.objects.get(match__code=code, letter="A").name == "Alice"
    assert csv_row(organizer(), code)["player_a"] == "Alice"
