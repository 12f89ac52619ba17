"""Events group matches; organizers create an event's matches in bulk from a
list of pairings and print one sheet of seat links/QR codes per table."""

import re

import pytest
from django.utils import timezone

from tests.web.organizer_table import text_of
from tests.web.rendered_forms import submit_on
from tests.web.table import claim
from tracker import audit
from tracker.models import Match, MatchEvent, TournamentEvent
from tracker.organizer.forms import parse_pairings

pytestmark = pytest.mark.django_db

PAIRINGS = "Table, Player A, Player B\n1, Alice Arroyo, Bob Bravo\n2; Carla Cruz; Dani Díaz\n3\tEva\tFran\n"


@pytest.fixture
def spring(carol):
    response = carol.post(
        "/organizer/events/", {"name": "Spring Open", "date": "2026-04-18", "location": "Madrid"}
    )
    assert response.status_code == 302
    return TournamentEvent.objects.get(name="Spring Open")


def post_pairings(carol, event, pairings=PAIRINGS, **extra):
    data = {"points_limit": 300, "rounds": 3, "mission": "Supplies", "pairings": pairings}
    data.update(extra)
    return carol.post(f"/organizer/events/{event.pk}/", data)


def test_an_organizer_creates_an_event(spring, carol):
    assert spring.location == "Madrid" and str(spring.date) == "2026-04-18"
    assert "Spring Open" in carol.get("/organizer/events/").content.decode()


def test_an_event_needs_a_name(carol):
    response = carol.post("/organizer/events/", {"name": "", "date": "2026-04-18"})
    assert response.status_code == 400
    assert "This field is required." in response.content.decode()
    assert not TournamentEvent.objects.exists()


def test_pairings_create_one_match_per_table_with_its_players(spring, carol):
    response = post_pairings(carol, spring, event_round=2)
    assert response.status_code == 302
    matches = list(Match.objects.filter(event=spring).order_by("table_number"))
    assert [m.table_number for m in matches] == [1, 2, 3]
    assert {m.event_round for m in matches} == {2}
    listed = [
        tuple(m.seats.order_by("letter").values_list("listed_name", flat=True)) for m in matches
    ]
    assert listed == [("Alice Arroyo", "Bob Bravo"), ("Carla Cruz", "Dani Díaz"), ("Eva", "Fran")]
    for match in matches:
        # The event's name alone: each page adds the round and the table in
        # its reader's language (test_event_match_titles_read_in_each_phones_language).
        assert match.name == "Spring Open"
        assert match.status == Match.Status.SETTING_UP
        rows = list(MatchEvent.objects.filter(match=match).order_by("seq"))
        assert [r.kind for r in rows] == ["MatchCreated"]
        assert f'"table":"{match.table_number}"' in rows[0].data
        assert '"mission":"Supplies"' in rows[0].data
        assert audit.verify_match(match, rows).ok
    text = text_of(carol.get(f"/organizer/events/{spring.pk}/").content.decode())
    assert "Alice Arroyo – Bob Bravo" in text


@pytest.mark.parametrize(
    "pairings, message",
    [
        ("1, Alice", "Line 1: write the table number, then the two players&#x27; names."),
        ("one, Alice, Bob", "Line 1: the table number must be a whole number from 1 to 999."),
        ("1, Alice, Bob\n0, Carla, Dani", "Line 2: the table number must be a whole number"),
        ("1, Alice, Bob\n\n1, Carla, Dani", "Line 3: table 1 is already on line 1."),
        ("1, , Bob", "Line 1: a player&#x27;s name is missing."),
        (
            f"1, {'x' * 61}, Bob",
            "Line 1: a player&#x27;s name is too long (at most 60 characters).",
        ),
        ("\n\n", "This field is required."),
        ("Table, A, B", "Write at least one table."),
    ],
)
def test_bad_pairings_are_explained_line_by_line_and_create_nothing(
    spring, carol, pairings, message
):
    response = post_pairings(carol, spring, pairings=pairings)
    assert response.status_code == 400
    assert message in response.content.decode()
    assert not Match.objects.exists()


def test_one_bad_line_among_good_ones_creates_nothing(spring, carol):
    response = post_pairings(carol, spring, pairings="1, Alice, Bob\n2, Carla")
    assert response.status_code == 400
    assert not Match.objects.exists()


def test_a_table_already_paired_in_the_same_round_is_refused(spring, carol):
    assert post_pairings(carol, spring, event_round=1).status_code == 302
    response = post_pairings(carol, spring, pairings="3, Gil, Hugo\n4, Ines, Juan", event_round=1)
    assert response.status_code == 400
    assert "already has a match at table 3" in response.content.decode()
    assert Match.objects.count() == 3
    assert post_pairings(carol, spring, event_round=2).status_code == 302
    assert Match.objects.count() == 6


def test_out_of_range_settings_are_refused(spring, carol):
    response = post_pairings(carol, spring, points_limit=5000, rounds=0)
    assert response.status_code == 400
    assert not Match.objects.exists()


def test_parse_pairings_accepts_what_spreadsheets_paste():
    pairings, errors = parse_pairings("  1 ;  Ana   María ; Bea \r\n// a comment\n2,Carlos,Dora")
    assert errors == []
    assert [(p.table, p.player_a, p.player_b) for p in pairings] == [
        (1, "Ana María", "Bea"),
        (2, "Carlos", "Dora"),
    ]


def test_seat_sheets_print_one_sheet_per_table_with_both_seat_links(spring, carol):
    post_pairings(carol, spring)
    html = carol.get(f"/organizer/events/{spring.pk}/sheets/").content.decode()
    sheets = re.findall(r'<article class="sheet">.*?</article>', html, re.S)
    assert len(sheets) == 3
    for sheet, match in zip(
        sheets, Match.objects.filter(event=spring).order_by("table_number"), strict=True
    ):
        assert f"Table {match.table_number}" in sheet
        for seat in match.seats.all():
            assert f"/m/{match.code}/s/{seat.token}/" in sheet
            assert seat.listed_name in sheet
        assert sheet.count('src="data:image/svg+xml') == 2


def test_a_claimed_seat_is_printed_as_taken(spring, carol, alice):
    post_pairings(carol, spring, pairings="5, Alice, Bob")
    match = Match.objects.get(event=spring)
    claim(alice, match, "A", "Alice")
    html = carol.get(f"/organizer/matches/{match.code}/sheet/").content.decode()
    assert "Taken by Alice." in html
    assert html.count('src="data:image/svg+xml') == 1
    token_b = match.seats.get(letter="B").token
    assert alice.get(f"/m/{match.code}/s/{token_b}/").status_code == 200  # the link works


def test_sheets_can_be_printed_round_by_round(spring, carol):
    post_pairings(carol, spring, event_round=1)
    post_pairings(carol, spring, pairings="1, Gil, Hugo", event_round=2)
    html = carol.get(f"/organizer/events/{spring.pk}/sheets/", {"round": 2}).content.decode()
    assert html.count('<article class="sheet">') == 1 and "Gil" in html


def test_a_spanish_organizer_creates_an_event_on_the_date_the_form_offers(carol):
    """The date picker's value is ISO in any language: a Spanish 02/12/2026
    is no date to the browser, which shows the required field empty and will
    not send the form."""
    carol.defaults["HTTP_ACCEPT_LANGUAGE"] = "es"
    response = submit_on(carol, "/organizer/events/", "card", name="Torneo de Invierno")
    assert response.status_code == 302
    assert TournamentEvent.objects.get(name="Torneo de Invierno").date == timezone.localdate()
