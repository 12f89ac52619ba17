"""A pasted army list reaches the draft, and a handed list the player's other
matches, as it was pasted and edited: no trait the paste carried is lost to
a suggestion, no column to the hand-in, and a paste longer than the reader
takes is refused whole rather than cut short. Each action goes through the
form the player's page renders."""

from __future__ import annotations

import json

import pytest
from bs4 import BeautifulSoup

from tests.rules.test_army_text import TWO_GROUPS
from tests.web.rendered_forms import submit
from tests.web.table import claim, create_match, error_of
from tests.web.test_list_import_web import draft_of, page, paste, round_of, shown
from tracker.army_text import MAX_TEXT
from tracker.models import TournamentEvent
from tracker.rules.state import (
    CAMOUFLAGE,
    HIDDEN_DEPLOYMENT,
    INFILTRATION,
    LIEUTENANT_CANDIDATE,
)

pytestmark = pytest.mark.django_db


def pasted_after_an_earlier_list(bob, alice, name: str, traits: list[str]) -> dict:
    """Bob locks a list of one `name` with `traits` on this server; then
    Alice pastes TWO_GROUPS. Her draft's row of `name`."""
    earlier = create_match(bob)
    claim(bob, earlier, "A", "Bob")
    response = submit(
        bob, page(bob, earlier), "/draft/add/", name=name, cost=30, silhouette=2, traits=traits
    )
    assert error_of(response) is None
    assert error_of(submit(bob, page(bob, earlier), "/act/LockArmyList/")) is None
    match = create_match(alice)
    claim(alice, match, "A", "Alice")
    assert error_of(paste(alice, match, TWO_GROUPS)) is None
    return next(row for row in draft_of(match) if row["name"] == name)


def test_a_suggestion_adds_to_the_traits_the_paste_carried_never_replaces_them(alice, bob):
    # An earlier locked list on this server: a Croc Men with Camouflage and
    # Infiltration, and no Hidden Deployment.
    croc = pasted_after_an_earlier_list(bob, alice, "Croc Men", [CAMOUFLAGE, INFILTRATION])
    # The paste says "(Hidden Deployment, Camouflage)": a suggestion that took
    # the place of the pasted options would drop Hidden Deployment unseen.
    assert croc["suggested"]
    assert croc["traits"] == sorted([HIDDEN_DEPLOYMENT, CAMOUFLAGE, INFILTRATION])


def test_another_players_lieutenant_is_never_suggested(alice, bob):
    # Bob's locked list made his Fusilier a Lieutenant candidate. The option
    # is in each pasted text and differs per list: suggested, it would make
    # Alice's plain Fusilier a candidate she never chose.
    fusilier = pasted_after_an_earlier_list(
        bob, alice, "Fusilier", [LIEUTENANT_CANDIDATE, INFILTRATION]
    )
    assert fusilier["suggested"] and fusilier["traits"] == [INFILTRATION]


def test_a_refused_paste_stays_in_the_box_as_it_was_pasted(alice):
    # The refusal lists the lines it could not read, quoting each: that is
    # not the paste. The box itself must hold it, so the player fixes a line
    # instead of copying the list from the builder again.
    match = create_match(alice)
    claim(alice, match, "A", "Alice")
    text = "Haqqislam\nHASSASSIN AYYAR Rifle 0 23\nFIDAI (Impersonation) Rifle. 0 | 16\n"
    response = paste(alice, match, text)
    assert error_of(response).startswith("Nothing was imported")
    form = BeautifulSoup(response.content.decode(), "lxml").select_one("form.import-form")
    assert form.select_one("textarea[name=text]").get_text() == text


def test_a_paste_longer_than_the_reader_takes_is_refused_whole_not_cut(alice):
    """The box says maxlength 20000, but a browser counts a line break once
    and sends it as CR LF, and an old page or a script sends what it likes:
    the server can get more. Cut to the limit, the paste would import without
    its last troopers and say nothing of them; it is refused whole, and the
    text (up to the limit) stays in the box to be shortened."""
    match = create_match(alice)
    claim(alice, match, "A", "Alice")
    padding = "\n" * (MAX_TEXT - len(TWO_GROUPS) - 10)
    text = TWO_GROUPS + padding + "ZOUAVE Rifle / Pistol. (0 | 11)\n"
    assert len(text) > MAX_TEXT + 1
    response = paste(alice, match, text)
    assert error_of(response).startswith("Nothing was imported")
    assert "The pasted text is too long (at most 20000 characters)." in shown(response)
    assert draft_of(match) == []
    assert "KNIGHT OF MONTESA (Lieutenant) Spitfire" in response.content.decode()


def test_a_paste_that_fits_the_box_is_read_though_the_browser_sends_its_line_breaks_as_cr_lf(
    alice,
):
    """The box's maxlength counts a line break once; the browser sends it
    as CR LF. A list that filled the box was refused as too long."""
    match = create_match(alice)
    claim(alice, match, "A", "Alice")
    padding = "\n" * (MAX_TEXT - len(TWO_GROUPS) - 40)
    text = TWO_GROUPS + padding + "ZOUAVE Rifle / Pistol. (0 | 11)\n"
    assert len(text) <= MAX_TEXT < len(text.replace("\n", "\r\n"))
    response = paste(alice, match, text.replace("\n", "\r\n"))
    assert error_of(response) is None
    assert "Imported 9 troopers (234 points)." in shown(response)
    assert [row["name"] for row in draft_of(match)][-1] == "Zouave"


def test_a_handed_list_starts_the_next_round_with_every_column_the_player_set(alice, bob, carol):
    """Names alone agreeing is not enough: the points, groups, silhouettes and
    traits (Hidden Deployment, the Lieutenant option) the player set in one
    match are the list the organizer holds and every other round starts with."""
    event = TournamentEvent.objects.create(name="Spring Open")
    round_1 = round_of(carol, event, 1, "1, Alice, Bob")
    round_2 = round_of(carol, event, 2, "1, Bob, Alice")
    match = round_1[1]
    claim(alice, match, "A", "Alice")
    assert error_of(paste(alice, match, TWO_GROUPS)) is None
    croc = next(row for row in draft_of(match) if row["name"] == "Croc Men")
    response = submit(
        alice,
        page(alice, match),
        "/draft/edit/",
        within=f"#draft-{croc['id']}",
        silhouette=3,
        traits=[HIDDEN_DEPLOYMENT, CAMOUFLAGE, INFILTRATION],
    )
    assert error_of(response) is None
    assert error_of(submit(alice, page(alice, match), "/draft/hand/")) is None

    columns = ("name", "cost", "combat_group", "silhouette", "traits")
    handed = [{key: row[key] for key in columns} for row in draft_of(match)]
    assert {"name": "Croc Men", "cost": 30, "combat_group": 1, "silhouette": 3} | {
        "traits": sorted([HIDDEN_DEPLOYMENT, CAMOUFLAGE, INFILTRATION])
    } in handed
    claim(alice, round_2[1], "B", "Alice")  # Alice is B in round 2
    started = draft_of(round_2[1], "B")
    assert [{key: row.get(key) for key in columns} for row in started] == handed


def test_a_nul_in_a_paste_never_reaches_the_stored_draft(alice):
    # A clipboard can carry U+0000; PostgreSQL refuses it in jsonb (the seat's
    # draft), so the import would be a 500 there. SQLite stores it: checked in
    # what the database holds, so a SQLite run catches it too.
    match = create_match(alice)
    claim(alice, match, "A", "Alice")
    text = TWO_GROUPS.replace("KNIGHT OF MONTESA", "KNIGHT\x00 OF MONTESA")
    assert error_of(paste(alice, match, text)) is None
    draft = draft_of(match)
    assert draft[0]["name"] == "Knight Of Montesa" and len(draft) == 8
    assert "\\u0000" not in json.dumps(draft)
