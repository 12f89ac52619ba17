"""Tests from a mutation round over the event's pages (issue 21): the round
clock's words at time, the public event page, a player's list link and the
event's audit with the phones' receipts. Each guards a behaviour a planted
mutant changed without any other test noticing; each drives the pages as
their users do (rendered forms only)."""

from __future__ import annotations

import pytest
from asgiref.sync import sync_to_async

from tests.web.phone import Phone
from tests.web.test_event_round_checks import all_lists_in, event_of, publish, receipt_of
from tests.web.test_event_running import ok, pairings_of, seat_phone
from tests.web.test_handed_list_keeps_drafts import open_event, pair_round, seat_link
from tests.web.test_list_state_live import _frame_saying, _socket
from tests.web.test_round_clock_says_what_is_true import CALLED, clock_of, into_play
from tests.web.test_swiss_score_distances import settle

pytestmark = pytest.mark.django_db


def test_a_result_the_organizer_settled_at_time_asks_nothing_more_of_either_phone(carol):
    """Once the organizer settles a disputed result, neither phone is told
    to report or confirm anything: the clock says only that time is called
    (event_clock.todo_at_time: settled is done, as confirmed is)."""
    event, org = event_of(carol, "Ana, PanOceania\nBea, Yu Jing", name="Open de invierno")
    all_lists_in(org, ["Ana", "Bea"])
    publish(org, seed=3)
    [(_table, match, first, _b)] = pairings_of(event, 1)
    a, b = seat_phone(carol, match, "A", "es"), seat_phone(carol, match, "B", "en")
    into_play(a, b, first)
    assert org.submit("/clock/call/", within="#round-1").status_code == 302
    ok(b, "ProposeResult", objective_a=1, objective_b=9, army_a=10, army_b=20)
    ok(a, "DisputeResult", reason="Tenía la consola")
    settle(carol, match, 5, 5, 20, 20)
    assert clock_of(a) == (CALLED["es"], None)
    assert clock_of(b) == (CALLED["en"], None)
    # Each phone shows the receipt of the settled match, the same one.
    assert receipt_of(a) == receipt_of(b)


@pytest.mark.django_db(transaction=True)
async def test_a_list_handed_in_from_one_match_shows_at_once_on_the_players_other_match(carol):
    """Alice hands her list in from her round 1 page; her round 2 page, open
    on her phone with an empty draft, starts from that list at once (its
    socket is told to draw it again: handed_lists.hand_in), not on a reload."""
    spring = await sync_to_async(open_event)(carol, "Spring Open")
    first = await sync_to_async(pair_round)(carol, spring, 1)
    second = await sync_to_async(pair_round)(carol, spring, 2)
    alice = Phone()

    def seated_with_a_draft():
        alice.claim(seat_link(second), "Alice Arroyo")
        alice.claim(seat_link(first), "Alice Arroyo")
        alice.submit("draft/add", name="Kaplan", cost="20")
        assert alice.error is None

    await sync_to_async(seated_with_a_draft)()
    socket = _socket(alice, second)
    connected, _ = await socket.connect()
    assert connected
    assert "Kaplan" not in await socket.receive_from(timeout=5)

    def hand_in():
        alice.open(first.code)
        alice.submit("draft/hand")
        assert alice.error is None

    await sync_to_async(hand_in)()
    await _frame_saying(socket, "Kaplan")
    await socket.disconnect()


def test_a_list_sent_through_the_link_takes_what_earlier_lists_tell_of_its_troopers(
    carol, alice, bob
):
    """The builder's text carries no silhouette and no Camouflage: a list
    sent through a player's link takes them, as a pasted draft does, from
    earlier locked lists on this server that had a trooper of that name
    (event_public.list_rows), whatever its case there."""
    from tests.web.rendered_forms import submit
    from tests.web.table import claim, create_match
    from tracker.rules.state import CAMOUFLAGE

    earlier = create_match(bob)
    claim(bob, earlier, "A", "Bob")
    claim(alice, earlier, "B", "Alice")
    board = f"/m/{earlier.code}/"
    added = submit(
        bob,
        bob.get(board).content.decode(),
        "/draft/add/",
        name="bolt",
        cost=15,
        silhouette=5,
        traits=[CAMOUFLAGE],
    )
    assert added.status_code == 200
    submit(bob, bob.get(board).content.decode(), "/act/LockArmyList/")

    event, org = event_of(carol, "Ana, PanOceania\nBea, Yu Jing", name="Liga de otoño")
    all_lists_in(org, ["Ana", "Bea"])
    publish(org, seed=3)
    [(_table, match, _a, _b)] = pairings_of(event, 1)
    ana = seat_phone(carol, match, match.seats.get(listed_name="Ana").letter)
    [bolt] = [row for row in ana.soup.select("#blk-controls tr[id^=draft-]") if "Bolt" in row.text]
    assert bolt.select_one(".sil").get_text() == "S5"
    assert [t.get_text() for t in bolt.select(".trait")] == ["Camouflage (marker)"]


def test_attack_a_list_posted_to_a_link_after_the_lock_is_refused_and_changes_nothing(
    carol, mallory
):
    """The page of a locked link offers no form; a post sent anyway (a tab
    left open from before the lock, or forged) is refused in words and the
    list the organizer has stays as it was."""
    from tests.web.test_event_running import ARMY, list_link_of
    from tracker.models import HandedList

    event, org = event_of(carol, "Ana, PanOceania\nBea, Yu Jing", name="Liga cerrada")
    all_lists_in(org, ["Ana", "Bea"])
    link = list_link_of(org, "Ana")
    assert org.submit("/lists/", within=".lock-now").status_code == 302
    before = HandedList.objects.get(event=event, player="Ana").rows
    longer = ARMY + "BOLT Combi Rifle / Pistol. (0 | 15)\n"
    response = mallory.post(link, {"text": longer})
    assert response.status_code == 400
    assert "The army lists of this event are locked." in response.content.decode()
    assert HandedList.objects.get(event=event, player="Ana").rows == before


def test_a_list_link_names_every_line_it_left_out(carol):
    """After a list is taken, each line of the paste that was not read is
    named with its reason, the first one too."""
    from tests.web.test_event_running import ARMY, list_link_of

    _event, org = event_of(carol, "Ana, PanOceania\nBea, Yu Jing", name="Liga de notas")
    player = Phone()
    player.visit(list_link_of(org, "Ana"))
    [form] = [f for f in player.forms() if "text" in f.names()]
    form.fill({"text": ARMY + "hello\n"})
    player.send(form)
    assert "Your list is in: 2 troopers (25 points)." in player.text
    # The page shows what the organizer now has, and offers to replace it.
    submitted = player.soup.select_one("#submitted")
    assert "Submitted: 2 troopers" in submitted.get_text()
    assert [li.get_text() for li in submitted.select("li")] == [
        "Fusilier · 10 · G1",
        "Bolt · 15 · G1",
    ]
    assert player.soup.select_one("form button.primary").get_text() == "Replace my list"
    left_out = [
        " ".join(li.get_text(" ").split())
        for li in player.soup.select(".messages li")
        if "left out." in li.get_text()
    ]
    assert len(left_out) == 3, left_out
    assert left_out[0].startswith("Line 1, “PanOceania”, left out.")
    assert left_out[-1].startswith("Line 8, “hello”, left out. Not a trooper line")


def test_attack_an_empty_paste_posted_to_a_list_link_is_refused(carol, mallory):
    """The browser asks for the text first (required); a post without it
    is refused as a bad request, with the field's error, and takes nothing."""
    from tests.web.test_event_running import list_link_of
    from tracker.models import HandedList

    event, org = event_of(carol, "Ana, PanOceania\nBea, Yu Jing", name="Liga vacía")
    response = mallory.post(list_link_of(org, "Ana"), {"text": ""})
    assert response.status_code == 400
    assert "This field is required." in response.content.decode()
    assert not HandedList.objects.filter(event=event).exists()


def _audit_text(carol, event, selector: str) -> str:
    from bs4 import BeautifulSoup

    page = carol.get(f"/organizer/events/{event.pk}/audit/").content.decode()
    return " ".join(BeautifulSoup(page, "lxml").select_one(selector).get_text(" ").split())


def test_the_event_audit_counts_a_dispute_and_its_settlement_and_no_peek(carol):
    """A table disputed in play and settled by the organizer: the event's
    audit counts one dispute, one settlement and no peek, lists each with
    its words (a dash for a dispute without a reason), and says the table's receipts are held by the phones."""
    event, org = event_of(carol, "Ana, PanOceania\nBea, Yu Jing", name="Open auditado")
    all_lists_in(org, ["Ana", "Bea"])
    publish(org, seed=3)
    [(_table, match, first, _b)] = pairings_of(event, 1)
    a, b = seat_phone(carol, match, "A", "en"), seat_phone(carol, match, "B", "en")
    into_play(a, b, first)
    ok(b, "ProposeResult", objective_a=1, objective_b=9, army_a=10, army_b=20)
    ok(a, "DisputeResult")  # the reason is optional
    settle(carol, match, 5, 4, 20, 19)

    verified = _audit_text(carol, event, "#verified")
    assert "Peeks in play: 0 · disputes: 1 · settlements: 1" in verified
    assert "none: held by the phones" in verified
    # Its log verifies, with no receipt on record yet.
    assert _audit_text(carol, event, "#verified tbody tr td:nth-of-type(5)") == "yes"
    happenings = _audit_text(carol, event, "#happenings")
    assert "Seat A disputed the result: —" in happenings
    assert "settled: objective points 5–4, army points alive 20–19. Reason: Time called" in (
        happenings
    )


def _spanish(msgid: str) -> str:
    from django.utils import translation
    from django.utils.translation import gettext

    with translation.override("es"):
        return gettext(msgid)


def test_the_public_event_page_shows_the_newest_round_first_and_no_bye_for_even_tables(carol):
    """Anyone's event page, in Spanish: where the event is held, the
    standings' explanation in Spanish, the newest published round on top,
    and no "Bye" line in a round where every player has a table."""
    from bs4 import BeautifulSoup

    from tests.web.rendered_forms import submit_on
    from tests.web.test_event_running import Organizer
    from tests.web.test_swiss_score_distances import round_one_played
    from tracker.models import TournamentEvent

    response = submit_on(
        carol, "/organizer/events/", "card", name="Copa", date="2026-05-02", location="Club Alfa"
    )
    assert response.status_code == 302
    copa = TournamentEvent.objects.get(name="Copa")
    assert Organizer(carol, copa).submit("/roster/paste/", players="Ana, Nomads").status_code == 302

    players = "Ana, PanOceania\nBea, Yu Jing\nCai, Nomads\nDan, Ariadna"
    event, org = round_one_played(carol, players, [(5, 1, 100, 20), (3, 3, 50, 50)])
    publish(org)
    reader = Phone("es")
    for shown in (copa, event):
        reader.visit(f"/e/{shown.pk}/")
        hint = reader.soup.select_one("#standings p.hint").get_text()
        assert hint == _spanish(
            "Tournament Points, then Objective Points, then Victory Points. Only confirmed "
            "and settled results count."
        )
    reader.visit(f"/e/{copa.pk}/")
    assert "Club Alfa" in reader.soup.select_one("p.meta").get_text()
    reader.visit(f"/e/{event.pk}/")
    soup = BeautifulSoup(reader.html, "lxml")
    assert [s["id"] for s in soup.select("section.round")] == ["round-2", "round-1"]
    assert not soup.select("p.bye")
    # The organizer's results list round 2 too, with no table counted yet.
    audit = carol.get(f"/organizer/events/{event.pk}/audit/").content.decode()
    tables = BeautifulSoup(audit, "lxml").select("table.round-results")
    assert [(t["id"], len(t.select("tbody tr"))) for t in tables] == [
        ("results-round-1", 2),
        ("results-round-2", 0),
    ]


def test_a_spanish_list_link_says_who_sees_the_list_and_that_the_lists_locked(carol):
    from tests.web.test_event_running import list_link_of

    _event, org = event_of(carol, "Ana, PanOceania\nBea, Yu Jing", name="Liga en español")
    link = list_link_of(org, "Ana")
    player = Phone("es")
    player.visit(link)
    said = _spanish(
        "Only you and the organizer see it. Each of your matches in this event starts from "
        "it; your opponent sees what the rules reveal."
    )
    assert player.soup.select_one("p.hint").get_text() == said
    assert org.submit("/lists/", within=".lock-now").status_code == 302
    player.visit(link)
    locked = player.soup.select_one("p.error[role=alert]").get_text()
    assert locked == _spanish("The army lists of this event are locked.")
    assert locked != "The army lists of this event are locked."


def test_a_handed_list_starts_the_pairing_typed_with_other_accents_case_and_spaces(carol):
    """ "Íñigo Pérez" handed his list in round 1; round 2's pairing, typed
    "INIGO  perez" (no accents, capitals, two spaces), is the same player:
    his seat there starts from that list (folding.name_key). "Iñigo Pardo"
    of round 3 is another player: his seat starts empty."""
    from tests.web.test_handed_list_keeps_drafts import draft_names

    spring = open_event(carol, "Spring Open")
    first = pair_round(carol, spring, 1, pairings="1, Íñigo Pérez, Bob Bravo\n")
    inigo = Phone()
    inigo.claim(seat_link(first), "Íñigo Pérez")
    inigo.submit("draft/add", name="Kaplan", cost="20")
    inigo.submit("draft/hand")
    assert inigo.error is None
    second = pair_round(carol, spring, 2, pairings="1, INIGO  perez, Bob Bravo\n")
    inigo.claim(seat_link(second), "Íñigo Pérez")
    assert draft_names(second) == ["Kaplan"]
    third = pair_round(carol, spring, 3, pairings="1, Iñigo Pardo, Bob Bravo\n")
    inigo.claim(seat_link(third), "Íñigo Pérez")  # his browser, another player's seat
    assert draft_names(third) == []


def test_the_results_for_the_tournament_manager_list_the_bye_after_the_tables(carol):
    from bs4 import BeautifulSoup

    from tests.web.test_swiss_score_distances import round_one_played

    players = "Ana, PanOceania\nBea, Yu Jing\nCai, Nomads"
    event, _org = round_one_played(carol, players, [(5, 1, 100, 20)])
    page = carol.get(f"/organizer/events/{event.pk}/audit/").content.decode()
    rows = BeautifulSoup(page, "lxml").select("#results-round-1 tbody tr")
    firsts = [row.select_one("td").get_text() for row in rows]
    assert firsts == ["1", "—"]
    # The bye scores the event's bye: 4 TP, 5 OP, 0 VP (DEFAULT_SCORING).
    bye = [cell.get_text() for cell in rows[-1].select("td")]
    assert bye[2:] == ["4", "5", "0", "(bye)", "", "", ""]


def test_the_event_csvs_quote_formula_names_and_mark_only_the_dropped_player(carol):
    """A player name typed as a formula ("=1+1") is quoted in the standings
    and results CSVs, as in every export (a spreadsheet would run it); the
    standings' dropped column says yes for the dropped player only, not for
    the one who had the bye."""
    import csv
    import io

    from tests.web.rendered_forms import submit
    from tests.web.test_event_running import roster_row
    from tests.web.test_swiss_score_distances import round_one_played

    players = "=1+1, PanOceania\nBea, Yu Jing\nCai, Nomads"
    event, org = round_one_played(carol, players, [(5, 1, 100, 20)])
    bye = event.roster.get(pk=event.rounds.get(number=1).bye).name
    gone = next(name for name in ("=1+1", "Bea", "Cai") if name != bye)
    assert submit(carol, str(roster_row(org, gone)), "/drop/").status_code == 302

    def rows(name: str) -> list[dict]:
        response = carol.get(f"/organizer/events/{event.pk}/{name}.csv")
        return list(csv.DictReader(io.StringIO(response.content.decode())))

    standings = {row["player"]: row for row in rows("standings")}
    assert "'=1+1" in standings and "=1+1" not in standings
    shown = {"'=1+1" if name == "=1+1" else name: name for name in ("=1+1", "Bea", "Cai")}
    dropped = {shown_name for shown_name, name in shown.items() if name == gone}
    assert {name for name, row in standings.items() if row["dropped"] == "yes"} == dropped
    assert standings["'=1+1" if bye == "=1+1" else bye]["byes"] == "1"
    results = rows("results")
    assert "'=1+1" in {row["player_a"] for row in results} | {row["player_b"] for row in results}
    assert "=1+1" not in {row["player_a"] for row in results} | {row["player_b"] for row in results}


def test_one_receipt_pasted_twice_at_once_is_kept_once_and_a_match_code_in_any_case(carol):
    """Both phones of a table read out the same receipt and the organizer
    pastes both lines at once, the second by the match code typed in lower
    case: both are checked, and the receipt is on record once."""
    from tests.web.test_event_round_checks import audit_text, paste_receipts, receipt_of
    from tests.web.test_event_running import play_table
    from tracker.models import EventReceipt

    event, org = event_of(carol, "Ana, PanOceania\nBea, Yu Jing", name="Liga de recibos")
    all_lists_in(org, ["Ana", "Bea"])
    publish(org, seed=3)
    [(_table, match, first, _b)] = pairings_of(event, 1)
    a, _b = play_table(carol, match, first, (5, 3, 12, 8))
    seq, code = receipt_of(a)
    pasted = f"1, 1, #{seq}, {code}\n{match.code.lower()}; {seq}; {code.replace('-', ' ')}\n"
    assert paste_receipts(carol, event, pasted).status_code == 302
    text = audit_text(carol, event)
    assert "2 receipts recorded: each agrees with its log." in text
    assert text.count(f"#{seq} agrees") == 1
    assert EventReceipt.objects.filter(event=event).count() == 1

    # Event number 0 is no number a phone shows; 200 lines are taken at
    # once, 201 are not.
    refused = paste_receipts(carol, event, f"1, 1, 0, {code}")
    assert refused.status_code == 400
    assert "Line 1: the event number is the whole number the phone shows (#57)." in (
        refused.content.decode()
    )
    line = f"1, 1, {seq}, {code}\n"
    assert paste_receipts(carol, event, line * 200).status_code == 302
    refused = paste_receipts(carol, event, line * 201)
    assert refused.status_code == 400
    assert "At most 200 receipts at once." in refused.content.decode()
    assert EventReceipt.objects.filter(event=event).count() == 1


def test_a_spanish_organizer_reads_the_empty_event_audit_in_spanish(carol):
    from bs4 import BeautifulSoup

    event, _org = event_of(carol, "Ana, PanOceania\nBea, Yu Jing", name="Liga tranquila")
    page = carol.get(f"/organizer/events/{event.pk}/audit/", HTTP_ACCEPT_LANGUAGE="es")
    soup = BeautifulSoup(page.content.decode(), "lxml")
    said = " ".join(soup.select_one("#happenings li").get_text(" ").split())
    assert said == _spanish("Nothing yet.") != "Nothing yet."
