"""A player pastes her army list into her private list link and sends it
just after the lists lock (the organizer's "Lock the lists now", or the
deadline, landed while she was pasting): the page said the lists are
locked and showed no box, her pasted list gone with it. What she sent is
shown again, read-only, to copy (for the organizer's late list, or her
match's draft), in her language."""

from __future__ import annotations

import pytest

from tests.web.phone import Phone
from tests.web.test_event_round_checks import event_of
from tests.web.test_event_running import ARMY, list_link_of
from tracker.models import HandedList

pytestmark = pytest.mark.django_db

SAID = {
    "en": (
        "The army lists of this event are locked.",
        "What you sent was not taken; it is below, to copy.",
    ),
    "es": (
        "Las listas de ejército de este evento están cerradas.",
        "Lo que enviaste no se ha entregado; está debajo, para copiarlo.",
    ),
}


@pytest.mark.parametrize("language", ["en", "es"])
def test_a_list_sent_just_after_the_lock_is_shown_back_to_copy(carol, language):
    _event, org = event_of(carol, "Ana, PanOceania")
    player = Phone(language)
    player.visit(list_link_of(org, "Ana"))
    [form] = [f for f in player.forms() if "text" in f.names()]
    form.fill({"text": ARMY})
    assert org.submit("/lists/", within=".lock-now").status_code == 302
    player.send(form)
    for words in SAID[language]:
        assert player.text.count(words) == 1  # once: the page's line, no message beside it
    [kept] = player.soup.select("textarea")
    assert kept.has_attr("readonly")
    assert kept.get_text().strip() == ARMY.strip()
    assert not [f for f in player.forms() if "text" in f.names()]  # nothing to send
    assert not HandedList.objects.exists()
