"""Matches with Hidden Deployment, Camouflage and Holoprojector troopers, for
the HD / HE / RP tests. Written positions carry canary words so a test can
search the opponent's view for them."""

from __future__ import annotations

from tracker.rules.orders import DeclareAro, DeclareSkill, EndOrder, ReportOutcome
from tracker.rules.state import (
    CAMOUFLAGE,
    HIDDEN_DEPLOYMENT,
    HOLOPROJECTOR,
    INFILTRATION,
    LIEUTENANT_CANDIDATE,
)

from .game import Game, trooper
from .steps import advance

NINJA_AT = "NINJACANARY behind the blue container, prone, facing north"
YAOGAT_AT = "YAOGATCANARY in the ruined tower"
SPECTRE_AT = "SPECTRECANARY under the bridge"


def army_a(holo_silhouette: int = 2):
    return [
        trooper("Ninja", 30, traits=[HIDDEN_DEPLOYMENT, CAMOUFLAGE]),
        trooper("Yaogat", 25, traits=[HIDDEN_DEPLOYMENT, INFILTRATION]),
        trooper("Hassassin", 40, silhouette=holo_silhouette, traits=[HOLOPROJECTOR]),
        trooper("Kaplan", 20, traits=[LIEUTENANT_CANDIDATE]),
    ]


def army_b():
    return [trooper("Fusilier", 10, traits=[LIEUTENANT_CANDIDATE]), trooper("Bolt", 15)]


def started(real: str = "marker1", first: str = "A", holo_silhouette: int = 2) -> Game:
    """Alice (A) has two hidden troopers and a Holoecho trooper; Bob (B) none."""
    return Game.started(
        army_a(holo_silhouette),
        army_b(),
        first=first,
        seal_a={
            "lieutenant": "Kaplan",
            "hd": {"Ninja": NINJA_AT, "Yaogat": YAOGAT_AT},
            "holoecho": {"Hassassin": real},
        },
    )


def hidden_holo_game(real: str = "marker2") -> Game:
    """A Holoecho trooper that is also in Hidden Deployment (FAQ)."""
    a = [
        trooper("Spectre", 40, traits=[HIDDEN_DEPLOYMENT, HOLOPROJECTOR]),
        trooper("Kaplan", 20, traits=[LIEUTENANT_CANDIDATE]),
    ]
    return Game.started(
        a,
        army_b(),
        seal_a={
            "lieutenant": "Kaplan",
            "hd": {"Spectre": SPECTRE_AT},
            "holoecho": {"Spectre": real},
            "he_positions": {
                "Spectre": {
                    "model": "HEMODELCANARY roof",
                    "marker1": "HEONECANARY street",
                    "marker2": "HETWOCANARY tower",
                }
            },
        },
    )


def to_phase(game: Game, phase: str) -> None:
    while game.state.turn.phase != phase:
        advance(game)


def end_turn(game: Game) -> None:
    seat = game.state.turn.seat
    while game.state.turn.seat == seat:
        advance(game)


def declare(game: Game, name: str, skill: str, seat: str = "A", **kw):
    return game.do(seat, DeclareSkill(trooper_id=game.id(name), skill=skill, **kw))


def aro(game: Game, name: str, skill: str, target: str = "", element: str = "", **kw):
    seat = game.trooper(name).seat
    return game.do(
        seat,
        DeclareAro(
            trooper_id=game.id(name),
            skill=skill,
            target_id=game.id(target) if target else "",
            target_element=element,
            **kw,
        ),
    )


def report(game: Game, outcome: str, name: str, element: str = "", by: str = "B"):
    return game.do(by, ReportOutcome(outcome=outcome, trooper_id=game.id(name), element=element))


def end_order(game: Game):
    return game.do(game.state.turn.seat, EndOrder())


def secret(game: Game, name: str, kind: str):
    """The latest secret of `kind` about the trooper called `name`."""
    trooper_id = game.id(name)
    found = [
        s for s in game.state.secrets.values() if s.kind == kind and s.trooper_id == trooper_id
    ]
    return max(found, key=lambda s: s.sealed_seq)


def of_kind(events, kind: str):
    return [e for e in events if e.kind == kind]
