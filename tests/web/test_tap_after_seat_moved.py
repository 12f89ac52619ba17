"""A tap from a phone whose seat moved away while it slept (issue 18: the
phone's Wi-Fi stalls, the player goes on with another phone).

Alice moves her seat to a new phone with her PIN. Her old phone, asleep, still
shows her page; woken, she taps on it before its socket has told it. The tap
is refused (403), and htmx swaps no 403: the tap did nothing at all. Now the
answer has the page loaded again (HX-Refresh), as what it now is, a
spectator's, with why atop it, in the phone's language.
"""

from __future__ import annotations

import pytest
from bs4 import BeautifulSoup

from tracker.models import Match

from .phone import Phone, PhoneError
from .phone_flows import seated
from .test_seat_ownership import move_here, seat_path

pytestmark = pytest.mark.django_db

WHY = {
    "en": "This phone holds no seat in this match, so it only watches",
    "es": "Este móvil no ocupa ningún asiento en esta partida, así que solo mira",
}


@pytest.mark.parametrize("language", ["es", "en"])
def test_a_tap_on_a_phone_whose_seat_moved_away_loads_its_page_again_saying_why(language):
    old, _bob = seated(language, "en")
    old.open()
    old_page = old.html  # what the sleeping phone still shows
    tap = old.form("draft/add")
    tap.fill({"name": "Kaplan", "cost": "20"})
    new = Phone(language)
    move_here(new, seat_path(old.code, "A"), "739164")  # seated's PIN
    new.open()
    assert new.forms("draft/add"), "the new phone holds the seat"

    with pytest.raises(PhoneError, match="403"):
        old.send(tap, reload=False)
    answer = old.last
    assert answer.headers.get("HX-Refresh") == "true"  # htmx loads the page again
    assert Match.objects.get(code=old.code).seats.get(letter="A").draft == []
    # The page loaded again: the spectator's, with why atop it.
    page = old.open()
    assert WHY[language] in " ".join(page.text.split())
    assert old.forms("draft/add") == [] and old_page != old.html
    # Said once: the next load of the page is the plain spectator's.
    assert WHY[language] not in " ".join(old.open().text.split())
    # The new phone holds the seat and its tap lands.
    new.open()
    new.submit("draft/add", name="Kaplan", cost="20")
    assert new.error is None
    assert "Kaplan" in BeautifulSoup(new.html, "lxml").get_text()
