"""An organizer's ruling typed on an audit page that is behind the table:
the players moved the result on meanwhile (a new proposal, a second dispute
with its own reason), and the ruling replaced it unseen, settling numbers
against a dispute nobody had read to the organizer. A ruling says which
result its page showed; one from a page behind is refused with the page
shown again (the result as it is now), everything typed kept, and the next
send from that page is taken. Through the rendered forms only."""

from __future__ import annotations

import pytest
from bs4 import BeautifulSoup

from tests.web.rendered_forms import fields_of, submit
from tests.web.test_event_round_checks import all_lists_in, event_of, publish
from tests.web.test_event_running import ok, pairings_of, play_table
from tests.web.test_table_without_result import audit_of
from tracker.models import Match

pytestmark = pytest.mark.django_db

PLAYERS = "Ana Arroyo, PanOceania\nBea Blanco, Yu Jing\n"
REFUSED = {
    "en": "The result changed since this page was shown: check it, then rule.",
    "es": "El resultado ha cambiado desde que se mostró esta página: revísalo y luego decide.",
}
RULING = {
    "objective_a": "6",
    "objective_b": "3",
    "army_a": "25",
    "army_b": "10",
    "reason": "Judge's ruling",
}


def disputed_table(carol):
    event, org = event_of(carol, PLAYERS)
    all_lists_in(org, ["Ana Arroyo", "Bea Blanco"])
    publish(org, seed=7)
    [(_table, match, name_a, _name_b)] = pairings_of(event, 1)
    a, b = play_table(carol, match, name_a, (7, 2, 25, 10), dispute=True)
    return org, match, a, b


def refused_keeping_what_was_typed(carol, page: str, lang: str) -> str:
    response = submit(carol, page, "/settle/", **RULING)
    assert response.status_code == 400
    html = response.content.decode()
    settle = BeautifulSoup(html, "lxml").select_one("#settle")
    assert REFUSED[lang] in " ".join(settle.get_text(" ").split())
    form = settle.select_one("form.settle-form")
    assert {k: v for k, v in fields_of(form).items() if k in RULING} == {
        k: [v] for k, v in RULING.items()
    }
    return html


@pytest.mark.parametrize("lang", ["en", "es"])
def test_a_ruling_on_a_dispute_the_players_replaced_is_refused_until_read(carol, lang):
    org, match, a, b = disputed_table(carol)
    carol.defaults["HTTP_ACCEPT_LANGUAGE"] = lang
    page = audit_of(org, match)  # the first dispute, 7–2
    ok(b, "ProposeResult", objective_a=5, objective_b=5, army_a=20, army_b=20)
    ok(a, "DisputeResult", reason="I held both consoles")
    shown_again = refused_keeping_what_was_typed(carol, page, lang)
    assert "I held both consoles" in shown_again  # the dispute of now, read
    match.refresh_from_db()
    assert match.result["status"] == "disputed" and match.status != Match.Status.FINISHED
    # Ruled again from the page that showed the second dispute: taken.
    assert submit(carol, shown_again, "/settle/", **RULING).status_code == 302
    match.refresh_from_db()
    assert match.result["status"] == "settled"
    assert match.result["objective_points"] == {"A": 6, "B": 3}


def test_a_ruling_at_time_called_over_a_proposal_it_never_showed_is_refused(carol):
    org, match, _a, b = disputed_table(carol)
    page = audit_of(org, match)  # the dispute
    ok(b, "ProposeResult", objective_a=5, objective_b=5, army_a=20, army_b=20)
    assert org.submit("/clock/call/").status_code == 302
    refused_keeping_what_was_typed(carol, page, "en")
    match.refresh_from_db()
    assert match.result["status"] == "proposed"
    assert match.result["objective_points"] == {"A": 5, "B": 5}
