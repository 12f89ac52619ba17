"""A Spanish phone's list is locked with "Cerrar mi lista" and shows "Lista
cerrada" afterwards: the warning of a list over the points limit said to
remove troopers "antes de bloquear", a verb no button of the phone uses, and
the organizer's event page said the handed lists stay private "hasta que se
bloquean". Both now say cerrar, as the button does."""

from __future__ import annotations

import pytest

from tests.rules.test_army_text import TWO_GROUPS
from tests.web.table import claim, create_match
from tests.web.test_list_import_web import page, paste, shown
from tracker.models import HandedList, TournamentEvent

pytestmark = pytest.mark.django_db


def test_the_over_the_limit_warning_names_the_buttons_verb(alice):
    match = create_match(alice, points=150)
    claim(alice, match, "A", "Alice")
    alice.cookies["django_language"] = "es"
    text = shown(paste(alice, match, TWO_GROUPS))
    assert "Cerrar mi lista" in page(alice, match)
    assert "quita tropas antes de cerrar la lista." in text
    assert "bloque" not in text


def test_the_event_page_says_the_lists_stay_private_until_locked_with_the_same_verb(carol):
    event = TournamentEvent.objects.create(name="Liga")
    HandedList.objects.create(
        event=event,
        player="Ana",
        player_key=HandedList.key("Ana"),
        rows=[{"name": "Bolt", "cost": 15, "combat_group": 1}],
    )
    carol.cookies["django_language"] = "es"
    text = shown(carol.get(f"/organizer/events/{event.pk}/"))
    assert "hasta que se cierran en una partida" in text
    assert "bloque" not in text
