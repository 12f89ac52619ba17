"""The round clock's words once time is called say what is true for that
table and that phone (issue 21, tracker/event_clock.todo_at_time), in
English and Spanish: a table in play finishes its Order and reports the
result; a table that never reached play (setting up or deploying cannot
propose a result) is told the organizer records it (rules.results.settle
with time_called); a proposed result asks the opponent's phone to confirm
or dispute it and asks nothing of the proposer's; a confirmed result asks
nothing; a disputed one is the organizer's to settle. The words app.js
swaps in when its countdown reaches zero (data-called) are the same ones,
and they follow the table while the clock runs (a socket sends the clock
again when the table reaches play). Through the pages' rendered forms."""

from __future__ import annotations

import pytest
from bs4 import BeautifulSoup
from django.utils import translation

from tests.web.phone import Phone
from tests.web.test_event_round_checks import all_lists_in, event_of, publish
from tests.web.test_event_running import Organizer, ok, pairings_of, seat_phone
from tracker import event_clock
from tracker.models import Match

pytestmark = pytest.mark.django_db

IN_PLAY = {
    "en": "Round 1: time is called. Finish the current Order and report the result.",
    "es": "Ronda 1: se acabó el tiempo. Terminad la Orden en curso y anotad el resultado.",
}
NOT_IN_PLAY = {
    "en": "Round 1: time is called. The organizer will record this table's result.",
    "es": "Ronda 1: se acabó el tiempo. El organizador anotará el resultado de esta mesa.",
}
CONFIRM = {
    "en": "Round 1: time is called. Confirm the proposed result or dispute it.",
    "es": "Ronda 1: se acabó el tiempo. Confirma el resultado propuesto o reclámalo.",
}
DISPUTED = {
    "en": "Round 1: time is called. The organizer will settle the disputed result.",
    "es": "Ronda 1: se acabó el tiempo. El organizador resolverá el resultado en disputa.",
}
CALLED = {"en": "Round 1: time is called.", "es": "Ronda 1: se acabó el tiempo."}


def clock_of(phone: Phone) -> tuple[str, str | None]:
    """The clock line the phone's page shows, and the one app.js would swap
    in at zero (data-called, only while the clock runs)."""
    phone.open()
    clock = BeautifulSoup(phone.html, "lxml").select_one("#round-clock")
    return " ".join(clock.get_text(" ").split()), clock.get("data-called")


def into_play(a: Phone, b: Phone, first: str) -> None:
    """Both lock the list each submitted, A sets initiative, both deploy."""
    for phone in (a, b):
        ok(phone, "LockArmyList")
    ok(a, "SetInitiative", first_turn=first, deploys_first=first)
    ok(a, "SealDeployment", lieutenant="Fusilier")
    ok(b, "SealDeployment", lieutenant="Fusilier")


def two_tables(carol) -> tuple[Organizer, list[tuple[Match, str]]]:
    names = ["Ana", "Bea", "Cai", "Dan"]
    event, org = event_of(carol, "Ana, PanOceania\nBea, Yu Jing\nCai, Nomads\nDan, Ariadna")
    all_lists_in(org, names)
    publish(org, seed=7)
    return org, [(match, a) for _table, match, a, _b in pairings_of(event, 1)]


def test_time_called_tells_each_table_what_is_left_for_it(carol):
    org, [(playing, first), (setting_up, _)] = two_tables(carol)
    # Table 1 reaches play; table 2's players take their seats, no more.
    a, b = seat_phone(carol, playing, "A", "en"), seat_phone(carol, playing, "B", "es")
    into_play(a, b, first)
    c, d = seat_phone(carol, setting_up, "A", "en"), seat_phone(carol, setting_up, "B", "es")

    # While the clock runs, the words app.js swaps in at zero are already
    # the true ones for each table.
    assert org.submit("/clock/start/", within="#round-1").status_code == 302
    for phone, language, line in (
        (a, "en", IN_PLAY),
        (b, "es", IN_PLAY),
        (c, "en", NOT_IN_PLAY),
        (d, "es", NOT_IN_PLAY),
    ):
        shown, at_zero = clock_of(phone)
        assert "Time left" in shown or "Tiempo restante" in shown
        assert at_zero == line[language]

    assert org.submit("/clock/call/", within="#round-1").status_code == 302
    assert clock_of(a) == (IN_PLAY["en"], None)
    assert clock_of(b) == (IN_PLAY["es"], None)
    # Setting up: no result can be proposed there; the organizer records it.
    assert not c.can("ProposeResult") and not d.can("ProposeResult")
    assert clock_of(c) == (NOT_IN_PLAY["en"], None)
    assert clock_of(d) == (NOT_IN_PLAY["es"], None)

    # A proposes: nothing is left for A's phone but to wait; B's confirms.
    ok(a, "ProposeResult", objective_a=6, objective_b=2, army_a=20, army_b=40)
    assert clock_of(a) == (CALLED["en"], None)
    assert clock_of(b) == (CONFIRM["es"], None)
    assert b.can("ConfirmResult") and not a.can("ConfirmResult")
    # A spectator of the table is asked nothing either.
    watcher = Phone("es")
    watcher.visit(f"/m/{playing.code}/")
    clock = BeautifulSoup(watcher.html, "lxml").select_one("#round-clock")
    assert " ".join(clock.get_text(" ").split()) == CALLED["es"]

    ok(b, "ConfirmResult")
    assert clock_of(a) == (CALLED["en"], None)
    assert clock_of(b) == (CALLED["es"], None)
    # Table 2 is still the organizer's to record.
    assert clock_of(d) == (NOT_IN_PLAY["es"], None)


def test_a_disputed_result_at_time_is_the_organizers_to_settle(carol):
    event, org = event_of(carol, "Ana, PanOceania\nBea, Yu Jing", name="Open de invierno")
    all_lists_in(org, ["Ana", "Bea"])
    publish(org, seed=3)
    [(_table, match, first, _b)] = pairings_of(event, 1)
    a, b = seat_phone(carol, match, "A", "es"), seat_phone(carol, match, "B", "en")
    into_play(a, b, first)
    assert org.submit("/clock/call/", within="#round-1").status_code == 302
    ok(b, "ProposeResult", objective_a=1, objective_b=9, army_a=10, army_b=20)
    assert clock_of(a) == (CONFIRM["es"], None)
    assert clock_of(b) == (CALLED["en"], None)
    ok(a, "DisputeResult", reason="Tenía la consola")
    assert clock_of(a) == (DISPUTED["es"], None)
    assert clock_of(b) == (DISPUTED["en"], None)


def test_a_finished_game_without_a_result_is_asked_only_to_report_it():
    """No Order is left to finish once the game is over (its last Game Round
    played), only the result to propose."""
    finished = Match(event_id=1, event_round=1, status=Match.Status.FINISHED, result=None)
    assert event_clock.todo_at_time(finished, "A") == event_clock.REPORT
    with translation.override("en"):
        assert (
            event_clock.called_line(1, event_clock.REPORT)
            == "Round 1: time is called. Report the result."
        )
    with translation.override("es"):
        assert (
            event_clock.called_line(1, event_clock.REPORT)
            == "Ronda 1: se acabó el tiempo. Anotad el resultado."
        )


@pytest.mark.django_db(transaction=True)
async def test_the_words_at_zero_follow_a_table_that_reaches_play_while_the_clock_runs(carol):
    """A phone that loaded its page during deployment holds the organizer's
    words for zero; once its table reaches play its socket sends the clock
    again (the same push that brings the table into play), so its countdown
    never flips to an untrue line. Nothing else resends it."""
    from asgiref.sync import sync_to_async

    from tests.web.test_round_clock_runs_out import connected

    def deploying():
        event, org = event_of(carol, "Ana, PanOceania\nBea, Yu Jing", name="Liga exprés")
        all_lists_in(org, ["Ana", "Bea"])
        publish(org, seed=3)
        [(_table, match, first, _b)] = pairings_of(event, 1)
        a, b = seat_phone(carol, match, "A", "en"), seat_phone(carol, match, "B", "es")
        for phone in (a, b):
            ok(phone, "LockArmyList")
        ok(a, "SetInitiative", first_turn=first, deploys_first=first)
        ok(a, "SealDeployment", lieutenant="Fusilier")
        assert org.submit("/clock/start/", within="#round-1").status_code == 302
        return a, b

    a, b = await sync_to_async(deploying)()
    assert (await sync_to_async(clock_of)(a))[1] == NOT_IN_PLAY["en"]
    en, es = await connected(a), await connected(b)
    await sync_to_async(ok)(b, "SealDeployment", lieutenant="Fusilier")  # into play

    for socket, language in ((en, "en"), (es, "es")):
        frames = [await socket.receive_from(timeout=5) for _ in range(2)]
        [clock] = [f for f in frames if 'id="round-clock"' in f]
        node = BeautifulSoup(clock, "lxml").select_one("#round-clock")
        assert node.get("hx-swap-oob") == "true"
        assert node.get("data-called") == IN_PLAY[language]
    for socket in (en, es):
        assert await socket.receive_nothing(timeout=0.3)
        await socket.disconnect()
