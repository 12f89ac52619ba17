"""Attack: an event's table sheet, left on the table as it says, carries both
seats' codes. A seat was filled with its player's handed list when the
round was published, so whoever scanned the other seat's code first (the
opponent, in a private tab, before its player arrived) read that player's
whole list, Hidden Deployment troopers included.

A handed list now goes only to the player's own browser: the one that
holds the seat and has opened the player's list link (or handed the list
in from a match). Anyone else who takes the seat finds an empty draft."""

from __future__ import annotations

import pytest
from django.utils import translation

from tracker.models import Seat, TournamentEvent

from .phone import Phone
from .test_event_list_link_words import paste
from .test_event_running import Organizer, list_link_of, pairings_of

pytestmark = pytest.mark.django_db

BEA_ARMY = """Yu Jing
Event list

GROUP 1 3 0

ZHANSHI (Lieutenant) Combi Rifle / Pistol, Knife. (0 | 10)
NINJA (Hidden Deployment, Camouflage) Tactical Bow / Pistol, Knife. (0 | 26)
"""
ANA_ARMY = """PanOceania
Event list

GROUP 1 3 0

FUSILIER (Lieutenant) Combi Rifle / Pistol, Knife. (0 | 10)
BOLT Combi Rifle / Pistol. (0 | 15)
"""


def round_one(carol) -> tuple[Organizer, dict[str, str], object]:
    """Ana and Bea on the roster, their lists in through their links (each on
    her own phone), round 1 published."""
    event = TournamentEvent.objects.create(name="Liga")
    org = Organizer(carol, event)
    roster = "Ana Arroyo, PanOceania\nBea Blanco, Yu Jing"
    assert org.submit("/roster/paste/", players=roster).status_code == 302
    links = {name: list_link_of(org, name) for name in ("Ana Arroyo", "Bea Blanco")}
    assert org.submit("/rounds/draw/", seed=1).status_code == 302
    response = org.submit("/rounds/publish/", points_limit=300, rounds=3, minutes=90)
    assert response.status_code == 302
    [(_table, match, _a, _b)] = pairings_of(event, 1)
    return org, links, match


def sheet_links(carol, match) -> dict[str, str]:
    """Each seat's link as the printed sheet carries it."""
    sheet = carol.get(f"/organizer/matches/{match.code}/sheet/").content.decode()
    found = {}
    for seat in match.seats.all():
        link = f"/m/{match.code}/s/{seat.token}/"
        assert link in sheet
        found[seat.listed_name] = link
    return found


def hint(language: str) -> str:
    with translation.override(language):
        return translation.gettext(
            "You have handed a list to the organizer of %(event)s. To start with it here, "
            "open your list link on this phone: only your phone is given your list."
        ) % {"event": "Liga"}


@pytest.mark.parametrize("language", ["en", "es"])
def test_attack_the_other_seats_code_on_the_sheet_shows_none_of_its_players_list(carol, language):
    org, links, match = round_one(carol)
    paste(links["Bea Blanco"], BEA_ARMY)  # from her laptop, at home
    seats = sheet_links(carol, match)
    # Ana, at the table first, scans Bea's code in a private tab.
    snoop = Phone(language)
    snoop.claim(seats["Bea Blanco"], "Bea Blanco")
    assert "NINJA" not in snoop.html.upper() and "ZHANSHI" not in snoop.html.upper()
    assert Seat.objects.get(match=match, listed_name="Bea Blanco").draft == []
    assert hint(language) in snoop.text
    # Nor in the blocks the page asks for after a push.
    partial = snoop.app.get(f"/m/{match.code}/blocks/", headers={"HX-Request": "true"})
    assert b"NINJA" not in partial.body.upper()
    # Nor once Bea replaces her list before the lock, from her laptop again.
    paste(links["Bea Blanco"], BEA_ARMY.replace("(0 | 26)", "(0 | 27)"))
    assert Seat.objects.get(match=match, listed_name="Bea Blanco").draft == []
    snoop.visit(f"/m/{match.code}/")
    assert "NINJA" not in snoop.html.upper()


@pytest.mark.parametrize("language", ["en", "es"])
def test_a_player_whose_phone_opens_her_list_link_starts_with_her_list(carol, language):
    org, links, match = round_one(carol)
    seats = sheet_links(carol, match)
    # Ana handed her list in on the phone she plays on: her seat starts with it.
    ana = paste(links["Ana Arroyo"], ANA_ARMY, Phone(language))
    ana.claim(seats["Ana Arroyo"], "Ana Arroyo")
    assert "FUSILIER" in ana.html.upper() and "BOLT" in ana.html.upper()
    # Bea handed hers in from her laptop; on her phone the seat starts empty...
    paste(links["Bea Blanco"], BEA_ARMY)
    bea = Phone(language)
    bea.claim(seats["Bea Blanco"], "Bea Blanco")
    assert "NINJA" not in bea.html.upper()
    assert hint(language) in bea.text
    # ...until she opens her list link on it, as the page tells her.
    bea.visit(links["Bea Blanco"])
    bea.visit(f"/m/{match.code}/")
    assert "NINJA" in bea.html.upper() and "ZHANSHI" in bea.html.upper()
    assert hint(language) not in bea.text
    # Her opponent's page still shows none of it.
    ana.visit(f"/m/{match.code}/")
    assert "NINJA" not in ana.html.upper() and "ZHANSHI" not in ana.html.upper()


@pytest.mark.parametrize("language", ["en", "es"])
def test_attack_a_seat_taken_by_its_code_before_its_player_hands_a_list_in_gets_none(
    carol, language
):
    """The snoop takes Bea's seat before Bea has handed any list in: the
    empty draft there is not a list Bea's browser was given, so her first
    list, and the one replacing it, stay off the snoop's phone."""
    org, links, match = round_one(carol)
    seats = sheet_links(carol, match)
    snoop = Phone(language)
    snoop.claim(seats["Bea Blanco"], "Bea Blanco")
    paste(links["Bea Blanco"], BEA_ARMY)  # from her laptop, at home
    snoop.visit(f"/m/{match.code}/")
    assert "NINJA" not in snoop.html.upper() and "ZHANSHI" not in snoop.html.upper()
    assert hint(language) in snoop.text
    assert Seat.objects.get(match=match, listed_name="Bea Blanco").draft == []
    paste(links["Bea Blanco"], BEA_ARMY.replace("(0 | 26)", "(0 | 27)"))
    snoop.visit(f"/m/{match.code}/")
    assert "NINJA" not in snoop.html.upper()


@pytest.mark.parametrize("language", ["en", "es"])
def test_attack_a_player_who_opened_her_own_list_link_gets_none_of_her_opponents_list(
    carol, language
):
    """Opening a list link proves this browser is that one player's, not any
    player's of the event: Ana, whose phone handed her own list in through
    her link, scans Bea's code from the sheet and finds an empty draft."""
    org, links, match = round_one(carol)
    seats = sheet_links(carol, match)
    paste(links["Bea Blanco"], BEA_ARMY)  # from her laptop, at home
    ana = paste(links["Ana Arroyo"], ANA_ARMY, Phone(language))
    ana.claim(seats["Bea Blanco"], "Bea Blanco")
    assert "NINJA" not in ana.html.upper() and "ZHANSHI" not in ana.html.upper()
    assert hint(language) in ana.text
    assert Seat.objects.get(match=match, listed_name="Bea Blanco").draft == []
    # Nor when she opens her own link again with Bea's seat held.
    ana.visit(links["Ana Arroyo"])
    ana.visit(f"/m/{match.code}/")
    assert "NINJA" not in ana.html.upper()
