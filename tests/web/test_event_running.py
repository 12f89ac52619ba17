"""Running a whole event from the tracker (issue 21), through the pages:
the organizer's rendered forms (roster, lists deadline, Swiss rounds,
settling), each player's private list link and both phones of every table.

A 16-player event over 3 rounds: one player drops after round 1 (round 2
has a bye), one joins late for round 3, one result of round 2 is disputed
and settled. The standings the public page shows are checked against
scores computed here by hand from the default scoring table."""

from __future__ import annotations

import json
import re
from collections import defaultdict

import pytest
from bs4 import BeautifulSoup
from django.urls import reverse

from tests.web.phone import Phone
from tests.web.rendered_forms import submit
from tests.web.test_exports import run_snippet
from tracker.models import EventPlayer, HandedList, Match, Seat, TournamentEvent

pytestmark = pytest.mark.django_db

ROSTER = """Name, Faction, Club
Ana Arroyo, PanOceania, Club Norte
Bea Blanco, Yu Jing
Carlos Cruz, Ariadna, Club Sur
Dani Díaz, Haqqislam
Eva Estévez, Nomads, Club Norte
Fran Fuentes, Combined Army
Gil García, ALEPH
Hugo Hidalgo, Tohaa
Inés Iglesias, O-12
Juan Jiménez, JSA
Kike Klein, PanOceania
Lola López, Yu Jing, Club Sur
Mario Moreno, Ariadna
Nuria Navarro, Haqqislam
Óscar Ortiz, Nomads
"""
LATE = {"name": "Quique Quintana", "faction": "Ariadna", "club": ""}
ARMY = """PanOceania
Event list

GROUP 1 3 0

FUSILIER (Lieutenant) Combi Rifle / Pistol, Knife. (0 | 10)
BOLT Combi Rifle / Pistol. (0 | 15)
"""


def by_hand_tp(own: int, their: int) -> int:
    """The default scoring table, written out: 4/2/0 for a win/draw/loss by
    Objective Points, +1 for 5 or more OP, +1 for losing by 2 OP or less."""
    points = 4 if own > their else 2 if own == their else 0
    if own < their and their - own <= 2:
        points += 1
    if own >= 5:
        points += 1
    return points


def scores_for(round_number: int, table: int) -> tuple[int, int, int, int]:
    """The result each table enters: OP for A and B, VP for A and B."""
    return (
        (3 * table + round_number) % 9,
        (5 * table + 2 * round_number) % 9,
        # Army points alive within each player's whole list (25 points): a
        # proposer's own past it is refused.
        2 * table + round_number,
        table + 10,
    )


class Organizer:
    """Carol, submitting only forms her pages render."""

    def __init__(self, client, event: TournamentEvent):
        self.client, self.event = client, event
        self.url = f"/organizer/events/{event.pk}/run/"

    def page(self) -> str:
        response = self.client.get(self.url)
        assert response.status_code == 200
        return response.content.decode()

    def submit(self, target: str, within: str | None = None, **fill):
        return submit(self.client, self.page(), target, within=within, **fill)

    def text(self) -> str:
        return " ".join(BeautifulSoup(self.page(), "lxml").get_text(" ").split())


ROSTER_FIRST = "Ana Arroyo"


def roster_names(org: Organizer) -> list[str]:
    soup = BeautifulSoup(org.page(), "lxml")
    return [
        row.select_one("td").get_text(" ", strip=True) for row in soup.select("#roster tbody tr")
    ]


def roster_row(org: Organizer, name: str):
    soup = BeautifulSoup(org.page(), "lxml")
    [row] = [
        r for r in soup.select("#roster tbody tr") if r.select_one("td").get_text().startswith(name)
    ]
    return row


def list_link_of(org: Organizer, name: str) -> str:
    """The private list link the roster shows for `name`, as a path."""
    url = roster_row(org, name).select_one("code.list-link").get_text()
    return url.removeprefix("http://testserver")


def take_late_list(org: Organizer, name: str) -> None:
    response = submit(org.client, str(roster_row(org, name)), "/late-list/")
    assert response.status_code == 302
    assert f"{name} may submit one list through their link, despite the lock." in org.text()
    assert "late list accepted (once)" in roster_row(org, name).get_text()


def submit_through_link(path: str, name: str) -> None:
    """The player pastes the army builder's text into their link's form."""
    player = Phone()
    player.visit(path)
    assert name in player.text
    [form] = [f for f in player.forms() if "text" in f.names()]
    form.fill({"text": ARMY})
    player.send(form)
    assert "Your list is in: 2 troopers (25 points)." in player.text


def pairings_of(event: TournamentEvent, number: int) -> list[tuple[int, Match, str, str]]:
    out = []
    for match in Match.objects.filter(event=event, event_round=number).order_by("table_number"):
        seats = {s.letter: s for s in match.seats.all()}
        out.append((match.table_number, match, seats["A"].listed_name, seats["B"].listed_name))
    return out


def seat_phone(carol, match: Match, letter: str, language: str | None = None) -> Phone:
    """A player takes their seat from the link on the organizer's printed sheet."""
    sheet = carol.get(f"/organizer/matches/{match.code}/sheet/").content.decode()
    seat = match.seats.get(letter=letter)
    link = f"/m/{match.code}/s/{seat.token}/"
    assert link in sheet
    phone = Phone(language)
    phone.claim(link, seat.listed_name)
    open_list_link(phone, match, letter)
    return phone


def open_list_link(phone: Phone, match: Match, letter: str) -> None:
    """The player opens on this phone the list link the organizer gave them:
    only then is the seat it holds given their handed list (a seat link
    proves nothing of who tapped it)."""
    from tracker.event_running import roster_entry

    player = roster_entry(match.event, match.seats.get(letter=letter).listed_name)
    if player is None:
        return  # a guest of the pairings, not on the roster: no list link
    phone.visit(reverse("event-list-submit", kwargs={"token": player.list_token}))
    phone.open()


def ok(phone: Phone, command: str, **values) -> None:
    phone.open()  # what the phone shows now (its socket would have said)
    phone.submit(command, **values)
    assert phone.error is None, (command, phone.error)


def play_table(
    carol, match: Match, name_a: str, scores, dispute: bool = False, answer: bool = True
):
    a, b = seat_phone(carol, match, "A"), seat_phone(carol, match, "B")
    # Both drafts start from the list each player submitted before round 1.
    for phone in (a, b):
        assert "Fusilier" in phone.text and "Bolt" in phone.text
        ok(phone, "LockArmyList")
    ok(a, "SetInitiative", first_turn=name_a, deploys_first=name_a)
    ok(a, "SealDeployment", lieutenant="Fusilier")
    ok(b, "SealDeployment", lieutenant="Fusilier")
    op_a, op_b, vp_a, vp_b = scores
    ok(a, "ProposeResult", objective_a=op_a, objective_b=op_b, army_a=vp_a, army_b=vp_b)
    if dispute:
        ok(b, "DisputeResult", reason="I held the console")
    elif answer:  # without an answer the result stays proposed
        ok(b, "ConfirmResult")
    return a, b


def standings_shown(html: str, within: str = "#standings") -> dict[str, tuple[int, int, int]]:
    soup = BeautifulSoup(html, "lxml")
    shown = {}
    for row in soup.select(f"{within} tr.standing"):
        name = row.select_one(".name").get_text(" ", strip=True)
        name = re.sub(r" \((dropped|bye|baja|descanso)\)", "", name)
        shown[name] = tuple(int(row.select_one(f".{k}").get_text()) for k in ("tp", "op", "vp"))
    return shown


def test_a_16_player_event_runs_three_swiss_rounds_to_hand_checked_standings(carol, tmp_path):
    response = carol.get("/organizer/events/")
    response = submit(
        carol,
        response.content.decode(),
        "/organizer/events/",
        at="/organizer/events/",
        name="Copa Meseta",
        date="2026-05-09",
        location="Toledo",
    )
    assert response.status_code == 302
    event = TournamentEvent.objects.get(name="Copa Meseta")
    org = Organizer(carol, event)

    # -- roster: a pasted duplicate (accents and case folded) is refused, whole
    twice = ROSTER + "ana  ARROYO, Nomads\n"
    response = org.submit("/roster/paste/", players=twice)
    assert response.status_code == 400
    assert "Line 17: ana ARROYO repeats line 2 (Ana Arroyo)." in response.content.decode()
    assert not EventPlayer.objects.exists()
    assert org.submit("/roster/paste/", players=ROSTER).status_code == 302
    response = org.submit("/roster/", name="Pablo Pérez", faction="Combined Army", club="Club Sur")
    assert response.status_code == 302
    response = org.submit("/roster/", name="pablo perez", faction="ALEPH", club="")
    assert response.status_code == 400
    assert "pablo perez is already on the roster (as Pablo Pérez)." in response.content.decode()
    assert event.roster.count() == 16

    # -- lists: each player submits through their private link
    links = {name: list_link_of(org, name) for name in roster_names(org)}
    assert len(links) == 16
    for number, (name, url) in enumerate(sorted(links.items())):
        if number == 15:
            continue  # the last one is late: the organizer sees who
        submit_through_link(url, name)
    late_name, late_url = sorted(links.items())[15]
    assert "1 player has not submitted a list." in org.text()
    assert org.submit("/lists/", within=".lock-now").status_code == 302
    assert "The army lists are locked." in org.text()
    late = Phone()
    late.visit(late_url)
    assert "The army lists of this event are locked." in late.text
    assert not [f for f in late.forms() if "text" in f.names()]  # no form to submit
    forged = late.app.post(
        late_url,
        {"text": ARMY, "csrfmiddlewaretoken": late.app.cookies.get("csrftoken", "")},
        expect_errors=True,
    )
    assert forged.status_code in (400, 403)
    assert not HandedList.objects.filter(player=late_name).exists()
    # The organizer takes the latecomer's list: one list, through the same
    # form, while every other list stays locked.
    take_late_list(org, late_name)
    submit_through_link(late_url, late_name)
    assert not [f for f in Phone().visit_forms(late_url) if "text" in f.names()]  # once
    assert not [f for f in Phone().visit_forms(links[ROSTER_FIRST]) if "text" in f.names()]

    results: dict[tuple[int, str, str], tuple[int, int, int, int]] = {}
    byes: dict[str, int] = defaultdict(int)
    met: set[frozenset] = set()

    def publish(number: int, seed: int | None = None):
        fill = {"seed": seed} if seed is not None else {}
        response = org.submit("/rounds/draw/", **fill)
        assert response.status_code == 302, response.content.decode()[:2000]
        response = org.submit("/rounds/publish/", points_limit=300, rounds=3, minutes=90)
        assert response.status_code == 302
        tables = pairings_of(event, number)
        for _table, _match, a, b in tables:
            assert frozenset((a, b)) not in met, f"rematch {a} – {b}"
            met.add(frozenset((a, b)))
        return tables

    # -- round 1: a seeded random draw; the same seed draws it again
    response = org.submit("/rounds/draw/", seed=2026)
    first = re.findall(r"Table \d+: [^<]+", org.page())
    assert org.submit("/rounds/draw/", seed=2026).status_code == 302
    assert re.findall(r"Table \d+: [^<]+", org.page()) == first
    # A swap before publishing: table 1's A and table 2's A trade places.
    pending = event.rounds.get(number=1)
    one, two = pending.pairs[0][0], pending.pairs[1][0]
    assert org.submit("/rounds/swap/", one=one, two=two).status_code == 302
    pending.refresh_from_db()
    assert pending.pairs[0][0] == two and pending.pairs[1][0] == one
    assert org.submit("/rounds/publish/", points_limit=300, rounds=3, minutes=90).status_code == 302
    tables = pairings_of(event, 1)
    names = dict(event.roster.values_list("pk", "name"))
    assert (tables[0][2], tables[1][2]) == (names[two], names[one])
    assert len(tables) == 8
    for table, match, a, b in tables:
        met.add(frozenset((a, b)))
        results[(1, a, b)] = scores_for(1, table)
        play_table(carol, match, a, scores_for(1, table))

    # -- a player drops after round 1: 15 left, round 2 has a bye
    dropped = tables[-1][3]
    soup = BeautifulSoup(org.page(), "lxml")
    [row] = [
        r
        for r in soup.select("#roster tbody tr")
        if r.select_one("td").get_text().startswith(dropped)
    ]
    response = submit(carol, str(row), "/drop/")
    assert response.status_code == 302
    tables = publish(2)
    assert len(tables) == 7
    round_2 = event.rounds.get(number=2)
    bye_2 = names[round_2.bye]
    byes[bye_2] += 1
    assert dropped not in {p for _t, _m, a, b in tables for p in (a, b)} | {bye_2}
    for table, match, a, b in tables:
        scores = scores_for(2, table)
        results[(2, a, b)] = scores
        play_table(carol, match, a, scores, dispute=table == 1)

    # The disputed table counts only once settled: round 3 waits for it.
    response = org.submit("/rounds/draw/")
    assert response.status_code == 400
    assert "Round 2 still has tables without a confirmed result: 1." in response.content.decode()
    disputed = tables[0][1]
    audit_html = carol.get(f"/organizer/matches/{disputed.code}/").content.decode()
    settled = (6, 2, 14, 6)
    response = submit(
        carol,
        audit_html,
        f"/organizer/matches/{disputed.code}/settle/",
        objective_a=settled[0],
        objective_b=settled[1],
        army_a=settled[2],
        army_b=settled[3],
        reason="The console was held by A",
    )
    assert response.status_code == 302
    results[(2, tables[0][2], tables[0][3])] = settled

    # -- a latecomer joins for round 3: 16 again, no bye
    response = org.submit("/roster/", **LATE)
    assert response.status_code == 302
    take_late_list(org, LATE["name"])
    submit_through_link(list_link_of(org, LATE["name"]), LATE["name"])
    tables = publish(3)
    assert len(tables) == 8 and event.rounds.get(number=3).bye is None
    for table, match, a, b in tables:
        results[(3, a, b)] = scores_for(3, table)
        play_table(carol, match, a, scores_for(3, table))

    # -- the standings, by hand
    expected: dict[str, list[int]] = defaultdict(lambda: [0, 0, 0])
    for (_round, a, b), (op_a, op_b, vp_a, vp_b) in results.items():
        for name, own, their, vp in ((a, op_a, op_b, vp_a), (b, op_b, op_a, vp_b)):
            expected[name][0] += by_hand_tp(own, their)
            expected[name][1] += own
            expected[name][2] += vp
    for name, count in byes.items():
        expected[name][0] += 4 * count
        expected[name][1] += 5 * count
    expected = {name: tuple(v) for name, v in expected.items()}
    public = carol.get(f"/e/{event.pk}/").content.decode()
    shown = standings_shown(public)
    assert shown == expected
    ordered = list(shown.values())
    assert ordered == sorted(ordered, reverse=True)
    assert sum(byes.values()) == 1
    # The public page shows no list, no list link, no seat link.
    assert "Fusilier" not in public and "/e/list/" not in public and "/s/" not in public

    # -- the event's audit: every match verified, the dispute and its settling
    audit = carol.get(f"/organizer/events/{event.pk}/audit/").content.decode()
    text = " ".join(BeautifulSoup(audit, "lxml").get_text(" ").split())
    assert "All 23 matches verified" in text
    assert "disputes: 1 · settlements: 1" in text
    assert "disputed the result: I held the console" in text
    assert "Reason: The console was held by A" in text
    csv_text = carol.get(f"/organizer/events/{event.pk}/results.csv").content.decode("utf-8-sig")
    lines = csv_text.strip().splitlines()
    assert lines[0] == "round,table,player_a,tp_a,op_a,vp_a,player_b,tp_b,op_b,vp_b"
    assert len(lines) == 1 + 8 + 7 + 1 + 8  # every table, and the bye
    _table, _match, a2, b2 = pairings_of(event, 2)[0]
    assert f"2,1,{a2},{by_hand_tp(6, 2)},6,14,{b2},{by_hand_tp(2, 6)},2,6" in lines
    standings_csv = carol.get(f"/organizer/events/{event.pk}/standings.csv").content.decode(
        "utf-8-sig"
    )
    assert standings_csv.splitlines()[1].split(",")[1] == next(iter(shown))

    # -- the event's JSON export carries the standings, and they verify
    # offline (the README's snippet) from the verified matches' results.
    [json_link] = BeautifulSoup(audit, "lxml").select('a[href$="export.json"]')
    export = json.loads(carol.get(json_link["href"]).content)
    tournament = export["tournament"]
    ids = {p["id"]: p["name"] for p in tournament["players"]}
    assert {
        ids[row["player"]]: (row["tp"], row["op"], row["vp"]) for row in tournament["standings"]
    } == expected
    assert [r["number"] for r in tournament["rounds"]] == [1, 2, 3]
    assert ids[tournament["rounds"][1]["bye"]] == bye_2
    checked = run_snippet(tmp_path, export)
    assert checked.returncode == 0, checked.stdout + checked.stderr
    assert checked.stdout.count(" ok\n") == 23 + 1  # every match, and "standings ok"
    assert checked.stdout.endswith("standings ok\n")
    # An edited standing is caught; so is a result edited in a match's header
    # (that match no longer verifies, so its result no longer counts).
    edited = json.loads(json.dumps(export))
    edited["tournament"]["standings"][-1]["tp"] += 4
    checked = run_snippet(tmp_path, edited)
    assert checked.returncode == 1 and "standings differ" in checked.stdout
    edited = json.loads(json.dumps(export))
    header = edited["matches"][0]["match"]
    header["result"]["objective_points"]["A"] += 3
    checked = run_snippet(tmp_path, edited)
    assert checked.returncode == 1
    assert f"{header['code']} header differs" in checked.stdout
    assert "standings differ" in checked.stdout


def test_a_player_link_is_private_and_refuses_a_bad_list(carol, mallory):
    event = TournamentEvent.objects.create(name="Liga")
    player = EventPlayer.objects.create(event=event, name="Ana", key="ana", faction="PanOceania")
    page = Phone()
    page.visit(f"/e/list/{player.list_token}/")
    [form] = [f for f in page.forms() if "text" in f.names()]
    form.fill({"text": "GROUP 1 1\n\nFUSILIER (0 | ten)"})
    page.send(form)
    assert page.last.status_code == 400
    assert "Line" in page.text
    assert not HandedList.objects.exists()
    assert mallory.get("/e/list/not-a-token/").status_code == 404
    assert mallory.get(f"/organizer/events/{event.pk}/run/").status_code == 302  # to login
    assert Seat.objects.count() == 0


def three_players(carol) -> tuple[TournamentEvent, Organizer]:
    event = TournamentEvent.objects.create(name="Liga de jueves")
    org = Organizer(carol, event)
    players = "Ana, PanOceania\nBea, Yu Jing\nCai, Nomads"
    assert org.submit("/roster/paste/", players=players).status_code == 302
    assert org.submit("/rounds/draw/", seed=5).status_code == 302
    response = org.submit("/rounds/publish/", points_limit=300, rounds=3, minutes=60)
    assert response.status_code == 302
    return event, org


def test_the_scoring_table_is_the_events_own_and_moves_the_standings(carol):
    event, org = three_players(carol)
    bye = dict(event.roster.values_list("pk", "name"))[event.rounds.get(number=1).bye]
    assert standings_shown(carol.get(f"/e/{event.pk}/").content.decode())[bye] == (4, 5, 0)
    response = org.submit("/scoring/", bye_tp=3, bye_op=4, bye_vp=100)
    assert response.status_code == 302
    assert standings_shown(carol.get(f"/e/{event.pk}/").content.decode())[bye] == (3, 4, 100)
    response = org.submit("/scoring/", win=-1)
    assert response.status_code == 400
    assert "Ensure this value is greater than or equal to 0." in response.content.decode()
    event.refresh_from_db()
    assert event.scoring["bye_tp"] == 3


def test_the_clock_starts_pauses_and_calls_time_and_the_match_page_shows_it(carol, alice):
    event, org = three_players(carol)
    match = Match.objects.get(event=event)
    page = alice.get(f"/m/{match.code}/").content.decode()
    assert "Time left" in page and "60:00" in page and "clock not started" in page
    assert org.submit("/clock/start/", within="#round-1").status_code == 302
    event_round = event.rounds.get(number=1)
    assert event_round.clock_started_at is not None
    assert org.submit("/clock/pause/", within="#round-1").status_code == 302
    event_round.refresh_from_db()
    assert event_round.clock_started_at is None and 0 < event_round.clock_elapsed < 30
    assert "clock paused" in alice.get(f"/m/{match.code}/").content.decode()
    assert org.submit("/clock/call/", within="#round-1").status_code == 302
    page = alice.get(f"/m/{match.code}/").content.decode()
    assert "Round 1: time is called." in page
    assert "Time is called." in org.text()
    # Called is final: the page offers no clock button any more.
    html = org.page()
    assert "/clock/start/" not in html
    spanish = Phone("es")
    spanish.visit(f"/m/{match.code}/")
    assert "Ronda 1: se acabó el tiempo." in spanish.text


def test_a_late_list_link_says_the_lists_are_locked_and_one_late_list_is_taken(carol):
    """After the deadline, a player whose late list the organizer takes reads
    that, not "Lists lock at <a time already past>"."""
    event = TournamentEvent.objects.create(name="Liga")
    org = Organizer(carol, event)
    assert org.submit("/roster/paste/", players="Ana Arroyo, PanOceania").status_code == 302
    assert org.submit("/lists/", within=".lock-now").status_code == 302
    take_late_list(org, "Ana Arroyo")
    for language, said in (
        ("en", "The lists are locked, but the organizer takes one late list from you"),
        ("es", "Las listas están cerradas, pero la organización acepta una lista tardía tuya"),
    ):
        page = Phone(language)
        page.visit(list_link_of(org, "Ana Arroyo"))
        assert said in page.text and "Lists lock at" not in page.text
        assert "Las listas se cierran el" not in page.text
    submit_through_link(list_link_of(org, "Ana Arroyo"), "Ana Arroyo")


def test_a_paired_seat_offers_the_roster_name_and_the_history_shows_it(carol):
    """A player who only notes the PIN takes the seat under the name the
    pairing gave it: the organizer's history and exports then read as the
    roster does (a typed nickname stays possible)."""
    event, org = three_players(carol)
    [(_table, match, name_a, _name_b)] = pairings_of(event, 1)
    sheet = carol.get(f"/organizer/matches/{match.code}/sheet/").content.decode()
    link = f"/m/{match.code}/s/{match.seats.get(letter='A').token}/"
    assert link in sheet
    phone = Phone("es")
    phone.visit(link)
    [rendered] = [f for f in phone.forms() if "pin" in f.names()]
    assert rendered.form["name"].value == name_a
    rendered.fill({"pin": "739164"})
    phone.send(rendered)
    assert not phone.error
    assert match.seats.get(letter="A").name == name_a
    history = BeautifulSoup(carol.get("/organizer/").content.decode(), "lxml")
    assert name_a in history.get_text()


def test_who_is_paired_in_a_round_joined_by_then_and_not_dropped_before_it():
    """A player dropped after round 2 plays rounds 1 and 2, not round 3; a
    late joiner from round 2 plays from round 2 on."""
    from tracker.event_running import active_for

    event = TournamentEvent.objects.create(name="Liga")
    for name, joined, dropped in (("Ana", 1, None), ("Bea", 1, 2), ("Cai", 2, None)):
        EventPlayer.objects.create(
            event=event,
            name=name,
            key=name.lower(),
            faction="PanOceania",
            joined_round=joined,
            dropped_after=dropped,
        )

    def paired(number):
        return sorted(p.name for p in active_for(event, number))

    assert paired(1) == ["Ana", "Bea"]
    assert paired(2) == ["Ana", "Bea", "Cai"]
    assert paired(3) == ["Ana", "Cai"]


def test_the_run_page_follows_a_clock_and_standings_changed_on_another_device(carol):
    """The organizer's run page on the laptop stays true while a second
    device (a co-organizer's phone) calls time or changes the scoring: the
    page fetches its clocks, tables and standings every 10 s (the hidden #run-live,
    htmx) and swaps in each id it names, nothing else. What it fetches
    says the new state under those ids, and leaves the messages meant for
    the page's own next load where they are."""
    from django.contrib.auth.models import User
    from django.test import Client

    event, org = three_players(carol)
    page = BeautifulSoup(org.page(), "lxml")
    poller = page.select_one("#run-live")
    assert poller["hx-trigger"] == "every 10s" and poller["hx-swap"] == "none"
    ids = poller["hx-select-oob"].split(",")
    assert ids[:4] == ["#clock-1", "#tables-1", "#standings-live", "#run-newer"]
    assert all(page.select_one(i) is not None for i in ids)
    assert "not started" in page.select_one("#clock-1").get_text()

    second = Client()
    second.force_login(User.objects.get(username="carol"))
    other = Organizer(second, event)
    assert other.submit("/clock/call/", within="#round-1").status_code == 302
    bye = dict(event.roster.values_list("pk", "name"))[event.rounds.get(number=1).bye]
    assert other.submit("/scoring/", bye_tp=3, bye_op=4, bye_vp=100).status_code == 302

    carol_round = event.rounds.get(number=1)
    assert carol_round.time_called_at is not None
    response = carol.get(poller["hx-get"], HTTP_HX_REQUEST="true")
    assert response.status_code == 200
    live = BeautifulSoup(response.content.decode(), "lxml")
    assert all(live.select_one(i) is not None for i in ids)
    assert live.select_one("#clock-1").get_text(" ", strip=True) == "Time is called."
    assert live.select_one("#clock-1 button") is None
    assert standings_shown(str(live), "#standings-live")[bye] == (3, 4, 100)
    # The fragment is what the page itself shows under the same ids.
    page = BeautifulSoup(org.page(), "lxml")
    assert page.select_one("#clock-1").get_text(" ", strip=True) == "Time is called."


@pytest.mark.parametrize(
    ("language", "says", "reload"),
    [
        ("en", "Round 2 was published on another device.", "Reload the page to see its tables"),
        (
            "es",
            "La ronda 2 se publicó en otro dispositivo.",
            "Recarga la página para ver sus mesas",
        ),
    ],
)
def test_the_run_page_says_when_another_device_publishes_a_round(carol, language, says, reload):
    """A round drawn and published on a second device brings tables, links
    and forms the laptop's page does not have: its poll says so, in the
    page's language, with a link that reloads it; until then it says
    nothing, and a page loaded after the round says nothing either."""
    from django.contrib.auth.models import User
    from django.test import Client

    event, org = three_players(carol)
    [(_table, match, _a, _b)] = pairings_of(event, 1)
    # Round 1's one table: time called, the organizer settles it 2-2.
    assert org.submit("/clock/call/", within="#round-1").status_code == 302
    audit = carol.get(f"/organizer/matches/{match.code}/").content.decode()
    settle = dict(objective_a=2, objective_b=2, army_a=0, army_b=0, reason="Time called")
    response = submit(carol, audit, f"/organizer/matches/{match.code}/settle/", **settle)
    assert response.status_code == 302
    poll = BeautifulSoup(org.page(), "lxml").select_one("#run-live")["hx-get"]

    def newer(url):
        response = carol.get(url, HTTP_HX_REQUEST="true", HTTP_ACCEPT_LANGUAGE=language)
        assert response.status_code == 200
        shown = BeautifulSoup(response.content.decode(), "lxml").select_one("#run-newer")
        assert shown is not None and shown["role"] == "status"
        return shown

    assert newer(poll).get_text(strip=True) == ""
    second = Client()
    second.force_login(User.objects.get(username="carol"))
    other = Organizer(second, event)
    assert other.submit("/rounds/draw/").status_code == 302
    assert newer(poll).get_text(strip=True) == ""  # drawn, not yet published
    assert (
        other.submit("/rounds/publish/", points_limit=300, rounds=3, minutes=60).status_code == 302
    )

    shown = newer(poll)
    assert says in shown.get_text(" ", strip=True)
    [link] = shown.select("a")
    assert link.get_text(strip=True) == reload
    reloaded = BeautifulSoup(carol.get(link["href"]).content.decode(), "lxml")
    assert reloaded.select_one("#clock-2") is not None
    assert "#clock-2" in reloaded.select_one("#run-live")["hx-select-oob"]
    assert newer(reloaded.select_one("#run-live")["hx-get"]).get_text(strip=True) == ""
    # A count the page did not write says nothing rather than fail.
    assert newer(poll.split("?")[0] + "?rounds=x").get_text(strip=True) == ""


def test_the_run_page_poll_leaves_the_page_s_messages_and_speaks_its_language(carol):
    event, org = three_players(carol)
    assert org.submit("/clock/start/", within="#round-1").status_code == 302
    poll = BeautifulSoup(org.page(), "lxml").select_one("#run-live")["hx-get"]
    # The start's message was shown by that load; a new one now waits.
    assert org.submit("/clock/pause/", within="#round-1").status_code == 302
    spanish = carol.get(poll, HTTP_HX_REQUEST="true", HTTP_ACCEPT_LANGUAGE="es")
    assert "en pausa" in spanish.content.decode()
    assert "Reanudar el reloj" in spanish.content.decode()
    page = BeautifulSoup(org.page(), "lxml")
    assert "paused" in page.select_one(".messages").get_text()


def test_a_result_only_proposed_scores_nothing_until_the_opponent_confirms_it(carol):
    """Standings count confirmed and settled results only: a result one
    player proposed and the other has not answered moves nobody, and
    leaves its round unfinished."""
    event = TournamentEvent.objects.create(name="Liga de jueves")
    org = Organizer(carol, event)
    assert org.submit("/roster/paste/", players="Ana, PanOceania\nBea, Yu Jing").status_code == 302
    for name in ("Ana", "Bea"):
        submit_through_link(list_link_of(org, name), name)
    assert org.submit("/rounds/draw/", seed=5).status_code == 302
    response = org.submit("/rounds/publish/", points_limit=300, rounds=3, minutes=60)
    assert response.status_code == 302
    [(_table, match, name_a, name_b)] = pairings_of(event, 1)
    _a, b = play_table(carol, match, name_a, (7, 3, 15, 9), answer=False)
    public = f"/e/{event.pk}/"
    assert standings_shown(carol.get(public).content.decode()) == {
        name_a: (0, 0, 0),
        name_b: (0, 0, 0),
    }
    # Nor is the round over: the next one is not drawn past that table.
    response = org.submit("/rounds/draw/")
    assert response.status_code == 400
    assert "Round 1 still has tables without a confirmed result: 1." in response.content.decode()
    assert not event.rounds.filter(number=2).exists()
    ok(b, "ConfirmResult")
    assert standings_shown(carol.get(public).content.decode()) == {
        name_a: (5, 7, 15),
        name_b: (0, 3, 9),
    }
