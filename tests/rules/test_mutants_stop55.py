"""What planted faults in the rules showed untested (visibility.py, HE-9)."""

from tracker.rules.holoecho import PlaceHoloechoToken
from tracker.rules.orders import EndOrder
from tracker.rules.sealing import RevealSecret
from tracker.rules.state import (
    CAMOUFLAGE,
    HIDDEN_DEPLOYMENT,
    HOLOMASK,
    HOLOPROJECTOR,
    LIEUTENANT,
    LIEUTENANT_CANDIDATE,
    ORDERS,
)
from tracker.rules.visibility import log_for

from .game import Game, trooper
from .hidden_games import NINJA_AT, army_b, declare, end_order, report, to_phase


def ninja_lieutenant_as_a_marker() -> Game:
    """Alice's Lieutenant is her hidden Camouflaged Ninja, which moves and
    goes down as "Camouflage marker 1" (HD-C2, HD-C3)."""
    a = [
        trooper("Ninja", 30, traits=[HIDDEN_DEPLOYMENT, CAMOUFLAGE, LIEUTENANT_CANDIDATE]),
        trooper("Kaplan", 20, traits=[LIEUTENANT_CANDIDATE]),
    ]
    game = Game.started(a, army_b(), seal_a={"lieutenant": "Ninja", "hd": {"Ninja": NINJA_AT}})
    to_phase(game, ORDERS)
    declare(game, "Ninja", "move", as_marker=True)
    return game


def test_the_owner_s_own_reveal_of_a_seal_naming_a_marker_reaches_the_opponent_hd_c3():
    """HD-C3 keeps a seal naming a marker's trooper closed to the opponent
    when a rule reveals it (HE-C7), but its owner's own reveals are its
    choice: Alice reveals her Lieutenant, still Camouflage marker 1, and Bob
    (and a spectator) reads the seal open, its proof checked, the reveal's
    line with its payload and nonce."""
    game = ninja_lieutenant_as_a_marker()
    [lieutenant] = [s for s in game.state.secrets_of("A") if s.kind == LIEUTENANT]
    game.do("A", RevealSecret(secret_id=lieutenant.id))
    assert game.trooper("Ninja").marker  # the reveal does not end the marker state
    for viewer in ("B", None):
        seen = {s.id: s for s in game.view(viewer).seat("A").secrets}[lieutenant.id]
        assert seen.revealed and seen.revealed_rule == "owner"
        assert seen.payload is not None and seen.payload["trooper_id"] == game.id("Ninja")
        assert seen.verified is True and seen.nonce == lieutenant.nonce
        log = log_for(game.state, list(enumerate(game.events, 1)), viewer)
        [line] = [line for line in log if line.kind == "SecretRevealed"]
        assert line.params["payload"]["trooper_id"] == game.id("Ninja")
        assert line.params["nonce"] == lieutenant.nonce


def holomask_game() -> Game:
    """Alice's HoloMask Hassassin in Holoecho (HE-9) and her Lieutenant."""
    a = [
        trooper("Hassassin", 40, traits=[HOLOPROJECTOR, HOLOMASK]),
        trooper("Kaplan", 20, traits=[LIEUTENANT_CANDIDATE]),
    ]
    game = Game.started(
        a,
        army_b(),
        seal_a={
            "lieutenant": "Kaplan",
            "holoecho": {"Hassassin": "marker1"},
            "holomask": {"Hassassin": "Ghulam"},
        },
    )
    to_phase(game, ORDERS)
    return game


def test_he_9_a_holomask_trooper_whose_holoecho_ended_ends_its_order_without_a_token():
    """HE-9's token goes beside one of the Holoechoes. The Hassassin's first
    Order puts it down; Bob hits the real one (HE-C5): Holoecho ends, the
    token with it, and the Hassassin's next Order ends with no token to
    place, as there is nothing to place it beside."""
    game = holomask_game()
    declare(game, "Hassassin", "move")
    game.do("A", PlaceHoloechoToken(trooper_id=game.id("Hassassin"), element="marker2"))
    report(game, "saving_roll", "Hassassin", element="marker1")
    end_order(game)
    assert game.trooper("Hassassin").holoechoes == ()
    assert not game.trooper("Hassassin").holoecho_token
    declare(game, "Hassassin", "move")
    game.do("A", EndOrder())
