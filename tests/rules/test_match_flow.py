"""The shape of a match: lists, initiative, sealing, turns and phases."""

from dataclasses import replace

import pytest

from tracker import rules
from tracker.rules.commitments import commit, fingerprint
from tracker.rules.conditions import SetTrooperState, UndoLastStep
from tracker.rules.errors import NotAllowed, UnknownElement
from tracker.rules.orders import DeclareSkill, EndOrder
from tracker.rules.sealing import RevealSecret
from tracker.rules.setup import LockArmyList
from tracker.rules.state import (
    DEPLOYMENT,
    FINISHED,
    HIDDEN_DEPLOYMENT,
    HOLOPROJECTOR,
    LIEUTENANT_CANDIDATE,
    ORDERS,
    PLAYING,
    STATES,
    TACTICAL,
    frozen_map,
)
from tracker.rules.turns import AdvancePhase

from .game import Game, trooper
from .steps import advance, to_phase


def two_lists():
    a = [
        trooper("Hassassin Ayyar", 40, traits=[HOLOPROJECTOR]),
        trooper("Ninja", 30, traits=[HIDDEN_DEPLOYMENT]),
        trooper("Kaplan", 20, traits=[LIEUTENANT_CANDIDATE]),
    ]
    b = [trooper("Fusilier", 10, traits=[LIEUTENANT_CANDIDATE]), trooper("Bolt", 15)]
    return a, b


def started_with_secrets() -> Game:
    """Alice's Lieutenant, hidden Ninja and real Holoecho sealed; Round 1 on."""
    a, b = two_lists()
    return Game.started(
        a,
        b,
        seal_a={
            "lieutenant": "Kaplan",
            "hd": {"Ninja": "roof"},
            "holoecho": {"Hassassin Ayyar": "marker1"},
        },
    )


def test_locking_a_list_over_the_points_limit_is_refused():
    game = Game.listed([trooper("X", 10)], [trooper("Y", 10)], points=300)
    with pytest.raises(NotAllowed):
        game.do("A", LockArmyList(troopers=[trooper("Z", 301)]))


def test_hidden_deployment_troopers_travel_in_a_private_event():
    a, b = two_lists()
    game = Game.listed(a, b)
    public = [e for e in game.events if e.kind == "ArmyListLocked" and e.seat == "A"][0]
    private = [e for e in game.events if e.kind == "HiddenTroopersEnlisted" and e.seat == "A"][0]
    assert "Ninja" not in repr(public)
    assert private.private_to == "A" and private.troopers[0]["name"] == "Ninja"


def test_a_list_without_hidden_troopers_still_emits_the_private_event():
    """Event counts must not betray whether a hidden trooper exists (HD intro)."""
    a, b = two_lists()
    game = Game.listed(a, b)
    hidden_b = [e for e in game.events if e.kind == "HiddenTroopersEnlisted" and e.seat == "B"]
    assert len(hidden_b) == 1 and hidden_b[0].troopers == []


def test_opponent_view_of_hidden_trooper_shows_nothing():
    a, b = two_lists()
    game = Game.listed(a, b)
    bob_sees = game.view("B").seat("A")
    assert [t.name for t in bob_sees.troopers] == ["Hassassin Ayyar", "Kaplan"]
    assert [t.name for t in game.view("A").seat("A").troopers] == [
        "Hassassin Ayyar",
        "Ninja",
        "Kaplan",
    ]
    assert bob_sees.list_points is None


def test_sealing_starts_round_one_once_both_seats_are_sealed():
    a, b = two_lists()
    game = Game.listed(a, b)
    game.do("A", rules.COMMAND_TYPES["SetInitiative"](first_turn="B", deploys_first="A"))
    assert game.state.phase == DEPLOYMENT
    game.seal(
        "A",
        lieutenant="Kaplan",
        hd={"Ninja": "behind the container, prone"},
        holoecho={"Hassassin Ayyar": "marker2"},
    )
    assert game.state.phase == DEPLOYMENT
    game.seal("B")
    assert game.state.phase == PLAYING
    assert game.state.turn.round == 1 and game.state.turn.seat == "B"
    assert game.state.turn.phase == TACTICAL


def test_lieutenant_must_be_a_candidate_when_the_list_names_candidates():
    a, b = two_lists()
    game = Game.listed(a, b)
    game.do("A", rules.COMMAND_TYPES["SetInitiative"](first_turn="A", deploys_first="A"))
    with pytest.raises(rules.InvalidInput):
        game.seal(
            "A",
            lieutenant="Hassassin Ayyar",
            hd={"Ninja": "x"},
            holoecho={"Hassassin Ayyar": "model"},
        )


def test_every_hidden_trooper_needs_a_written_position_hd_1():
    a, b = two_lists()
    game = Game.listed(a, b)
    game.do("A", rules.COMMAND_TYPES["SetInitiative"](first_turn="A", deploys_first="A"))
    with pytest.raises(rules.InvalidInput) as refused:
        game.seal("A", lieutenant="Kaplan", holoecho={"Hassassin Ayyar": "model"})
    assert refused.value.rule == "HD-1"


def test_seal_commitment_is_salted_sha256_of_canonical_payload():
    game = started_with_secrets()
    secret = next(
        s for s in game.state.secrets.values() if s.kind == "lieutenant" and s.seat == "A"
    )
    assert secret.commitment == commit(secret.nonce, dict(secret.payload))
    bob_sees = {s.kind: s for s in game.view("B").seat("A").secrets}
    assert bob_sees["lieutenant"].fingerprint == fingerprint(secret.commitment)
    assert bob_sees["lieutenant"].payload is None and bob_sees["lieutenant"].nonce is None
    # The hidden trooper's position exists privately: Bob sees no trace of it.
    assert "hd_position" not in bob_sees


def test_owner_reveal_publishes_payload_and_nonce_and_verifies():
    game = started_with_secrets()
    secret = next(
        s for s in game.state.secrets.values() if s.kind == "lieutenant" and s.seat == "A"
    )
    game.do("A", RevealSecret(secret_id=secret.id))
    seen = {s.kind: s for s in game.view("B").seat("A").secrets}["lieutenant"]
    assert seen.payload["name"] == "Kaplan" and seen.verified is True and seen.nonce == secret.nonce
    # Once revealed it stays revealed: a second reveal is refused, nothing appended.
    with pytest.raises(NotAllowed):
        game.do("A", RevealSecret(secret_id=secret.id))
    assert [e.kind for e in game.events].count("SecretRevealed") == 1


def test_a_reveal_that_does_not_open_its_commitment_is_shown_unverified():
    """The proof is recomputed for every view, never taken on trust: a
    revealed payload (or nonce) other than the one sealed, as a rewritten
    log would give, reads "does not match" on both phones."""
    game = started_with_secrets()
    secret = next(
        s for s in game.state.secrets.values() if s.kind == "lieutenant" and s.seat == "A"
    )
    game.do("A", RevealSecret(secret_id=secret.id))
    revealed = game.state.secrets[secret.id]
    forged_payload = replace(revealed, payload=frozen_map({**revealed.payload, "name": "Fusilier"}))
    forged_nonce = replace(revealed, nonce="00" * 16)
    for forged in (forged_payload, forged_nonce):
        state = game.state.with_secret(forged)
        for viewer in ("A", "B", None):
            seen = {s.id: s for s in rules.player_view(state, viewer).seat("A").secrets}
            assert seen[secret.id].revealed and seen[secret.id].verified is False


def test_only_the_owner_can_reveal_and_unknown_ids_look_alike():
    game = started_with_secrets()
    secret = next(s for s in game.state.secrets.values() if s.kind == "hd_position")
    with pytest.raises(UnknownElement) as theirs:
        game.do("B", RevealSecret(secret_id=secret.id))
    with pytest.raises(UnknownElement) as nothing:
        game.do("B", RevealSecret(secret_id="doesnotexist"))
    assert theirs.value.message == nothing.value.message


def test_turn_phases_run_tactical_impetuous_orders_states_then_other_player():
    game = started_with_secrets()
    seen = []
    while game.state.turn.seat == "A":
        seen.append(game.state.turn.phase)
        advance(game)
    # The first tap in the Tactical Phase is its Order Count (then Bob lets
    # TM-S2 pass), the second ends it.
    assert seen == ["tactical", "tactical", "impetuous", "orders", "states"]
    assert game.state.turn.seat == "B" and game.state.turn.round == 1


def test_stale_phase_tap_does_not_skip_two_phases():
    game = started_with_secrets()
    game.do("A", AdvancePhase(expected=TACTICAL))
    with pytest.raises(NotAllowed):
        game.do("A", AdvancePhase(expected=TACTICAL))
    # A second tap that says the phase its phone showed, now gone (a double
    # tap on "end the Orders Phase"), is refused: the States Phase stays.
    to_phase(game, ORDERS)
    game.do("A", AdvancePhase(expected=ORDERS))
    assert game.state.turn.phase == STATES
    with pytest.raises(NotAllowed, match="already changed"):
        game.do("A", AdvancePhase(expected=ORDERS))
    assert (game.state.turn.seat, game.state.turn.phase) == ("A", STATES)


def test_the_orders_phase_does_not_end_in_the_middle_of_an_order():
    """An Order holds its Short Skills or its Entire Order until it ends
    (HE-T reveals at its end): the phase cannot move on under it."""
    game = Game.started([trooper("X", 10)], [trooper("Y", 10)])
    to_phase(game, ORDERS)
    game.do("A", DeclareSkill(trooper_id=game.id("X"), skill="move"))
    with pytest.raises(NotAllowed, match="Finish the current Order"):
        game.do("A", AdvancePhase(expected=ORDERS))
    assert game.state.turn.phase == ORDERS and game.state.turn.order is not None
    game.do("A", EndOrder())
    game.do("A", AdvancePhase(expected=ORDERS))
    assert game.state.turn.phase == STATES


def test_an_order_holds_two_short_skills_or_one_entire_order():
    """An Order holds up to two Short Skills or one Entire Order (RULES.md,
    Words): nothing is declared after an Entire Order, nor an Entire Order
    after a Short Skill, nor a third Short Skill."""
    game = Game.started([trooper("X", 10), trooper("W", 10)], [trooper("Y", 10)])
    to_phase(game, ORDERS)
    game.do("A", DeclareSkill(trooper_id=game.id("X"), skill="cautious_move"))
    for skill in ("move", "suppressive_fire"):
        with pytest.raises(NotAllowed, match="one Entire Order"):
            game.do("A", DeclareSkill(trooper_id=game.id("X"), skill=skill))
    game.do("A", EndOrder())
    game.do("A", DeclareSkill(trooper_id=game.id("W"), skill="move"))
    with pytest.raises(NotAllowed, match="one Entire Order"):
        game.do("A", DeclareSkill(trooper_id=game.id("W"), skill="suppressive_fire"))
    game.do("A", DeclareSkill(trooper_id=game.id("W"), skill="move"))
    with pytest.raises(NotAllowed, match="one Entire Order"):
        game.do("A", DeclareSkill(trooper_id=game.id("W"), skill="move"))
    assert game.state.turn.order.skills == ("move", "move")


def test_match_ends_after_the_last_round():
    game = Game.started([trooper("X", 10)], [trooper("Y", 10)], rounds=1)
    for seat in ("A", "B"):
        while game.state.phase == PLAYING and game.state.turn.seat == seat:
            advance(game)
    assert game.state.phase == FINISHED


def test_reactive_player_cannot_move_the_turn_on():
    game = Game.started([trooper("X", 10)], [trooper("Y", 10)])
    with pytest.raises(NotAllowed):
        game.do("B", AdvancePhase(expected=TACTICAL))


def test_state_change_then_undo_restores_previous_state():
    game = Game.started([trooper("X", 10)], [trooper("Y", 10)])
    target = game.id("Y")
    game.do("A", SetTrooperState(trooper_id=target, condition="unconscious", tokens=["prone"]))
    assert game.trooper("Y").condition == "unconscious"
    game.do("A", UndoLastStep())
    assert game.trooper("Y").condition == "normal" and game.trooper("Y").tokens == frozenset()


def test_undo_window_closes_after_any_other_public_event():
    game = Game.started([trooper("X", 10)], [trooper("Y", 10)])
    game.do("A", SetTrooperState(trooper_id=game.id("Y"), condition="dead", tokens=[]))
    game.do("A", AdvancePhase(expected=TACTICAL))
    with pytest.raises(NotAllowed):
        game.do("A", UndoLastStep())


def test_only_the_author_of_a_step_can_undo_it():
    game = Game.started([trooper("X", 10)], [trooper("Y", 10)])
    game.do("A", SetTrooperState(trooper_id=game.id("Y"), condition="dead", tokens=[]))
    with pytest.raises(NotAllowed):
        game.do("B", UndoLastStep())
    # So only the author's view offers it: the opponent and a spectator see no Undo.
    assert game.view("A").can_undo
    assert not game.view("B").can_undo and not game.view(None).can_undo


def test_orders_spend_the_pool_of_the_troopers_combat_group():
    game = Game.started([trooper("X", 10), trooper("W", 10, group=2)], [trooper("Y", 10)])
    to_phase(game, ORDERS)
    game.do("A", DeclareSkill(trooper_id=game.id("X"), skill="move"))
    game.do("A", DeclareSkill(trooper_id=game.id("X"), skill="move"))
    # The reactive player cannot end the active player's Order.
    with pytest.raises(NotAllowed):
        game.do("B", EndOrder())
    assert game.state.turn.order is not None
    game.do("A", EndOrder())
    with pytest.raises(NotAllowed):
        game.do("A", DeclareSkill(trooper_id=game.id("X"), skill="move"))
    game.do("A", DeclareSkill(trooper_id=game.id("W"), skill="move"))
    game.do("A", EndOrder())
    game.do("A", AdvancePhase(expected=ORDERS))
    assert game.state.turn.phase == STATES


def test_replay_equals_step_by_step_state():
    game = started_with_secrets()
    game.do("A", SetTrooperState(trooper_id=game.id("Bolt"), condition="dead", tokens=[]))
    assert rules.replay(game.events) == game.state
