"""An organizer hands a seat to a new phone (the player's phone died); the
player claims the new link on her new phone and plays on. The "Hand seat A
to a new phone" button of a page from before that (the seat sheet open on a
second laptop, Back, a send tapped again after a stalled answer) handed the
seat off once more: the player's new phone lost the seat mid-match and a
new link she never saw replaced hers. The button says which holder its page
showed; from a page behind, it is refused, said in the organizer's
language, and the seat stays where it is."""

from __future__ import annotations

import pytest
from bs4 import BeautifulSoup

from tests.web.phone import Phone
from tests.web.rendered_forms import submit
from tests.web.test_event_running import seat_phone
from tests.web.test_table_without_result import round_one_of_two_tables
from tracker.models import Seat

pytestmark = pytest.mark.django_db

REFUSED = {
    "en": "Seat A changed since this page was shown (handed to a new phone, or taken "
    "on one): nothing changed. Check it, then hand it over if it still needs it.",
    "es": "El asiento A ha cambiado desde que se mostró esta página (se pasó a un móvil "
    "nuevo o se ocupó en uno): no ha cambiado nada. Revísalo y, si aún hace falta, pásalo.",
}


def words(response) -> str:
    return " ".join(BeautifulSoup(response.content.decode(), "lxml").get_text(" ").split())


@pytest.mark.parametrize("lang", ["en", "es"])
def test_a_hand_off_from_a_sheet_behind_leaves_the_new_phone_its_seat(carol, lang):
    _org, (first, _second) = round_one_of_two_tables(carol)
    carol.defaults["HTTP_ACCEPT_LANGUAGE"] = lang
    seat_phone(carol, first, "A")  # the phone that dies
    sheet_url = f"/organizer/matches/{first.code}/sheet/"
    behind = carol.get(sheet_url).content.decode()  # also open on the second laptop
    assert submit(carol, behind, "/hand-off/A/").status_code == 302
    seat = Seat.objects.get(match=first, letter="A")
    link = f"/m/{first.code}/s/{seat.token}/"
    assert link in carol.get(sheet_url).content.decode()
    new_phone = Phone(lang)
    new_phone.claim(link, seat.listed_name, pin="582914")

    response = submit(carol, behind, "/hand-off/A/")
    assert REFUSED[lang] in words(
        carol.get(response.url) if response.status_code == 302 else response
    )
    held = Seat.objects.get(match=first, letter="A")
    assert held.token == seat.token and held.claimed
    new_phone.open()
    assert new_phone.can("draft/add")  # still hers: her draft is open to her
