"""A trooper row is a State button only for a player in play: its memo key
(tracker_tags.trooper_row_key) holds whether it is, and the row is rendered
from that key, so a key that left the phase out would offer State taps
during deployment, which the server refuses."""

import pytest

from .phone import Phone
from .phone_flows import set_up, started

pytestmark = pytest.mark.django_db


def buttons(phone: Phone) -> int:
    return len(phone.soup.select("li.trooper button.name"))


def test_rows_are_state_buttons_in_play_only_and_never_for_a_spectator():
    a, b = set_up()
    a.open()
    assert buttons(a) == 0 and a.soup.select("li.trooper span.name")
    a, b, _ids = started()
    a.open()
    assert buttons(a) > 0
    spectator = Phone()
    spectator.open(a.code)
    assert buttons(spectator) == 0 and spectator.soup.select("li.trooper span.name")
