"""Taking a late list (issue 21) is for a player who has none: for one who
has already submitted, the organizer is told so and nothing changes, even
by a post the run page never renders for them."""

import pytest

from tests.web.test_event_running import Organizer, list_link_of, submit_through_link
from tracker.models import EventPlayer, TournamentEvent

pytestmark = pytest.mark.django_db


def test_attack_a_late_list_is_not_taken_for_a_player_who_submitted(carol):
    event = TournamentEvent.objects.create(name="Spring Open")
    org = Organizer(carol, event)
    assert org.submit("/roster/paste/", players="Ana, PanOceania\nBea, Yu Jing\n")
    submit_through_link(list_link_of(org, "Ana"), "Ana")
    assert org.submit("/lists/", within=".lock-now").status_code == 302
    ana = EventPlayer.objects.get(event=event, name="Ana")
    response = carol.post(f"/organizer/events/{event.pk}/roster/{ana.pk}/late-list/")
    assert response.status_code == 302
    assert "Ana has already submitted a list." in org.text()
    ana.refresh_from_db()
    assert ana.late_list is False
