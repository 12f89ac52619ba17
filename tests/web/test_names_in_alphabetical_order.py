"""A roster is read in alphabetical order as a Spanish venue reads it:
"Álvaro" among the A's, "Óscar" among the O's, "zoe" among the Z's. The
names were ordered by their bytes (the database's order, and Python's
casefold for the standings' ties), which put every name starting with an
accented capital after "Z": at a venue with "Álvaro Ibáñez" on the roster
the organizer found him last on the run page, last among equal players in
the standings (run page and public page) and last among the lists handed
in. The order folds case and accents, as the roster's key already does."""

from __future__ import annotations

import pytest
from bs4 import BeautifulSoup

from tests.web.test_event_round_checks import event_of
from tests.web.test_event_running import list_link_of, roster_names, submit_through_link

pytestmark = pytest.mark.django_db

PASTE = "Peter O'Brien, Ariadna\nzoe, Nomads\nÓscar Ruiz, Aleph\nÁlvaro Ibáñez, Haqqislam\nAnn Lee, Tohaa\n"
ALPHABETICAL = ["Álvaro Ibáñez", "Ann Lee", "Óscar Ruiz", "Peter O'Brien", "zoe"]


def names_in(html: str, selector: str) -> list[str]:
    soup = BeautifulSoup(html, "lxml")
    return [node.get_text(" ", strip=True) for node in soup.select(selector)]


def test_the_roster_and_the_tied_standings_are_in_alphabetical_order(carol, client):
    event, org = event_of(carol, PASTE)
    assert roster_names(org) == ALPHABETICAL
    # Nothing played: every player is tied, and ties read by name.
    assert names_in(org.page(), "#standings tbody td.name") == ALPHABETICAL
    public = client.get(f"/e/{event.pk}/")
    assert names_in(public.content.decode(), "table.standings tbody td.name") == ALPHABETICAL


def test_the_lists_handed_in_are_in_alphabetical_order(carol):
    event, org = event_of(carol, PASTE)
    for name in ("Peter O'Brien", "Álvaro Ibáñez", "Ann Lee"):
        submit_through_link(list_link_of(org, name), name)
    page = carol.get(f"/organizer/events/{event.pk}/").content.decode()
    handed = [text.split(" · ")[0] for text in names_in(page, "#handed-lists summary")]
    assert handed == ["Álvaro Ibáñez", "Ann Lee", "Peter O'Brien"]
