"""A seat's PIN is hashed for what it is (issue 18: a round starts with every
table at once; tracker/seats.py, _pin_hash).

The claim form offers a PIN the server drew. Kept as drawn, it is used
nowhere else, and its hash is stretched 10,000 rounds (a few milliseconds)
instead of Django's million (about half a second of a core, which 300
claims at a round's start would turn into minutes of CPU while every table
waited). A PIN its player typed may be one they use elsewhere: it keeps the
full stretching. Either way the PIN moves the seat to a new phone.
"""

from __future__ import annotations

from urllib.parse import urlparse

import pytest
from django.contrib.auth.hashers import PBKDF2PasswordHasher

from tracker.models import Seat

from .phone import Phone

pytestmark = pytest.mark.django_db

FULL = PBKDF2PasswordHasher.iterations


def rounds_of(pin_hash: str) -> int:
    algorithm, rounds, _salt, _hash = pin_hash.split("$")
    assert algorithm == "pbkdf2_sha256"
    return int(rounds)


def claim_form(phone: Phone, link: str):
    phone.visit(urlparse(link).path)
    [form] = [f for f in phone.forms() if "pin" in f.names()]
    return form


def drawn_pin(form) -> str:
    """The PIN the form offers, as the page shows it."""
    [field] = form.node.select('input[name="pin"]')
    return field["value"]


def seat(host: Phone, letter: str) -> Seat:
    return Seat.objects.get(match__code=host.code, letter=letter)


def holds_a_seat(phone: Phone, code: str) -> bool:
    """The match page offers this phone its own army list's form."""
    phone.open(code)
    return phone.can("draft/add")


def moved_with(link: str, pin: str, language: str) -> Phone:
    """A new phone opens the taken seat's link and sends the PIN form."""
    phone = Phone(language)
    phone.visit(urlparse(link).path)
    [form] = [f for f in phone.forms() if "pin" in f.names()]
    form.fill({"pin": pin})
    phone.send(form)
    return phone


@pytest.mark.parametrize("language", ["en", "es"])
def test_a_drawn_pin_kept_is_hashed_lightly_and_still_moves_the_seat(language):
    host = Phone(language)
    links = host.create_match(name="Mesa 1")
    player = Phone(language)
    form = claim_form(player, links["A"])
    pin = drawn_pin(form)
    assert len(pin) == 6 and pin.isdigit()
    form.fill({"name": "Alicia"})  # the PIN as drawn
    player.send(form)
    assert player.error in (None, "")
    assert rounds_of(seat(host, "A").pin_hash) == 10_000
    # A wrong PIN still does not move it; the drawn one does.
    wrong = f"{(int(pin) + 1) % 10**6:06d}"
    assert moved_with(links["A"], wrong, language).error not in (None, "")
    new_phone = moved_with(links["A"], pin, language)
    assert new_phone.error in (None, "")
    assert holds_a_seat(new_phone, host.code) and not holds_a_seat(player, host.code)


def test_a_pin_its_player_typed_keeps_the_full_stretching_and_moves_the_seat():
    host = Phone("en")
    links = host.create_match(name="Table 2")
    player = Phone("es")
    form = claim_form(player, links["B"])
    form.fill({"name": "Bruno", "pin": "73916482"})
    player.send(form)
    assert player.error in (None, "")
    assert rounds_of(seat(host, "B").pin_hash) == FULL
    assert moved_with(links["B"], "73916482", "es").error in (None, "")


def test_a_pin_drawn_for_another_browser_is_no_drawn_pin_here():
    """Only the PIN this browser was offered counts as drawn: another
    browser's, typed here, is a PIN its player chose."""
    host = Phone("en")
    links = host.create_match(name="Table 3")
    onlooker = Phone("en")
    offered_elsewhere = drawn_pin(claim_form(onlooker, links["A"]))
    player = Phone("en")
    form = claim_form(player, links["A"])
    while drawn_pin(form) == offered_elsewhere:  # one chance in a million
        form = claim_form(player, links["A"])
    form.fill({"name": "Ana", "pin": offered_elsewhere})
    player.send(form)
    assert player.error in (None, "")
    assert rounds_of(seat(host, "A").pin_hash) == FULL
