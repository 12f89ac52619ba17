"""A table that never reaches play when its round's time is called (still
setting up or deploying, or a no-show) cannot propose a result, and the next
round is drawn only once every table has one: the organizer records it from
the match's audit page, as a ruling in its log, shown on both phones.
Through the pages' rendered forms only."""

from __future__ import annotations

import pytest

from tests.web.rendered_forms import FormNotOnPage, submit
from tests.web.test_event_running import Organizer, seat_phone, standings_shown
from tracker.models import Match, TournamentEvent

pytestmark = pytest.mark.django_db


def round_one_of_two_tables(carol) -> tuple[Organizer, list[Match]]:
    response = submit(
        carol,
        carol.get("/organizer/events/").content.decode(),
        "/organizer/events/",
        at="/organizer/events/",
        name="Noche de liga",
        date="2026-05-09",
    )
    assert response.status_code == 302
    org = Organizer(carol, TournamentEvent.objects.get(name="Noche de liga"))
    players = (
        "Ana Arroyo, PanOceania\nBea Blanco, Yu Jing\nCarlos Cruz, Ariadna\nDani Díaz, ALEPH\n"
    )
    assert org.submit("/roster/paste/", players=players).status_code == 302
    assert org.submit("/rounds/draw/", seed=7).status_code == 302
    response = org.submit("/rounds/publish/", points_limit=300, rounds=3, minutes=90)
    assert response.status_code == 302
    return org, list(Match.objects.filter(event=org.event).order_by("table_number"))


def audit_of(org: Organizer, match: Match) -> str:
    return org.client.get(f"/organizer/matches/{match.code}/").content.decode()


def test_time_called_on_a_table_still_setting_up_the_organizer_records_its_result(carol):
    org, (first, second) = round_one_of_two_tables(carol)
    # Table 1 takes its seats and no more; table 2's players never come.
    a, b = seat_phone(carol, first, "A"), seat_phone(carol, first, "B")
    assert not a.can("ProposeResult") and not b.can("ProposeResult")
    # Before time is called there is nothing to settle: the table plays on.
    with pytest.raises(FormNotOnPage):
        submit(carol, audit_of(org, first), "/settle/")
    assert org.submit("/clock/call/").status_code == 302
    refused = org.submit("/rounds/draw/")
    assert "Round 1 still has tables without a confirmed result: 1, 2." in refused.content.decode()

    for match, op in ((first, (3, 0)), (second, (0, 0))):
        page = audit_of(org, match)
        assert "Record the table&#x27;s result" in page or "Record the table's result" in page
        response = submit(
            carol,
            page,
            "/settle/",
            objective_a=op[0],
            objective_b=op[1],
            army_a=0,
            army_b=0,
            reason="No game: time called during set-up",
        )
        assert response.status_code == 302
        match.refresh_from_db()
        assert match.status == Match.Status.FINISHED and match.result["status"] == "settled"
    for phone in (a, b):
        phone.open()
        assert "The organizer settled the result: objective points 3–0" in phone.text
        assert "No game: time called during set-up" in phone.text
    # Counted in the standings, and round 2 can be drawn.
    shown = standings_shown(org.page())
    assert shown[first.seats.get(letter="A").listed_name][:2] == (4, 3)
    assert org.submit("/rounds/draw/").status_code == 302


def test_once_the_organizer_records_the_result_the_clock_asks_nothing_more(carol):
    """A recorded (settled) result is final: the phones' clock line no
    longer tells them the organizer will record it, nor to report it."""
    from tests.web.test_round_clock_says_what_is_true import CALLED, NOT_IN_PLAY, clock_of

    org, (first, _second) = round_one_of_two_tables(carol)
    a, b = seat_phone(carol, first, "A", "en"), seat_phone(carol, first, "B", "es")
    assert org.submit("/clock/call/").status_code == 302
    assert clock_of(a) == (NOT_IN_PLAY["en"], None)
    assert clock_of(b) == (NOT_IN_PLAY["es"], None)
    response = submit(
        carol,
        audit_of(org, first),
        "/settle/",
        objective_a=2,
        objective_b=1,
        army_a=0,
        army_b=0,
        reason="No game: time called during set-up",
    )
    assert response.status_code == 302
    assert clock_of(a) == (CALLED["en"], None)
    assert clock_of(b) == (CALLED["es"], None)
