"""A match driven through the pure rules, for tests that need no database.

game = Game.started(
    a=[trooper("Hassassin", 40, traits=[HOLOPROJECTOR])],
    b=[trooper("Fusilier", 10)],
    seal_a={"holoecho": {"Hassassin": "marker1"}},
)
game.do("A", DeclareSkill(trooper_id=game.id("Hassassin"), skill="bs_attack"))
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass, field

from tracker import rules
from tracker.rules import player_view
from tracker.rules.sealing import SealDeployment
from tracker.rules.setup import ClaimSeat, LockArmyList, MatchCreated, SetInitiative
from tracker.rules.state import MatchSettings, MatchState

_counter = itertools.count(1)


def trooper(name, cost=20, group=1, silhouette=2, traits=()):
    return {
        "id": f"t{next(_counter):06d}",
        "name": name,
        "cost": cost,
        "combat_group": group,
        "silhouette": silhouette,
        "traits": list(traits),
    }


def nonce(n: int) -> str:
    return f"{n:032x}"


@dataclass
class Game:
    state: MatchState = field(default_factory=MatchState)
    events: list = field(default_factory=list)

    def apply(self, events):
        self.events.extend(events)
        self.state = rules.evolve_all(self.state, events)
        return events

    def do(self, seat: str, command):
        """Decide and apply; returns the new events (RuleViolation propagates)."""
        return self.apply(rules.decide(self.state, seat, command))

    def id(self, name: str) -> str:
        for trooper_ in self.state.troopers.values():
            if trooper_.name == name:
                return trooper_.id
        raise KeyError(name)

    def trooper(self, name: str):
        return self.state.troopers[self.id(name)]

    def view(self, seat):
        return player_view(self.state, seat)

    def kinds(self, events=None):
        return [e.kind for e in (self.events if events is None else events)]

    @classmethod
    def listed(cls, a, b, points=300, rounds=3):
        game = cls()
        game.apply(
            [MatchCreated(name="Test", settings=MatchSettings(points_limit=points, rounds=rounds))]
        )
        game.do("A", ClaimSeat(name="Alice"))
        game.do("B", ClaimSeat(name="Bob"))
        game.do("A", LockArmyList(troopers=a))
        game.do("B", LockArmyList(troopers=b))
        return game

    def seal(
        self,
        seat,
        lieutenant=None,
        hd=None,
        holoecho=None,
        reserve=None,
        he_positions=None,
        holomask=None,
        extra=(),
    ):
        """Seal a seat's deployment. hd: {name: position}, holoecho: {name: element},
        holomask: {name: troop type shown}; extra: more raw secrets (a kind a
        test registers), each given an id and a nonce here."""
        mine = self.state.troopers_of(seat)
        secrets = [
            {
                "id": f"s{next(_counter):06d}",
                "nonce": nonce(next(_counter)),
                "kind": "lieutenant",
                "trooper_id": self.id(lieutenant) if lieutenant else mine[0].id,
            }
        ]
        for name, position in (hd or {}).items():
            secrets.append(
                {
                    "id": f"s{next(_counter):06d}",
                    "nonce": nonce(next(_counter)),
                    "kind": "hd_position",
                    "trooper_id": self.id(name),
                    "position": position,
                }
            )
        for name, element in (holoecho or {}).items():
            secrets.append(
                {
                    "id": f"s{next(_counter):06d}",
                    "nonce": nonce(next(_counter)),
                    "kind": "holoecho",
                    "trooper_id": self.id(name),
                    "real": element,
                    "positions": (he_positions or {}).get(name, {}),
                }
            )
        for name, shown in (holomask or {}).items():
            secrets.append(
                {
                    "id": f"s{next(_counter):06d}",
                    "nonce": nonce(next(_counter)),
                    "kind": "holomask_type",
                    "trooper_id": self.id(name),
                    "masked_as": shown,
                    "masked_cost": 15,
                }
            )
        if reserve:
            secrets.append(
                {
                    "id": f"s{next(_counter):06d}",
                    "nonce": nonce(next(_counter)),
                    "kind": "reserve",
                    "trooper_id": self.id(reserve),
                }
            )
        for raw in extra:
            secrets.append({"id": f"s{next(_counter):06d}", "nonce": nonce(next(_counter)), **raw})
        return self.do(seat, SealDeployment(secrets=secrets))

    @classmethod
    def started(cls, a, b, first="A", seal_a=None, seal_b=None, points=300, rounds=3):
        """Lists locked, initiative set, both deployments sealed: Round 1 begins."""
        game = cls.listed(a, b, points=points, rounds=rounds)
        game.do("A", SetInitiative(first_turn=first, deploys_first=first))
        game.seal("A", **(seal_a or {}))
        game.seal("B", **(seal_b or {}))
        return game
