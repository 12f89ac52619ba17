"""RT-5 and HoloMask (HE-9) with more than one masked trooper: what planted
faults in tracker/rules/holomask.py showed no test checked.

- RT-5: Retreat! ends HoloMask for every masked trooper still in the game,
  each revealed with its proof, and the log says it was Retreat! that
  ended it (the owner's own reveal says only that HoloMask ends).
- A masked trooper already out of action keeps its seal at Retreat!: it is
  no longer on the table to lose its mask, and the opponent does not learn
  what it was (as with a hidden trooper out of action at Retreat!).
- HE-9: a mask sealed without its points is refused, not shown at 0."""

import pytest

from tracker.rules.errors import InvalidInput
from tracker.rules.retreat import RETREAT_ENTERED
from tracker.rules.sealing import RevealSecret
from tracker.rules.setup import SetInitiative
from tracker.rules.state import DEAD, HOLOMASK, HOLOMASK_TYPE, HOLOPROJECTOR
from tracker.rules.visibility import log_for

from .game import Game, trooper
from .hidden_games import secret
from .steps import set_state
from .test_holomask import SHOWN, TRUE_TYPE


def three_masked() -> Game:
    return Game.started(
        [
            trooper(TRUE_TYPE, 40, traits=[HOLOPROJECTOR, HOLOMASK]),
            trooper("Shasvastii", 30, traits=[HOLOMASK]),
            trooper("Speculo", 30, traits=[HOLOMASK]),
            trooper("Kaplan", 20),
        ],
        [trooper("Fusilier", 10), trooper("Bolt", 15)],
        seal_a={
            "lieutenant": "Kaplan",
            "holoecho": {TRUE_TYPE: "marker1"},
            "holomask": {TRUE_TYPE: SHOWN, "Shasvastii": "Bolt", "Speculo": "Zhanshi"},
        },
    )


def bobs_lines(game, kind: str) -> list[str]:
    log = log_for(game.state, list(enumerate(game.events, 1)), "B")
    return [line.message % line.params for line in log if line.kind == kind]


def test_retreat_ends_every_mask_still_in_the_game_and_says_so_rt_5():
    game = three_masked()
    set_state(game, "Speculo", DEAD, by="A")
    for hook in RETREAT_ENTERED:
        game.apply(hook(game.state, "A"))
    seen = {s.id: s for s in game.view("B").seat("A").secrets}
    for name in (TRUE_TYPE, "Shasvastii"):
        mask = seen[secret(game, name, HOLOMASK_TYPE).id]
        assert mask.revealed_rule == "RT-5" and mask.verified
        assert game.view("B").trooper(game.id(name)).name == name
    assert sorted(bobs_lines(game, "HoloMaskEnded")) == [
        "Retreat! ends HoloMask (RT-5): the trooper shown as Bolt is Shasvastii, as sealed.",
        f"Retreat! ends HoloMask (RT-5): the trooper shown as {SHOWN} is {TRUE_TYPE}, as sealed.",
    ]
    # The one already out of action keeps its seal: Bob never reads "Speculo".
    dead = secret(game, "Speculo", HOLOMASK_TYPE)
    assert not dead.revealed
    assert dead.id not in seen
    assert "Speculo" not in repr(game.view("B"))


def test_the_owners_reveal_says_only_that_holomask_ends_he_9():
    game = three_masked()
    game.do("A", RevealSecret(secret_id=secret(game, "Shasvastii", HOLOMASK_TYPE).id))
    assert bobs_lines(game, "HoloMaskEnded") == [
        "HoloMask ends: the trooper shown as Bolt is Shasvastii, as sealed."
    ]


@pytest.mark.parametrize("points", [None, ""])
def test_a_mask_sealed_without_its_points_is_refused_he_9(points):
    game = Game.listed(
        [trooper("Shasvastii", 40, traits=[HOLOMASK]), trooper("Kaplan", 20)],
        [trooper("Fusilier", 10)],
    )
    game.do("A", SetInitiative(first_turn="A", deploys_first="A"))
    mask = {"kind": HOLOMASK_TYPE, "trooper_id": game.id("Shasvastii"), "masked_as": "Bolt"}
    if points is not None:
        mask["masked_cost"] = points
    with pytest.raises(InvalidInput) as refused:
        game.seal("A", lieutenant="Kaplan", extra=[mask])
    assert "(HE-9)" in refused.value.message
    assert not game.state.seat("A").deployment_sealed
