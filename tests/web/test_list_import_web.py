"""Army lists in a minute, through the forms the draft renders: paste the
army builder's text, see each unreadable line with its reason (and nothing
imported), pick per row what the text does not carry, with suggestions from
earlier locked lists on this server."""

from __future__ import annotations

import pytest
from bs4 import BeautifulSoup

from tests.rules.test_army_text import TWO_GROUPS
from tests.web.organizer_table import fresh, text_of
from tests.web.phone import Phone
from tests.web.rendered_forms import submit
from tests.web.table import claim, create_match, error_of
from tests.web.test_event_round_checks import event_of
from tests.web.test_event_running import ARMY, list_link_of
from tracker.models import Match, Seat, TournamentEvent
from tracker.reading import load_state
from tracker.rules.state import (
    CAMOUFLAGE,
    COURAGE,
    DOCTOR,
    ENGINEER,
    HIDDEN_DEPLOYMENT,
    INFILTRATION,
    LIEUTENANT_CANDIDATE,
)

pytestmark = pytest.mark.django_db


def page(client, match) -> str:
    return client.get(f"/m/{match.code}/").content.decode()


def draft_of(match, letter="A") -> list[dict]:
    return Seat.objects.get(match=match, letter=letter).draft


def shown(response) -> str:
    """The answer's words as a phone shows them (entities decoded)."""
    return " ".join(BeautifulSoup(response.content.decode(), "lxml").get_text(" ").split())


def paste(client, match, text):
    return submit(client, page(client, match), "/draft/import/", text=text)


def test_a_pasted_list_fills_the_draft_in_one_step(alice):
    match = create_match(alice)
    claim(alice, match, "A", "Alice")
    response = paste(alice, match, TWO_GROUPS)
    assert error_of(response) is None
    assert "Imported 8 troopers (223 points)." in response.content.decode()
    draft = draft_of(match)
    assert [(r["name"], r["cost"], r["combat_group"]) for r in draft][:2] == [
        ("Knight Of Montesa", 37, 1),
        ("Father-Knight", 44, 1),
    ]
    assert [r["combat_group"] for r in draft].count(2) == 3
    assert LIEUTENANT_CANDIDATE in draft[0]["traits"]
    assert "Múltiplo Ángel" in page(alice, match)
    # Importing the same text again (a retry) changes nothing.
    paste(alice, match, TWO_GROUPS)
    assert draft_of(match) == draft


def ticked_traits(html: str, name: str) -> set[str]:
    """The trait boxes ticked in the draft's edit form of the row `name`."""
    soup = BeautifulSoup(html, "lxml")
    row = next(tr for tr in soup.select("tr[id^=draft-]") if name in tr.get_text())
    return {box["value"] for box in row.select("input[name=traits][checked]")}


@pytest.mark.parametrize(
    ("language", "words"),
    [("en", ("Engineer", "Doctor", "Courage")), ("es", ("Ingeniero", "Médico", "Coraje"))],
)
def test_a_pasted_list_keeps_courage_doctor_and_engineer_ticked(alice, language, words):
    """RT-X1, TM-T5, TM-T6: the builder's (Courage), (Doctor), (Engineer)
    tick their boxes in the draft, so that a Courage trooper is not put in
    Retreat! (the paste dropped them and the rows showed no trait)."""
    match = create_match(alice)
    claim(alice, match, "A", "Alice")
    alice.cookies["django_language"] = language
    text = TWO_GROUPS.replace("(Engineer)", f"({words[0]})")
    text = text.replace("(Doctor)", f"({words[1]})").replace("(Courage)", f"({words[2]})")
    response = paste(alice, match, text)
    assert error_of(response) is None
    html = page(alice, match)
    assert ticked_traits(html, "Peacemaker") == {ENGINEER}
    assert ticked_traits(html, "Múltiplo Ángel") == {DOCTOR}
    assert ticked_traits(html, "Naïve Jeanne D'arc") == {COURAGE}


def test_an_unreadable_line_is_left_out_and_listed_and_the_rest_imported(alice):
    match = create_match(alice)
    claim(alice, match, "A", "Alice")
    broken = TWO_GROUPS.replace("(0 | 10)", "0 10").replace(
        "GROUP 2 3", "6 SWC | 272 Points\nOpen with Army…\nGROUP 2 3"
    )
    response = paste(alice, match, broken)
    text = shown(response)
    assert error_of(response) is None
    assert "Imported 7 troopers (213 points)." in text
    assert "6 lines left out" in text  # two headings, the link, these three
    assert "Line 11, “FUSILIER Combi Rifle / Pistol, Knife. 0 10”" in text
    assert "Line 13, “6 SWC | 272 Points”, left out. A totals line." in text
    assert "Line 14, “Open with Army…”, left out. The army builder's link or banner." in text
    assert "Fusilier" not in [row["name"] for row in draft_of(match)]
    assert len(draft_of(match)) == 7


def test_a_paste_without_one_trooper_line_imports_nothing_and_says_why(alice, bob):
    match = create_match(alice)
    claim(alice, match, "A", "Alice")
    response = paste(alice, match, "Haqqislam\n6 SWC | 272 Points\nOpen with Army…\n")
    html = response.content.decode()
    assert error_of(response).startswith("Nothing was imported")
    assert "No trooper lines were found in the pasted text." in shown(response)
    assert draft_of(match) == []
    assert "6 SWC | 272 Points" in html  # the pasted text is kept
    # The same in Spanish, on a Spanish phone.
    claim(bob, match, "B", "Bob")
    bob.cookies["django_language"] = "es"
    response = paste(bob, match, "Haqqislam\n148 puntos | CAP 1\nAbrir con Army\n")
    text = shown(response)
    assert error_of(response).startswith("No se importó nada")
    assert "Línea 2, «148 puntos | CAP 1», no importada. Una línea de totales." in text


def test_a_spanish_paste_lists_what_it_left_out_in_spanish(alice):
    from tests.rules.test_army_text import SPANISH_FROM_THE_APP

    match = create_match(alice)
    claim(alice, match, "A", "Alice")
    alice.cookies["django_language"] = "es"
    text = shown(paste(alice, match, SPANISH_FROM_THE_APP))
    assert "Importadas 3 tropas (74 puntos)." in text
    assert (
        "Línea 9, «Abrir con Army», no importada. El enlace o el aviso del creador de listas."
        in text
    )
    assert [row["name"] for row in draft_of(match)] == ["Hassassin Ayyar", "Fidai", "Ghulam"]


def test_a_list_over_the_limit_imports_with_a_warning_and_cannot_be_locked(alice):
    match = create_match(alice, points=150)
    claim(alice, match, "A", "Alice")
    response = paste(alice, match, TWO_GROUPS)
    assert "over the 150 points limit" in response.content.decode()
    response = submit(alice, page(alice, match), "/act/LockArmyList/")
    assert "over the 150 points limit" in error_of(response)


def test_rows_are_completed_by_hand_with_suggestions_from_earlier_lists(alice, bob, mallory):
    # An earlier match on this server: Bob locked a Croc Men with Camouflage
    # and Infiltration (public once locked), and Alice a hidden Croc Men
    # in a match still in play (private: never a suggestion).
    earlier = create_match(bob)
    claim(bob, earlier, "A", "Bob")
    claim(alice, earlier, "B", "Alice")
    bob_page = page(bob, earlier)
    assert (
        error_of(
            submit(
                bob,
                bob_page,
                "/draft/add/",
                name="Croc Men",
                cost=30,
                silhouette=2,
                traits=[CAMOUFLAGE, INFILTRATION],
            )
        )
        is None
    )
    submit(bob, page(bob, earlier), "/act/LockArmyList/")
    submit(
        alice,
        page(alice, earlier),
        "/draft/add/",
        name="Peacemaker",
        cost=14,
        silhouette=3,
        traits=[HIDDEN_DEPLOYMENT],
    )
    submit(alice, page(alice, earlier), "/act/LockArmyList/")

    match = create_match(mallory)
    claim(mallory, match, "A", "Mallory")
    paste(mallory, match, TWO_GROUPS)
    rows = {r["name"]: r for r in draft_of(match)}
    assert set(rows["Croc Men"]["traits"]) >= {CAMOUFLAGE, INFILTRATION}
    assert rows["Croc Men"]["suggested"]
    # Alice's hidden Peacemaker is private: only the text's own (Engineer).
    assert rows["Peacemaker"]["traits"] == [ENGINEER] and not rows["Peacemaker"]["suggested"]
    assert "suggested from earlier lists" in page(mallory, match)

    # What the text does not carry is picked per row, in the row's own form.
    croc = rows["Croc Men"]["id"]
    response = submit(
        mallory,
        page(mallory, match),
        "/draft/edit/",
        within=f"#draft-{croc}",
        silhouette=2,
        traits=[HIDDEN_DEPLOYMENT, CAMOUFLAGE],
    )
    assert error_of(response) is None
    row = {r["id"]: r for r in draft_of(match)}[croc]
    assert row["traits"] == sorted([HIDDEN_DEPLOYMENT, CAMOUFLAGE]) and not row["suggested"]
    submit(mallory, page(mallory, match), "/act/LockArmyList/")
    state = load_state(fresh(match))
    assert state.troopers[croc].hidden
    assert state.troopers[[r["id"] for r in draft_of(match)][0]].has(LIEUTENANT_CANDIDATE)


def test_attack_a_spectator_cannot_import_into_a_seat(alice, mallory):
    match = create_match(alice)
    claim(alice, match, "A", "Alice")
    response = mallory.post(f"/m/{match.code}/draft/import/", {"text": TWO_GROUPS})
    assert response.status_code == 403
    assert draft_of(match) == []


# ------------------------------------------------------------------ events


def round_of(carol, event, number, pairings):
    page_html = carol.get(f"/organizer/events/{event.pk}/").content.decode()
    response = submit(
        carol,
        page_html,
        f"/organizer/events/{event.pk}/",
        htmx=False,
        at=f"/organizer/events/{event.pk}/",
        event_round=number,
        pairings=pairings,
        classified_drawn=0,
    )
    assert response.status_code == 302, text_of(response.content.decode())[:600]
    return {
        m.table_number: m
        for m in Match.objects.filter(event=event, event_round=number).order_by("table_number")
    }


def seat_link(client, match, letter, name):
    return claim(client, match, letter, name)


def test_a_list_handed_to_the_organizer_starts_every_round(alice, bob, carol, mallory):
    event = TournamentEvent.objects.create(name="Spring Open")
    round_1 = round_of(carol, event, 1, "1, Alice, Bob")
    round_2 = round_of(carol, event, 2, "1, Bob, Alice")  # created before the hand-in
    match = round_1[1]
    claim(alice, match, "A", "Alice")
    paste(alice, match, TWO_GROUPS)
    response = submit(alice, page(alice, match), "/draft/hand/")
    assert error_of(response) is None
    assert "Your list is with the organizer" in response.content.decode()
    # Once: the button is gone, and a raw second post is refused.
    assert "/draft/hand/" not in page(alice, match)
    again = alice.post(f"/m/{match.code}/draft/hand/", {}, HTTP_HX_REQUEST="true")
    assert "already handed" in error_of(again)

    names = [row["name"] for row in draft_of(match)]
    # Into a seat her browser holds: none yet in round 2.
    assert draft_of(round_2[1], "B") == []
    claim(alice, round_2[1], "B", "Alice")
    assert [row["name"] for row in draft_of(round_2[1], "B")] == names  # Alice is B there
    assert draft_of(round_2[1], "A") == []  # Bob's seat is his own
    round_3 = round_of(carol, event, 3, "2, Alice, Carla")  # created after
    claim(alice, round_3[2], "A", "Alice")
    assert [row["name"] for row in draft_of(round_3[2], "A")] == names
    # Private: the organizer's event page shows it; the opponent's phone does not.
    assert "Knight Of Montesa" in carol.get(f"/organizer/events/{event.pk}/").content.decode()
    claim(bob, round_2[1], "A", "Bob")
    assert "Knight Of Montesa" not in page(bob, round_2[1])


def test_a_match_outside_an_event_cannot_hand_a_list(alice):
    match = create_match(alice)
    claim(alice, match, "A", "Alice")
    paste(alice, match, TWO_GROUPS)
    assert "/draft/hand/" not in page(alice, match)
    refused = alice.post(f"/m/{match.code}/draft/hand/", {}, HTTP_HX_REQUEST="true")
    assert "Only a match of an event" in error_of(refused)


@pytest.mark.parametrize(
    ("language", "said"),
    [
        ("en", "Line 1, “PanOceania”, left out. A heading: the faction or the list's name."),
        (
            "es",
            "Línea 1, «PanOceania», no importada. Un encabezado: la facción o el nombre de la "
            "lista.",
        ),
    ],
)
def test_the_event_list_link_says_each_line_left_out_in_one_sentence_then_why(
    carol, language, said
):
    """The player's private list link said "Left out: Line 1, “PanOceania”:
    A heading…" (es "No importada: Línea 1, «PanOceania»: Un encabezado…"):
    two colons, a capital after each. The line says it was left out, then
    why, in a sentence of its own."""
    _event, org = event_of(carol, "Ana, PanOceania")
    player = Phone(language)
    player.visit(list_link_of(org, "Ana"))
    [form] = [f for f in player.forms() if "text" in f.names()]
    form.fill({"text": ARMY})
    player.send(form)
    assert said in player.text
    assert ": Line" not in player.text and ": Línea" not in player.text
