"""The audit timeline says who did what, in English and Spanish: the first
event a tap appended is its author's action; the others came with it
("same tap as #n": the rules' consequence of it, such as HD-1 hiding a
trooper when the list locks, or more of the same action, such as the
deployment sealed after its secrets), never "declared" for what nobody
declared nor "rules decided" for what the player did. While the match is in
play and its sealed information closed, the event right after a sealed one
says neither: either would tell who appended the sealed event, and when.
Through the organizer's audit page."""

from __future__ import annotations

import pytest
from bs4 import BeautifulSoup

from tests.web.organizer_table import audit_page, finished, playing
from tracker.models import MatchEvent

pytestmark = pytest.mark.django_db


def who_column(html: str) -> dict[int, str]:
    """seq -> the label under the timeline's "Who" cell ("" for none)."""
    soup = BeautifulSoup(html, "lxml")
    out = {}
    for row in soup.select("#timeline tbody tr"):
        seq = int(row["id"].removeprefix("event-"))
        hint = row.select("td")[2].select_one(".hint")
        out[seq] = " ".join(hint.get_text(" ").split()) if hint else ""
    return out


def seq_of(match, kind: str, actor: str) -> int:
    return MatchEvent.objects.get(match=match, kind=kind, actor=actor).seq


def test_each_tap_reads_as_its_authors_action_and_what_came_with_it(alice, bob, carol):
    a, _b = finished(alice, bob)
    match = a.match
    locked = seq_of(match, "ArmyListLocked", "A")
    hidden = seq_of(match, "HiddenTroopersEnlisted", "A")  # HD-1, in the lock's tap
    secrets = seq_of(match, "SecretsSealed", "B")
    deployed = seq_of(match, "DeploymentSealed", "B")
    turn = MatchEvent.objects.filter(match=match, kind="PlayerTurnStarted").first().seq
    claimed = seq_of(match, "SeatClaimed", "A")
    proposed = seq_of(match, "ResultProposed", "A")
    assert hidden == locked + 1 and (deployed, turn) == (secrets + 1, secrets + 2)

    for language, action, same in (
        ("en", "their action", "same tap as #{}"),
        ("es", "su acción", "mismo toque que #{}"),
    ):
        carol.defaults["HTTP_ACCEPT_LANGUAGE"] = language
        html = audit_page(carol, match)
        labels = who_column(html)
        # A seat claimed, a result proposed: nothing was declared, and it
        # was the player's own doing.
        for seq in (claimed, proposed, locked, secrets):
            assert labels[seq] == action, (language, seq, labels[seq])
        assert labels[hidden] == same.format(locked)
        # Sealing the deployment is the player's, though it came second in
        # the tap: it is not said to be the rules' decision.
        assert labels[deployed] == same.format(secrets)
        assert labels[turn] == same.format(secrets)
        text = " ".join(labels.values())
        for old in ("declared", "rules decided", "declarado", "decidido por las reglas"):
            assert old not in text


def test_in_play_the_event_after_a_sealed_one_does_not_say_whose_tap_it_was(alice, bob, carol):
    a, _b = playing(alice, bob)
    match = a.match
    secrets = seq_of(match, "SecretsSealed", "B")  # private to B, sealed from this audit
    deployed = seq_of(match, "DeploymentSealed", "B")
    turn = deployed + 1
    b_locked = seq_of(match, "ArmyListLocked", "B")  # a tap of its own, after A's sealed event
    for language, same in (("en", "same tap as #{}"), ("es", "mismo toque que #{}")):
        carol.defaults["HTTP_ACCEPT_LANGUAGE"] = language
        html = audit_page(carol, match)
        soup = BeautifulSoup(html, "lxml")
        assert "role-sealed" in soup.select_one(f"#event-{secrets}")["class"]
        labels = who_column(html)
        # Whether these came with the sealed event before them is not said,
        # whichever is true (B's list lock did not, B's deployment did).
        assert labels[deployed] == "" and labels[b_locked] == ""
        # What came with an event shown is said, with that event's seq.
        assert labels[turn] == same.format(deployed)
