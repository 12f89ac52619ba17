"""HoloMask (HE-9): the points sealed for the masked line."""

import pytest

from tracker.rules.errors import InvalidInput
from tracker.rules.setup import SetInitiative
from tracker.rules.state import HOLOMASK, HOLOMASK_TYPE

from .game import Game, trooper


@pytest.mark.parametrize(("cost", "accepted"), [(0, True), (200, True), (201, False), (-1, False)])
def test_the_masked_points_are_those_of_an_army_list_row_he_9(cost, accepted):
    """HE-9: the masked line shows points like any row of a list (0..200)."""
    game = Game.listed(
        [trooper("Shasvastii", 40, traits=[HOLOMASK]), trooper("Kaplan", 20)],
        [trooper("Fusilier", 10)],
    )
    game.do("A", SetInitiative(first_turn="A", deploys_first="A"))
    mask = {
        "kind": HOLOMASK_TYPE,
        "trooper_id": game.id("Shasvastii"),
        "masked_as": "Fusilier",
        "masked_cost": cost,
    }
    if accepted:
        game.seal("A", lieutenant="Kaplan", extra=[mask])
        sealed = next(s for s in game.state.secrets.values() if s.kind == HOLOMASK_TYPE)
        assert sealed.payload["masked_cost"] == cost
    else:
        with pytest.raises(InvalidInput):
            game.seal("A", lieutenant="Kaplan", extra=[mask])
        assert not game.state.seat("A").deployment_sealed
