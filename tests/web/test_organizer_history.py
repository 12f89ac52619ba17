"""Match history: every match with event, table, players, date, status and
result; filters; pagination; a fixed number of queries for 1,000 matches."""

import datetime as dt
import re

import pytest
from django.utils import timezone

from tests.web.organizer_table import text_of
from tracker.models import Match, Seat, TournamentEvent

pytestmark = pytest.mark.django_db

STATUSES = [s for s, _label in Match.Status.choices]


def bulk_matches(count: int, event=None, start=None, day_step=0) -> list[Match]:
    """Match rows and their seats only (no log): enough for the list page."""
    start = start or timezone.now()
    matches = Match.objects.bulk_create(
        [
            Match(
                name=f"Game {i}",
                event=event if i % 2 == 0 else None,
                event_round=1 + i % 3 if event and i % 2 == 0 else None,
                table_number=i % 40 + 1,
                status=STATUSES[i % 4],
                created_at=start - dt.timedelta(days=day_step * i, minutes=i),
                result={
                    "status": "confirmed",
                    "objective_points": {"A": i % 11, "B": 10 - i % 11},
                    "army_points": {"A": 100, "B": 50},
                }
                if STATUSES[i % 4] == "finished"
                else None,
            )
            for i in range(count)
        ]
    )
    Seat.objects.bulk_create(
        [
            Seat(match=m, letter=letter, name=f"{letter}-player-{m.name.split()[1]}")
            for m in matches
            for letter in "AB"
        ]
    )
    return matches


def rows(html: str) -> list[str]:
    body = re.search(r"<tbody>(.*?)</tbody>", html, re.S).group(1)
    return re.findall(r"<tr class=.*?</tr>", body, re.S)


def test_the_list_page_stays_under_a_fixed_number_of_queries_for_1000_matches(
    carol, django_assert_max_num_queries
):
    event = TournamentEvent.objects.create(name="Spring Open")
    bulk_matches(1000, event=event)
    with django_assert_max_num_queries(9):
        response = carol.get("/organizer/")
    assert response.status_code == 200
    assert len(rows(response.content.decode())) == 50
    assert "1000 matches" in text_of(response.content.decode())
    with django_assert_max_num_queries(9):
        response = carol.get(
            "/organizer/",
            {"event": event.pk, "player": "player-1", "status": "finished", "page": 2},
        )
    assert response.status_code == 200
    with django_assert_max_num_queries(9):
        assert carol.get("/organizer/", {"page": 20}).status_code == 200


def test_the_query_count_does_not_grow_with_the_number_of_matches(carol, django_assert_num_queries):
    bulk_matches(60)
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    with CaptureQueriesContext(connection) as few:
        response = carol.get("/organizer/")
    # The list itself, not a redirect to the login page (which would also
    # cost the same few queries twice).
    assert response.status_code == 200
    assert len(rows(response.content.decode())) == 50
    assert "60 matches" in text_of(response.content.decode())
    bulk_matches(900)
    with django_assert_num_queries(len(few.captured_queries)):
        response = carol.get("/organizer/")
    assert response.status_code == 200
    assert len(rows(response.content.decode())) == 50
    assert "960 matches" in text_of(response.content.decode())


def test_each_row_shows_event_table_players_date_status_and_result(carol):
    event = TournamentEvent.objects.create(name="Spring Open")
    match = bulk_matches(1, event=event)[0]
    result = {"status": "confirmed", "objective_points": {"A": 0, "B": 10}}
    result["army_points"] = {"A": 100, "B": 50}
    Match.objects.filter(pk=match.pk).update(status="finished", result=result)
    text = text_of(carol.get("/organizer/").content.decode())
    assert "Spring Open" in text and "R1" in text
    assert "A-player-0 – B-player-0" in text
    assert timezone.localtime(match.created_at).strftime("%Y-%m-%d %H:%M") in text
    assert "finished" in text
    assert "0–10 OP · 100–50 VP" in text


def test_filter_by_event_player_date_and_status(carol):
    spring = TournamentEvent.objects.create(name="Spring Open")
    now = timezone.now()
    bulk_matches(30, event=spring, start=now, day_step=1)

    def names(**params):
        html = carol.get("/organizer/", params).content.decode()
        return set(re.findall(r"A-player-(\d+)", html))

    assert names(event=spring.pk) == {str(i) for i in range(0, 30, 2)}
    assert names(event="none") == {str(i) for i in range(1, 30, 2)}
    assert names(player="B-PLAYER-17") == {"17"}  # case-insensitive, either seat
    assert names(status="disputed") == {str(i) for i in range(3, 30, 4)}
    today = timezone.localdate(now)
    in_range = names(date_from=str(today - dt.timedelta(days=4)), date_to=str(today))
    assert {"0", "1", "2", "3"} <= in_range and "6" not in in_range


def test_filter_also_finds_names_from_the_pairings(carol):
    match = bulk_matches(1)[0]
    Seat.objects.filter(match=match, letter="A").update(name="", listed_name="Íñigo Pérez")
    html = carol.get("/organizer/", {"player": "íñigo"}).content.decode()
    assert "Íñigo Pérez" in html


def test_bad_filters_are_explained_and_ignored(carol):
    bulk_matches(3)
    response = carol.get(
        "/organizer/",
        {"date_from": "2026-05-02", "date_to": "2026-05-01", "status": "bogus", "event": "x"},
    )
    assert response.status_code == 200
    text = text_of(response.content.decode())
    assert "The end date is before the start date." in text
    assert "Select a valid choice." in text


@pytest.mark.parametrize(
    ("zone", "query"),
    [("Europe/Madrid", {"date_to": "9999-12-31"}), ("Asia/Tokyo", {"date_from": "0001-01-01"})],
)
def test_attack_the_last_and_first_days_a_date_has_keep_every_match(carol, settings, zone, query):
    """ "To" 9999-12-31: the day after it was an OverflowError; "From"
    0001-01-01 east of UTC: its midnight is before UTC's first day. Each a
    500 with its traceback. Nothing is later, or earlier: every match is
    listed."""
    settings.TIME_ZONE = zone
    bulk_matches(3)
    carol.raise_request_exception = False
    response = carol.get("/organizer/", query)
    assert response.status_code == 200
    assert len(set(re.findall(r"A-player-(\d+)", response.content.decode()))) == 3


def test_pages_hold_50_matches_newest_first_and_keep_the_filters(carol):
    bulk_matches(120)
    html = carol.get("/organizer/", {"status": "setting_up"}).content.decode()
    assert len(rows(html)) == 30
    html = carol.get("/organizer/").content.decode()
    assert "Page 1 of 3" in text_of(html)
    first = rows(html)[0]
    assert "A-player-0 " in text_of(first) or "A-player-0<" in first
    html = carol.get("/organizer/", {"page": 3, "status": ""}).content.decode()
    assert len(rows(html)) == 20
    assert "status=&amp;page=2" in html
    assert carol.get("/organizer/", {"page": "999"}).status_code == 200  # last page


def test_disputed_matches_are_flagged_for_the_organizer(carol):
    bulk_matches(8)
    text = text_of(carol.get("/organizer/").content.decode())
    assert "2 disputed matches wait for you." in text


@pytest.mark.parametrize(
    ("typed", "stored"),
    [("Martinez", "Jordi Martínez"), ("martínez", "JORDI MARTINEZ"), ("INIGO", "Íñigo Pérez")],
)
def test_the_player_filter_ignores_accents_and_case(carol, typed, stored):
    match, other = bulk_matches(2)
    Seat.objects.filter(match=match, letter="B").update(name=stored)
    html = carol.get("/organizer/", {"player": typed}).content.decode()
    assert stored in html
    assert other.name not in html.replace(match.name, "")
