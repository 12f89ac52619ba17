"""A PIN move in the moment between a claim taking the seat's row and its
claim reaching the log (bench/claim_round.py: at a round's start a claim
may wait for the write lock after its row is saved).

The seat's row is claimed, so a second browser that opens the seat link is
offered the PIN form, and the right PIN moves the seat to it. Its
"moved to another phone" line could not be written yet (the log has no
claim to move), and the refusal escaped as a 500 with a traceback. Now the
phone that moved the seat holds it and goes to its match, and the claim's
line, when it lands, is the log's first word on the seat."""

from __future__ import annotations

from urllib.parse import urlparse

import pytest

from tracker import actions
from tracker.models import MatchEvent

from .phone import Phone

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize("language", ["en", "es"])
def test_a_pin_move_before_the_claim_is_logged_holds_the_seat(language, monkeypatch):
    host = Phone(language)
    links = host.create_match(name="Mesa 4")
    path = urlparse(links["A"]).path
    player = Phone(language)
    player.visit(path)
    [claim] = [f for f in player.forms() if "pin" in f.names()]
    claim.fill({"name": "Alicia"})
    [pin] = [value for name, value in claim.fields() if name == "pin"]
    second = Phone(language)
    answers = []
    real_perform = actions.perform

    def second_phone_moves_first(match, seat, command, *args, **kwargs):
        # The claim's row is saved; its line is not in the log yet.
        if type(command).__name__ == "ClaimSeat" and not answers:
            second.visit(path)
            [move] = [f for f in second.forms() if "pin" in f.names()]
            move.fill({"pin": pin})
            answers.append(second.send(move))
        return real_perform(match, seat, command, *args, **kwargs)

    monkeypatch.setattr(actions, "perform", second_phone_moves_first)
    player.send(claim)
    [answer] = answers
    assert answer.status_code == 200, answer.status_code
    assert urlparse(second.url).path == f"/m/{host.code}/"
    second.open(host.code)
    live = second.soup.select_one("#live")
    assert live is not None and live.get("data-seat") == "A"
    kinds = list(
        MatchEvent.objects.filter(match__code=host.code, kind__in=("SeatClaimed", "SeatMoved"))
        .order_by("seq")
        .values_list("kind", flat=True)
    )
    assert kinds == ["SeatClaimed"]
