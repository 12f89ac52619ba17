"""The run page's buttons from a page that is behind the event: a second
laptop of the same organizer, a tap sent again after a stalled answer,
Back after publishing (issue 21). Each button says what it meant (the state
its page showed, in hidden fields); a server already past it says so in
the organizer's language and changes nothing. Before, the one "Drop" /
"Back in" button toggled (a second "Drop" brought the player back), a
second "Publish" answered "Draw the round before publishing it." for a
round just published, a "Publish" from a page drawn before another laptop's
swap created tables nobody had seen, and a "Draw the next round" threw a
round drawn and swapped on another laptop away. Through the run page's
rendered forms."""

from __future__ import annotations

import re

import pytest

from tests.web.rendered_forms import submit
from tests.web.test_event_running import Organizer, roster_row, three_players
from tracker.models import EventPlayer, EventRound, Match, TournamentEvent

pytestmark = pytest.mark.django_db


def four_players(carol) -> Organizer:
    event = TournamentEvent.objects.create(name="Open de invierno")
    org = Organizer(carol, event)
    players = "Ana, PanOceania\nBea, Yu Jing\nCai, Nomads\nDan, Haqqislam"
    assert org.submit("/roster/paste/", players=players).status_code == 302
    return org


DROPPED = {
    "en": "Bea has already dropped: not paired from round 1 on.",
    "es": "Bea ya se ha retirado: no se le empareja desde la ronda 1.",
}


@pytest.mark.parametrize("lang", ["en", "es"])
def test_a_second_drop_of_the_same_player_leaves_them_dropped(carol, lang):
    carol.defaults["HTTP_ACCEPT_LANGUAGE"] = lang
    org = four_players(carol)
    second_laptop = str(roster_row(org, "Bea"))
    assert submit(carol, second_laptop, "/drop/").status_code == 302
    # The other laptop (or the same tap sent again) drops her too.
    assert submit(carol, second_laptop, "/drop/").status_code == 302
    assert EventPlayer.objects.get(name="Bea").dropped
    assert DROPPED[lang] in org.text()


ALREADY_PUBLISHED = {"en": "Round 1 is already published.", "es": "La ronda 1 ya está publicada."}


@pytest.mark.parametrize("lang", ["en", "es"])
def test_publish_sent_again_says_the_round_is_published_and_creates_nothing(carol, lang):
    carol.defaults["HTTP_ACCEPT_LANGUAGE"] = lang
    org = four_players(carol)
    assert org.submit("/rounds/draw/", seed=7).status_code == 302
    drawn = org.page()
    assert submit(carol, drawn, "/rounds/publish/").status_code == 302
    # Back to the drawn page, or the tap sent again after a stalled answer.
    assert submit(carol, drawn, "/rounds/publish/").status_code == 302
    assert ALREADY_PUBLISHED[lang] in org.text()
    assert Match.objects.filter(event=org.event, event_round=1).count() == 2


SWAPPED_ELSEWHERE = {
    "en": "The pairings of round 1 changed on another device: check them, then publish.",
    "es": "Los emparejamientos de la ronda 1 han cambiado en otro dispositivo: revísalos y luego publica.",
}


@pytest.mark.parametrize("lang", ["en", "es"])
def test_publish_from_a_page_drawn_before_a_swap_elsewhere_publishes_nothing(carol, lang):
    carol.defaults["HTTP_ACCEPT_LANGUAGE"] = lang
    org = four_players(carol)
    assert org.submit("/rounds/draw/", seed=7).status_code == 302
    first_laptop = org.page()
    pending = EventRound.objects.get(event=org.event, number=1)
    (a, _b), (c, _d) = pending.pairs
    assert org.submit("/rounds/swap/", one=a, two=c).status_code == 302
    assert submit(carol, first_laptop, "/rounds/publish/").status_code == 302
    assert not Match.objects.filter(event=org.event).exists()
    assert SWAPPED_ELSEWHERE[lang] in org.text()
    # From the page as it is now, the swapped round publishes.
    assert org.submit("/rounds/publish/").status_code == 302
    assert Match.objects.filter(event=org.event, event_round=1).count() == 2


DRAWN_ELSEWHERE = {
    "en": (
        "Round 1 is already drawn (by a tap sent twice, or on another device): "
        "check its pairings before drawing it again."
    ),
    "es": (
        "La ronda 1 ya está sorteada (por un toque enviado dos veces, o en otro dispositivo): "
        "revisa sus emparejamientos antes de volver a sortearla."
    ),
}


@pytest.mark.parametrize("lang", ["en", "es"])
def test_draw_from_a_page_before_another_laptop_drew_keeps_its_swap(carol, lang):
    carol.defaults["HTTP_ACCEPT_LANGUAGE"] = lang
    org = four_players(carol)
    second_laptop = org.page()
    assert org.submit("/rounds/draw/", seed=7).status_code == 302
    pending = EventRound.objects.get(event=org.event, number=1)
    (a, _b), (c, _d) = pending.pairs
    assert org.submit("/rounds/swap/", one=a, two=c).status_code == 302
    swapped = EventRound.objects.get(pk=pending.pk).pairs
    assert submit(carol, second_laptop, "/rounds/draw/").status_code == 302
    assert EventRound.objects.get(pk=pending.pk).pairs == swapped
    assert DRAWN_ELSEWHERE[lang] in org.text()


@pytest.mark.parametrize("lang", ["en", "es"])
def test_two_laptops_drawing_round_1_at_once_keep_one_round(carol, lang, monkeypatch):
    """Both pages showed no round drawn, and both taps read so before either
    wrote: the second's insert met the first's round 1 (unique per event)
    and was answered a 500 with a traceback. The race is played as the
    database plays it to the second (the insert refused, as
    test_write_path_races does for a tap's seq): it is told the round is
    drawn on another device, and writes nothing of its own."""
    from django.db import IntegrityError

    carol.defaults["HTTP_ACCEPT_LANGUAGE"] = lang
    org = four_players(carol)
    lost = []

    def the_other_laptop_inserted_it_first(**values):
        lost.append(values["number"])
        raise IntegrityError("UNIQUE constraint failed: tracker_eventround.event_id, number")

    monkeypatch.setattr(EventRound.objects, "create", the_other_laptop_inserted_it_first)
    assert org.submit("/rounds/draw/", seed=7).status_code == 302
    assert lost == [1]
    assert not EventRound.objects.filter(event=org.event).exists()
    assert DRAWN_ELSEWHERE[lang] in org.text()


PAUSED = {
    "en": "The clock of round 1 is already paused.",
    "es": "El reloj de la ronda 1 ya está en pausa.",
}


@pytest.mark.parametrize("lang", ["en", "es"])
def test_pause_from_a_page_behind_says_the_clock_is_paused(carol, lang):
    carol.defaults["HTTP_ACCEPT_LANGUAGE"] = lang
    _event, org = three_players(carol)
    assert org.submit("/clock/start/", within="#round-1").status_code == 302
    second_laptop = org.page()
    assert org.submit("/clock/pause/", within="#round-1").status_code == 302
    assert submit(carol, second_laptop, "/clock/pause/", within="#round-1").status_code == 302
    assert PAUSED[lang] in org.text()


BEFORE_ROUND_1 = {"en": "Bea · dropped before round 1", "es": "Bea · baja antes de la ronda 1"}


@pytest.mark.parametrize("lang", ["en", "es"])
def test_a_player_dropped_before_the_first_round_is_not_said_to_have_played_round_0(carol, lang):
    carol.defaults["HTTP_ACCEPT_LANGUAGE"] = lang
    org = four_players(carol)
    assert submit(carol, str(roster_row(org, "Bea")), "/drop/").status_code == 302
    row = " ".join(roster_row(org, "Bea").get_text(" ").split())
    assert BEFORE_ROUND_1[lang] in row
    # (The row also holds her list link, whose random code may hold a 0.)
    assert not re.search(r"\b(round|ronda) 0\b", row), row


@pytest.mark.parametrize("lang", ["en", "es"])
def test_draw_sent_twice_from_one_page_keeps_the_first_draw_and_says_why(carol, lang):
    """ "Draw the next round" tapped again after a stalled answer (or Back
    and send): the second tap is refused, and the refusal no longer says
    "on another device" to an organizer with one laptop."""
    carol.defaults["HTTP_ACCEPT_LANGUAGE"] = lang
    org = four_players(carol)
    page = org.page()
    assert submit(carol, page, "/rounds/draw/", seed=7).status_code == 302
    drawn = EventRound.objects.get(event=org.event, number=1).pairs
    assert submit(carol, page, "/rounds/draw/", seed=8).status_code == 302
    assert EventRound.objects.get(event=org.event, number=1).pairs == drawn
    assert DRAWN_ELSEWHERE[lang] in org.text()
