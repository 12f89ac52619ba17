"""The organizer takes one corrected list from Ana after the lock, and Ana
sends it. The "Take a corrected list" button of a page from before that
(a second laptop's run page, Back, a send tapped again) opened her link for
one more list: she could replace the list the organizer had just taken,
unasked. The button says which list its page showed; from a page behind,
it reopens nothing and says why, in the organizer's language."""

from __future__ import annotations

import pytest

from tests.web.phone import Phone
from tests.web.rendered_forms import submit
from tests.web.test_corrected_list import CORRECTED, _pk
from tests.web.test_event_running import Organizer, list_link_of, submit_through_link
from tracker.models import EventPlayer, TournamentEvent

pytestmark = pytest.mark.django_db

REFUSED = {
    "en": "Ana has handed in a list since this page was shown: nothing reopened. "
    "Check it, then take a corrected list if it still needs one.",
    "es": "Ana ha entregado una lista desde que se mostró esta página: no se ha reabierto "
    "nada. Revísala y, si aún hace falta, acepta una lista corregida.",
}


@pytest.mark.parametrize("lang", ["en", "es"])
def test_a_corrected_list_button_from_before_the_correction_reopens_nothing(carol, lang):
    carol.defaults["HTTP_ACCEPT_LANGUAGE"] = lang
    event = TournamentEvent.objects.create(name="Open")
    org = Organizer(carol, event)
    assert (
        org.submit("/roster/paste/", players="Ana, PanOceania\nBea, Yu Jing\n").status_code == 302
    )
    link = list_link_of(org, "Ana")
    submit_through_link(link, "Ana")
    assert org.submit("/lists/", within=".lock-now").status_code == 302
    behind = org.page()  # also open on the second laptop
    assert submit(carol, behind, "/late-list/", within=f"#list-{_pk('Ana')}").status_code == 302
    ana = Phone(lang)
    ana.visit(link)
    [form] = [f for f in ana.forms() if "text" in f.names()]
    form.fill({"text": CORRECTED})
    ana.send(form)

    response = submit(carol, behind, "/late-list/", within=f"#list-{_pk('Ana')}")
    assert response.status_code == 302
    assert REFUSED[lang] in org.text()
    assert not EventPlayer.objects.get(name="Ana").late_list
    assert not [f for f in Phone(lang).visit_forms(link) if "text" in f.names()]
