"""The organizer's printed seat sheet shows a seat's link and QR code only
while the seat is free (issue 20): a taken seat's sheet says who took it,
and a sheet left on the table gives a passer-by no code to scan."""

import pytest

from .table import claim, create_match

pytestmark = pytest.mark.django_db


def test_a_taken_seat_has_no_code_on_the_sheet(alice, carol):
    match = create_match(alice)
    claim(alice, match, "A", "Alice")
    sheet = carol.get(f"/organizer/matches/{match.code}/sheet/").content.decode()
    assert sheet.count('class="qr"') == 1  # seat B's, still free
    assert match.seats.get(letter="A").token not in sheet
    assert match.seats.get(letter="B").token in sheet
    assert "Taken by Alice." in sheet
