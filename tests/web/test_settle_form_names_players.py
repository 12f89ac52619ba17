"""The organizer's ruling names each seat's player beside its letter, as the
players' own result form does: "Objective points, Ana Arroyo (seat A)". It
read "seat A" only, while the table's sheet, the audit page's header and the
players say names, so an organizer settling a table could put one player's
points in the other's field. A table whose seats were never taken names
the players of the pairings. In the organizer's language."""

from __future__ import annotations

import pytest
from bs4 import BeautifulSoup

from tests.web.test_event_running import seat_phone
from tests.web.test_table_without_result import audit_of, round_one_of_two_tables

pytestmark = pytest.mark.django_db

LABELS = {
    "en": ("Objective points, {name} (seat {seat})", "Army points alive, {name} (seat {seat})"),
    "es": (
        "Puntos de Objetivo, {name} (asiento {seat})",
        "Puntos de ejército supervivientes, {name} (asiento {seat})",
    ),
}


def settle_labels(html: str) -> dict[str, str]:
    soup = BeautifulSoup(html, "lxml")
    labels = {}
    # Each field sits in its label (organizer/_form_fields.html): the
    # label's own words, its field's id.
    for label in soup.select("#settle form label"):
        field = label.find(["input", "select", "textarea"])
        if field is not None:
            words = "".join(text for text in label.find_all(string=True, recursive=False))
            labels[field["id"].removeprefix("id_")] = " ".join(words.split()).rstrip(":")
    return labels


@pytest.mark.parametrize("lang", ["en", "es"])
def test_the_ruling_names_each_seats_player(carol, lang):
    org, (first, second) = round_one_of_two_tables(carol)
    seat_phone(carol, first, "A"), seat_phone(carol, first, "B")  # table 1 sits; 2 never does
    assert org.submit("/clock/call/").status_code == 302
    carol.defaults["HTTP_ACCEPT_LANGUAGE"] = lang
    objective, army = LABELS[lang]
    for match in (first, second):
        names = {seat.letter: seat.name or seat.listed_name for seat in match.seats.all()}
        assert all(names.values())
        labels = settle_labels(audit_of(org, match))
        for letter in "AB":
            seat = letter.lower()
            words = {"name": names[letter], "seat": letter}
            assert labels[f"objective_{seat}"] == objective.format(**words)
            assert labels[f"army_{seat}"] == army.format(**words)
