"""A pasted army list whose points or Combat Group run to thousands of
digits (a paste gone wrong, or a hostile one) answered 500 with a traceback
in the server's log: Python refuses to read an integer of more than 4,300
digits. Each such line is left out with its reason, as any line out of
range, and the rest of the list is read, on the event's list link and in
a match's draft."""

from __future__ import annotations

import pytest

from tests.web.phone import Phone
from tests.web.table import claim, create_match, error_of
from tests.web.test_event_round_checks import event_of
from tests.web.test_event_running import list_link_of
from tests.web.test_list_import_web import draft_of, paste, shown
from tracker.models import HandedList

pytestmark = pytest.mark.django_db

LONG = "9" * 5000
PASTED = f"""GROUP 1
FUSILIER (Lieutenant) Combi Rifle. (0 | 10)
BOLT Combi Rifle. (0 | {LONG})
GROUP {LONG}
KNIGHT Spitfire. (1.5 | 30)
"""


@pytest.mark.parametrize(
    ("language", "cost", "group"),
    [
        ("en", "Cost must be between 0 and", "Combat group must be between 1 and"),
        ("es", "El coste debe estar entre 0 y", "El grupo de combate debe estar entre 1 y"),
    ],
)
def test_a_list_link_paste_with_a_number_of_thousands_of_digits_says_which_line(
    carol, language, cost, group
):
    _event, org = event_of(carol, "Ana, PanOceania")
    player = Phone(language)
    player.visit(list_link_of(org, "Ana"))
    [form] = [f for f in player.forms() if "text" in f.names()]
    form.fill({"text": PASTED})
    response = player.send(form)
    assert response.status_code < 500
    assert cost in player.text and group in player.text
    assert [row["name"] for row in HandedList.objects.get().rows] == ["Fusilier"]


def test_a_draft_paste_with_a_number_of_thousands_of_digits_says_which_line(alice):
    match = create_match(alice)
    claim(alice, match, "A", "Alice")
    response = paste(alice, match, PASTED)
    assert response.status_code < 500
    assert error_of(response) is None
    assert "Cost must be between 0 and" in shown(response)
    assert [row["name"] for row in draft_of(match)] == ["Fusilier"]
