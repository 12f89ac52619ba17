"""Running an event (issue 21), the checks around a round, through the
rendered pages: the rematch marker a swap can bring onto the Swiss
proposal, the lists lock on a latecomer's in-match hand-in, and the phones'
receipts on the event's audit (checked, kept on record, checked again)."""

from __future__ import annotations

import json

import pytest
from bs4 import BeautifulSoup
from django.utils import translation

from tests.web.organizer_table import rewrite_log
from tests.web.phone import Phone
from tests.web.rendered_forms import submit
from tests.web.test_event_running import (
    ARMY,
    Organizer,
    list_link_of,
    pairings_of,
    play_table,
    roster_row,
    seat_phone,
    submit_through_link,
    take_late_list,
)
from tracker.models import EventReceipt, HandedList, Match, TournamentEvent
from tracker.rules.commitments import canonical_json

pytestmark = pytest.mark.django_db

REMATCH = "(rematch: they have already played)"


def event_of(
    carol, players: str, name: str = "Liga de jueves"
) -> tuple[TournamentEvent, Organizer]:
    event = TournamentEvent.objects.create(name=name)
    org = Organizer(carol, event)
    assert org.submit("/roster/paste/", players=players).status_code == 302
    return event, org


def publish(org: Organizer, **draw) -> None:
    assert org.submit("/rounds/draw/", **draw).status_code == 302
    response = org.submit("/rounds/publish/", points_limit=300, rounds=3, minutes=90)
    assert response.status_code == 302


def all_lists_in(org: Organizer, names: list[str]) -> None:
    for name in names:
        submit_through_link(list_link_of(org, name), name)


def drawn_tables(org: Organizer) -> list[str]:
    soup = BeautifulSoup(org.page(), "lxml")
    return [" ".join(li.get_text(" ").split()) for li in soup.select("#drawn ol.pairs li")]


def test_a_swap_that_makes_a_rematch_is_marked_on_the_drawn_round(carol):
    names = ["Ana", "Bea", "Cai", "Dan"]
    event, org = event_of(carol, "Ana, PanOceania\nBea, Yu Jing\nCai, Nomads\nDan, Ariadna")
    all_lists_in(org, names)
    publish(org, seed=7)
    round_1 = pairings_of(event, 1)
    for table, match, a, _b in round_1:
        play_table(carol, match, a, (table + 3, table, 20, 15))
    met = {frozenset((a, b)) for _t, _m, a, b in round_1}

    assert org.submit("/rounds/draw/").status_code == 302
    proposed = drawn_tables(org)
    assert len(proposed) == 2 and not any(REMATCH in line for line in proposed)
    # The organizer swaps table 1's second player with the first player's
    # round-1 opponent: both tables are now round-1 pairings, and say so.
    pending = event.rounds.get(number=2)
    ids = dict(event.roster.values_list("name", "pk"))
    by_id = {pk: name for name, pk in ids.items()}
    (x, y), _other = pending.pairs
    [opponent] = [p for pair in met if by_id[x] in pair for p in pair if p != by_id[x]]
    swap = BeautifulSoup(org.page(), "lxml").select_one('form[action$="/rounds/swap/"]')
    offered = {o.get_text(strip=True): o["value"] for o in swap.select("select[name=one] option")}
    assert set(offered) == set(names)
    response = org.submit("/rounds/swap/", one=offered[by_id[y]], two=offered[opponent])
    assert response.status_code == 302
    marked = drawn_tables(org)
    assert all(line.endswith(REMATCH) for line in marked), marked
    assert f"Table 1: {by_id[x]} – {opponent} {REMATCH}" in marked
    carol.cookies["django_language"] = "es"
    assert "(revancha: ya han jugado entre sí)" in org.text()
    carol.cookies["django_language"] = "en"
    # Swapped back, the marks are gone.
    response = org.submit("/rounds/swap/", one=offered[by_id[y]], two=offered[opponent])
    assert response.status_code == 302
    assert not any(REMATCH in line for line in drawn_tables(org))


def test_a_latecomer_cannot_hand_a_list_in_from_the_match_once_the_lists_lock(carol):
    event, org = event_of(carol, "Ana, PanOceania\nBea, Yu Jing", name="Open de invierno")
    submit_through_link(list_link_of(org, "Ana"), "Ana")  # Bea never does
    publish(org, seed=3)
    [(_table, match, _a, _b)] = pairings_of(event, 1)
    letter = match.seats.get(listed_name="Bea").letter
    bea = seat_phone(carol, match, letter, "es")
    # Bea pastes her list inside the match; the page offers the hand-in.
    bea.submit("draft/import", text=ARMY)
    assert bea.error is None
    before_lock = bea.html
    assert bea.forms("draft/hand")
    assert org.submit("/lists/", within=".lock-now").status_code == 302

    # The lock comes before her tap (the page she holds was rendered before).
    bea.html = before_lock
    [hand_in] = bea.forms("draft/hand")
    bea.send(hand_in)
    assert bea.error == (
        "Las listas de ejército de este evento están cerradas: esta lista no se ha entregado. "
        "Sigue siendo tu lista en esta partida; pide a la organización que la recoja."
    )
    assert not HandedList.objects.filter(player="Bea").exists()
    draft = Match.objects.get(pk=match.pk).seats.get(letter=letter).draft
    assert [row["name"] for row in draft] == ["Fusilier", "Bolt"]  # nothing lost
    assert not bea.forms("draft/hand")  # reloaded: no button, the reason instead
    assert "Las listas de ejército de este evento están cerradas" in bea.text

    # The organizer takes her late list: the hand-in is offered, once.
    take_late_list(org, "Bea")
    bea.open()
    bea.submit("draft/hand")
    assert bea.error is None
    assert HandedList.objects.filter(event=event, player="Bea").exists()
    assert not bea.forms("draft/hand")


def receipt_of(phone: Phone) -> tuple[int, str]:
    """The receipt the phone's result block shows: event number and code."""
    phone.open()
    node = phone.soup.select_one("#receipt")
    return int(node["data-seq"]), node.select_one(".receipt-code").get_text(strip=True)


def audit_text(carol, event) -> str:
    html = carol.get(f"/organizer/events/{event.pk}/audit/").content.decode()
    return " ".join(BeautifulSoup(html, "lxml").get_text(" ").split())


def paste_receipts(carol, event, text: str):
    page = carol.get(f"/organizer/events/{event.pk}/audit/").content.decode()
    return submit(carol, page, "/audit/receipts/", receipts=text)


def round_one_played(carol):
    """Four players, round 1 published and both tables' results confirmed:
    the event and each table's two phones, by table number."""
    event, org = event_of(carol, "Ana, PanOceania\nBea, Yu Jing\nCai, Nomads\nDan, Ariadna")
    all_lists_in(org, ["Ana", "Bea", "Cai", "Dan"])
    publish(org, seed=11)
    phones = {}
    for table, match, a, _b in pairings_of(event, 1):
        phones[table] = play_table(carol, match, a, (5, 3, 20, 15))
    return event, phones


def test_the_event_audit_checks_the_receipts_read_from_the_phones(carol):
    event, phones = round_one_played(carol)
    text = audit_text(carol, event)
    assert "No receipt on record yet: the receipts are only on the players' phones." in text
    assert text.count("none: held by the phones") == 2

    # Table 1's code, read out from each phone (as shown, in groups).
    (seq_a, code_a), (seq_b, code_b) = (receipt_of(p) for p in phones[1])
    assert (seq_a, code_a) == (seq_b, code_b)
    response = paste_receipts(carol, event, f"1, 1, #{seq_a}, {code_a}\n")
    assert response.status_code == 302
    text = audit_text(carol, event)
    assert "1 receipt recorded: it agrees with the log." in text
    assert "Receipts on record for 1 match of 2: every one agrees with its log." in text
    assert f"#{seq_a} agrees" in text and text.count("none: held by the phones") == 1
    # The other phone of the table reads out the same code, grouped its own
    # way: checked, and kept on record once.
    response = paste_receipts(carol, event, f"1, 1, {seq_b}, {code_b.replace('-', ' ').lower()}")
    assert response.status_code == 302
    assert "1 receipt recorded: it agrees with the log." in audit_text(carol, event)
    assert EventReceipt.objects.count() == 1
    assert "All 2 matches verified" in text

    # A bad line records nothing and says which line and why.
    table_2 = pairings_of(event, 1)[1][1]
    response = paste_receipts(carol, event, f"1, 2, {seq_a}, ABCD-1234\n1, 9, 3, {code_a}")
    assert response.status_code == 400
    page = " ".join(BeautifulSoup(response.content, "lxml").get_text(" ").split())
    assert "Line 1: the code cannot be checked. This code has 8 digits" in page
    assert "Line 2: this event has no table 9 in round 1." in page
    assert EventReceipt.objects.count() == 1  # nothing of that paste

    # A code that differs from the log waits to be read back from the phone
    # (most often a typo); recorded as typed, the audit says so.
    wrong = "0000-" + code_a[5:] if not code_a.startswith("0000") else "FFFF-" + code_a[5:]
    response = paste_receipts(carol, event, f"{table_2.code}: {seq_a}: {wrong}")
    assert response.status_code == 200 and EventReceipt.objects.count() == 1
    response = submit(
        carol, response.content.decode(), "/audit/receipts/", within="#receipts-unconfirmed"
    )
    assert response.status_code == 302
    text = audit_text(carol, event)
    assert "1 receipt does NOT agree with its match's log: see below." in text
    assert "1 receipt on record does NOT agree with its match's log" in text
    assert f"Round 1, table 2: receipt #{seq_a} {wrong} — the hash of that event differs." in text
    assert "All 2 matches verified" not in text
    assert "A receipt on record does NOT agree with its match's log" in text

    # Whoever rewrites table 1's log with every hash recomputed passes the
    # chain check, but no longer agrees with the receipt on record.
    table_1 = pairings_of(event, 1)[0][1]

    def renamed(row):
        return canonical_json({**json.loads(row.data), "name": "Ana Forged"})

    claimed = table_1.events.filter(kind="SeatClaimed").order_by("seq").first()
    rewrite_log(table_1, claimed.seq, edit=renamed)
    text = audit_text(carol, event)
    assert "2 receipts on record do NOT agree with their matches' logs" in text
    assert "All 2 matches verified" not in text  # the chain checks; the receipt does not
    assert f"Round 1, table 1: receipt #{seq_a} {code_a} — the hash of that event differs." in text


def _draw_form_fields(org: Organizer) -> list[str]:
    form = BeautifulSoup(org.page(), "lxml").select_one('form[action$="/rounds/draw/"]')
    return [node["name"] for node in form.select("input[name], select[name]")]


def test_the_seed_is_offered_only_where_a_draw_uses_it(carol):
    """Only round 1 is drawn from a seed (swiss.first_round); later rounds
    pair by the standings. The field "Seed of the draw (round 1; ...)" stood
    on round 2's and 3's draw forms too, where what was typed in it did
    nothing."""
    names = ["Ana", "Bea", "Cai", "Dan"]
    event, org = event_of(carol, "Ana, PanOceania\nBea, Yu Jing\nCai, Nomads\nDan, Ariadna")
    all_lists_in(org, names)
    assert "seed" in _draw_form_fields(org)
    assert org.submit("/rounds/draw/", seed=7).status_code == 302
    assert "seed" in _draw_form_fields(org)  # round 1 drawn again from a seed
    response = org.submit("/rounds/publish/", points_limit=300, rounds=3, minutes=90)
    assert response.status_code == 302
    assert "seed" not in _draw_form_fields(org)
    # Drawn too early, round 2's refusal is still shown on its form.
    response = org.submit("/rounds/draw/")
    assert response.status_code == 400
    assert "Round 1 still has tables without a confirmed result" in response.content.decode()
    for table, match, a, _b in pairings_of(event, 1):
        play_table(carol, match, a, (table + 3, table, 20, 15))
    assert org.submit("/rounds/draw/").status_code == 302
    assert "seed" not in _draw_form_fields(org)


@pytest.mark.parametrize("language", ["en", "es"])
def test_a_mistyped_receipt_is_corrected_before_it_goes_on_record(carol, language):
    """One digit mistyped left "NOT agree" on the event's audit for good (no
    way to take the line back): a receipt that does not agree is not recorded
    until the organizer has read it back from the phone. The box holds it
    again to be corrected; the receipts of the same paste that agree are
    recorded at once."""
    carol.defaults["HTTP_ACCEPT_LANGUAGE"] = language
    event, phones = round_one_played(carol)
    (seq_1, code_1), _same = (receipt_of(p) for p in phones[1])
    (seq_2, code_2), _same = (receipt_of(p) for p in phones[2])
    typo = code_2[:-1] + ("0" if code_2[-1] != "0" else "1")
    response = paste_receipts(carol, event, f"1, 1, {seq_1}, {code_1}\n1, 2, {seq_2}, {typo}")
    assert response.status_code == 200
    page = BeautifulSoup(response.content.decode(), "lxml")
    with translation.override(language):
        not_yet = translation.ngettext(
            "%(counter)s receipt does NOT agree with its match's log and is not recorded "
            "yet. Read its code back from the phone: if it was mistyped, correct it in "
            "the box below and check it again.",
            "%(counter)s receipts do NOT agree with their matches' logs and are not "
            "recorded yet. Read their codes back from the phones: if one was mistyped, "
            "correct it in the box below and check them again.",
            1,
        ) % {"counter": 1}
    assert not_yet in " ".join(page.select_one("#receipts-unconfirmed").get_text(" ").split())
    # Table 1's agrees: recorded. Table 2's typo: not on record.
    assert [(r.match.table_number, r.seq) for r in EventReceipt.objects.all()] == [(1, seq_1)]
    typed_again = page.select_one(".receipts-form textarea[name=receipts]").get_text()
    assert typo in typed_again and code_1 not in typed_again
    # Corrected in the box and checked again: it agrees, and the audit is clean.
    response = submit(
        carol,
        response.content.decode(),
        "/audit/receipts/",
        within="#receipts-entry",
        receipts=typed_again.replace(typo, code_2),
    )
    assert response.status_code == 302
    assert sorted(r.match.table_number for r in EventReceipt.objects.all()) == [1, 2]
    html = carol.get(f"/organizer/events/{event.pk}/audit/").content.decode()
    assert 'id="receipts-agree"' in html and 'id="receipts-disagree"' not in html


def test_a_player_dropped_while_round_one_is_drawn_is_taken_out_of_it(carol):
    """A drawn round that is not published is not played: a player who
    drops before it is published plays no part in it (dropped after round
    0), and the drawn round is drawn again without them."""
    event, org = event_of(carol, "Ana, PanOceania\nBea, Yu Jing\nCai, Nomads\nDan, ALEPH")
    assert org.submit("/rounds/draw/", seed=5).status_code == 302
    assert any("Dan" in line for line in drawn_tables(org))
    assert submit(carol, str(roster_row(org, "Dan")), "/drop/").status_code == 302
    assert "Dan dropped: not paired from round 1 on." in org.text()
    assert not any("Dan" in line for line in drawn_tables(org))
    assert event.rounds.get(number=1).bye is not None
