"""RT — Retreat! (RULES.md RT-A, RT-1..RT-7, RT-X1, RT-X2)."""

from dataclasses import replace

import pytest

from tracker import rules
from tracker.rules import retreat
from tracker.rules.conditions import UndoLastStep
from tracker.rules.errors import NotAllowed
from tracker.rules.orders import DeclareAro, DeclareSkill, EndOrder
from tracker.rules.queries import surviving_points
from tracker.rules.retreat import EndBattle, EvacuateTrooper, RetreatDeclared
from tracker.rules.sealing import RevealSecret
from tracker.rules.state import (
    COURAGE,
    DEAD,
    FINISHED,
    FRENZY,
    HIDDEN_DEPLOYMENT,
    HOLOECHO,
    HOLOMASK,
    HOLOMASK_TYPE,
    HOLOPROJECTOR,
    IMPETUOUS_PHASE,
    NORMAL,
    ORDERS,
    RELIGIOUS,
    SEPSITORIZED,
    TACTICAL,
    UNCONSCIOUS,
    VETERAN,
)
from tracker.rules.token_tactical import CoordinatedOrder, IgnoreRetreat

from .game import Game, trooper
from .steps import advance, end_turn, set_state, to_phase, to_turn


def army(kept=10, other=15, big=75, traits=()):
    """Alice's list: her Lieutenant (first), another trooper, and a big one."""
    return [
        trooper("Lieutenant", kept),
        trooper("Other", other, traits=list(traits)),
        trooper("Big", big),
    ]


def opponents():
    return [trooper("Alguacil", 10), trooper("Moblot", 10)]


def in_retreat(traits=(), big_condition=UNCONSCIOUS):
    """Alice loses Big in Round 1: survivors 25 of 100 (exactly 25%), so she
    is in Retreat! from the start of her Round 2 Player Turn."""
    game = Game.started(army(traits=traits), opponents(), first="A")
    set_state(game, "Big", big_condition, by="B")
    to_turn(game, 2, "A")
    assert game.state.seat("A").retreat
    return game


# ------------------------------------------------------------------ RT-A


@pytest.mark.parametrize(
    ("lost", "kept", "retreat_expected"),
    [
        (75, 25, True),  # exactly 25%: Retreat!
        (74, 26, False),  # 25% + 1 point: not
        (151, 50, True),  # 50 of 201 is 24.9%
        (150, 51, False),  # 51 of 201 is 25.4%
        (100, 0, True),
    ],
    ids=["exactly-25", "25-plus-1", "under-25-odd-total", "over-25-odd-total", "nobody-left"],
)
def test_rt_a_retreat_when_survivors_are_25_percent_or_less(lost, kept, retreat_expected):
    a = [trooper("Kept", kept), trooper("Lost", lost)]
    game = Game.started(a, opponents(), first="A")
    set_state(game, "Lost", DEAD, by="B")
    if kept == 0:
        set_state(game, "Kept", DEAD, by="B")
    to_turn(game, 1, "B")
    end_turn(game)  # to the start of Alice's next Player Turn
    assert game.state.seat("A").retreat is retreat_expected
    # RT-7: with nobody left, the Retreat! at once ends the match.
    assert (game.state.phase == FINISHED) is (kept == 0)
    declared = [e for e in game.events if e.kind == "RetreatDeclared"]
    assert len(declared) == (1 if retreat_expected else 0)
    if declared:
        assert declared[0].rule == "RT-A"


def test_rt_a_is_checked_only_at_the_start_of_the_players_own_turn():
    game = Game.started(army(), opponents(), first="A")
    set_state(game, "Big", DEAD, by="B")
    assert not game.state.seat("A").retreat
    to_turn(game, 1, "B")
    assert not game.state.seat("A").retreat
    to_turn(game, 2, "A")
    assert game.state.seat("A").retreat
    events = [e for e in game.events if e.kind == "RetreatDeclared"]
    start = max(i for i, e in enumerate(game.events) if e.kind == "PlayerTurnStarted")
    assert game.events.index(events[0]) > start


@pytest.mark.parametrize("condition", [UNCONSCIOUS, DEAD, SEPSITORIZED])
def test_rt_a_unconscious_dead_and_sepsitorized_are_not_survivors(condition):
    game = Game.started(army(), opponents(), first="A")
    set_state(game, "Big", condition, by="B")
    assert surviving_points(game.state, "A") == 25


def test_rt_a_hidden_troopers_count_as_survivors():
    a = [
        trooper("Lieutenant", 10),
        trooper("Big", 60),
        trooper("Ninja", 30, traits=[HIDDEN_DEPLOYMENT]),
    ]
    game = Game.started(a, opponents(), first="A", seal_a={"hd": {"Ninja": "roof"}})
    set_state(game, "Big", DEAD, by="B")
    to_turn(game, 2, "A")
    assert surviving_points(game.state, "A") == 40
    assert not game.state.seat("A").retreat


def test_rt_a_the_declaration_carries_no_points():
    """The list total includes hidden troopers: the opponent must not get it."""
    game = in_retreat()
    declared = next(e for e in game.events if isinstance(e, RetreatDeclared))
    assert declared.private_to is None
    assert set(declared.to_data()) == {"private_to", "rule", "seat"}
    assert game.view("B").seat("A").surviving_points is None
    assert game.view("B").seat("A").retreat


# ------------------------------------------------------------------ RT-1


def test_rt_1_retreat_is_loss_of_lieutenant_and_keeps_who_the_lieutenant_is_private():
    """RT-1 says only that the army is in Loss of Lieutenant: who the
    Lieutenant was stays sealed until a rule or its owner reveals it."""
    game = in_retreat()
    assert game.state.seat("A").loss_of_lieutenant
    assert game.view("B").seat("A").loss_of_lieutenant
    assert not [e for e in game.events if e.kind == "SecretRevealed"]
    seen = next(s for s in game.view("B").seat("A").secrets if s.kind == "lieutenant")
    assert seen.payload is None and seen.trooper_id is None and not seen.revealed
    # The owner still may reveal it by hand.
    mine = next(s for s in game.view("A").seat("A").secrets if s.kind == "lieutenant")
    game.do("A", RevealSecret(secret_id=mine.id))
    seen = next(s for s in game.view("B").seat("A").secrets if s.kind == "lieutenant")
    assert seen.payload["name"] == "Lieutenant" and seen.verified


@pytest.mark.parametrize(("lieutenant_alive", "loss_ends"), [(True, True), (False, False)])
def test_rt_1_loss_of_lieutenant_ends_with_retreat_only_if_a_lieutenant_remains(
    lieutenant_alive, loss_ends
):
    game = in_retreat()
    set_state(game, "Big", NORMAL)
    if not lieutenant_alive:
        set_state(game, "Lieutenant", DEAD, by="B")
    to_turn(game, 3, "A")
    assert not game.state.seat("A").retreat
    assert game.state.seat("A").loss_of_lieutenant is not loss_ends


# ------------------------------------------------------------------ RT-2


def test_rt_2_every_surviving_trooper_carries_a_retreat_marker_seen_by_both():
    game = in_retreat(traits=[VETERAN])
    for viewer in ("A", "B", None):
        marks = {t.name: t.retreat_marker for t in game.view(viewer).seat("A").troopers}
        assert marks == {"Lieutenant": True, "Other": False, "Big": False}
    assert not any(t.retreat_marker for t in game.view("A").seat("B").troopers)


# ------------------------------------------------------------------ RT-3

ALLOWED = ["move", "cautious_move", "jump", "climb", "dodge", "reset", "idle"]
REFUSED = [
    "bs_attack",
    "cc_attack",
    "alert",
    "activate",
    "discover",
    "roll_skill",
    "suppressive_fire",
    "entire_other",
]


@pytest.mark.parametrize(
    ("skill", "allowed"), [(s, True) for s in ALLOWED] + [(s, False) for s in REFUSED]
)
def test_rt_3_a_trooper_with_the_marker_only_moves_dodges_or_resets(skill, allowed):
    game = in_retreat()
    to_phase(game, ORDERS)
    command = DeclareSkill(trooper_id=game.id("Lieutenant"), skill=skill)
    if allowed:
        game.do("A", command)
    else:
        with pytest.raises(NotAllowed) as refused:
            game.do("A", command)
        assert refused.value.rule == "RT-3"


@pytest.mark.parametrize(("skill", "allowed"), [("dodge", True), ("bs_attack", False)])
def test_rt_3_applies_to_aros_too(skill, allowed):
    game = in_retreat()
    end_turn(game)
    to_phase(game, ORDERS)
    game.do("B", DeclareSkill(trooper_id=game.id("Alguacil"), skill="move"))
    aro = DeclareAro(trooper_id=game.id("Other"), skill=skill, target_id=game.id("Alguacil"))
    if allowed:
        game.do("A", aro)
    else:
        with pytest.raises(NotAllowed) as refused:
            game.do("A", aro)
        assert refused.value.rule == "RT-3"


def test_rt_3_a_marked_trooper_may_delay_its_aro_and_then_dodge():
    """RT-3 limits the skills a marked trooper executes; delaying an ARO
    against a Holoecho (HE-8) executes none, so it may wait for the second
    Short Skill and then Dodge, and still may not shoot."""
    b = [trooper("Alguacil", 10), trooper("Hassassin", 15, traits=[HOLOPROJECTOR])]
    game = Game.started(army(), b, first="A", seal_b={"holoecho": {"Hassassin": "marker1"}})
    set_state(game, "Big", UNCONSCIOUS, by="B")
    to_turn(game, 2, "A")
    assert game.state.seat("A").retreat
    end_turn(game)
    to_phase(game, ORDERS)
    hassassin, other = game.id("Hassassin"), game.id("Other")
    game.do("B", DeclareSkill(trooper_id=hassassin, skill="move"))
    game.do("A", DeclareAro(trooper_id=other, skill="delay_aro", target_id=hassassin))
    # An attack by the real one reveals it (HE-C1): the delayed ARO may come.
    game.do("B", DeclareSkill(trooper_id=hassassin, skill="bs_attack"))
    shoot = DeclareAro(
        trooper_id=other, skill="bs_attack", target_id=hassassin, target_element="model"
    )
    with pytest.raises(NotAllowed) as refused:
        game.do("A", shoot)
    assert refused.value.rule == "RT-3"
    game.do("A", replace(shoot, skill="dodge"))
    assert not game.state.turn.order.extra.get("delayed")


def test_rt_3_every_participant_of_a_coordinated_order_is_checked():
    game = in_retreat(traits=[VETERAN])
    to_phase(game, ORDERS)
    game.do("A", CoordinatedOrder(trooper_ids=[game.id("Other"), game.id("Lieutenant")]))
    with pytest.raises(NotAllowed) as refused:
        game.do("A", DeclareSkill(trooper_id=game.id("Other"), skill="bs_attack"))
    assert refused.value.rule == "RT-3" and "Lieutenant" in str(refused.value)
    game.do("A", DeclareSkill(trooper_id=game.id("Other"), skill="move"))


# ------------------------------------------------------------------ RT-4


def test_rt_4_no_impetuous_phase_in_retreat():
    a = [trooper("Lieutenant", 10), trooper("Berserker", 15, traits=[FRENZY]), trooper("Big", 75)]
    game = Game.started(a, opponents(), first="A")
    phases = []
    while game.state.turn.seat == "A":
        phases.append(game.state.turn.phase)
        advance(game)
    assert IMPETUOUS_PHASE in phases
    set_state(game, "Big", DEAD, by="B")
    to_turn(game, 2, "A")
    phases = []
    while game.state.turn.seat == "A":
        phases.append(game.state.turn.phase)
        advance(game)
    assert phases == [TACTICAL, ORDERS, "states"]


# ------------------------------------------------------------------ RT-5


def test_rt_5_retreat_entered_hooks_run_once_when_the_army_enters_retreat(monkeypatch):
    calls = []

    def hook(state, seat):
        calls.append((seat, state.seat(seat).retreat))
        return []

    monkeypatch.setattr(retreat, "RETREAT_ENTERED", [*retreat.RETREAT_ENTERED, hook])
    game = in_retreat()
    to_turn(game, 3, "A")
    assert calls == [("A", True)]


# ------------------------------------------------------------------ RT-6


def test_rt_6_a_trooper_leaving_by_its_edge_counts_as_a_survivor():
    game = in_retreat()
    before = surviving_points(game.state, "A")
    events = game.do("A", EvacuateTrooper(trooper_id=game.id("Other")))
    assert [e.rule for e in events] == ["RT-6"]
    assert game.trooper("Other").evacuated
    assert surviving_points(game.state, "A") == before
    to_phase(game, ORDERS)
    with pytest.raises(NotAllowed) as refused:
        game.do("A", DeclareSkill(trooper_id=game.id("Other"), skill="move"))
    assert refused.value.rule == "RT-6"
    to_turn(game, 3, "A")
    assert game.view("A").orders_left == {1: 1}


def test_rt_6_evacuation_is_only_in_retreat():
    game = Game.started(army(), opponents(), first="A")
    with pytest.raises(NotAllowed) as refused:
        game.do("A", EvacuateTrooper(trooper_id=game.id("Other")))
    assert refused.value.rule == "RT-6"


def test_rt_6_only_the_owner_evacuates_its_troopers_on_the_table():
    game = in_retreat()
    with pytest.raises(NotAllowed):
        game.do("B", EvacuateTrooper(trooper_id=game.id("Other")))
    with pytest.raises(NotAllowed):
        game.do("A", EvacuateTrooper(trooper_id=game.id("Big")))


def test_rt_6_a_player_in_retreat_cannot_evacuate_the_opponents_troopers():
    """RT-6 is about one's own troopers leaving by one's own deployment edge:
    Bob, in Retreat! himself, cannot take Alice's trooper off the table (the
    guard "only in Retreat!" alone does not refuse him)."""
    bob = [trooper("Alguacil", 25), trooper("Heavy", 75)]
    game = Game.started(army(), bob, first="A")
    set_state(game, "Heavy", DEAD, by="A")
    to_turn(game, 1, "B")
    assert game.state.seat("B").retreat and not game.state.seat("A").retreat
    with pytest.raises(NotAllowed) as refused:
        game.do("B", EvacuateTrooper(trooper_id=game.id("Other")))
    assert refused.value.rule == "RT-6"
    assert not game.trooper("Other").evacuated
    # His own trooper he may evacuate.
    game.do("B", EvacuateTrooper(trooper_id=game.id("Alguacil")))
    assert game.trooper("Alguacil").evacuated


def test_rt_6_a_trooper_still_in_hidden_deployment_cannot_be_evacuated():
    """A Veteran in Hidden Deployment ignores Retreat! (RT-X1), so HD-C4 does
    not place it: it is not on the table (HD-2) and cannot leave it."""
    a = [
        trooper("Lieutenant", 10),
        trooper("Big", 80),
        trooper("Ninja", 10, traits=[HIDDEN_DEPLOYMENT, VETERAN]),
    ]
    game = Game.started(a, opponents(), first="A", seal_a={"hd": {"Ninja": "roof"}})
    set_state(game, "Big", DEAD, by="B")
    to_turn(game, 2, "A")
    assert game.state.seat("A").retreat and game.trooper("Ninja").hidden
    with pytest.raises(NotAllowed) as refused:
        game.do("A", EvacuateTrooper(trooper_id=game.id("Ninja")))
    assert refused.value.rule == "HD-2"
    assert not game.trooper("Ninja").evacuated


# ------------------------------------------------------------------ RT-7


def test_rt_7_the_match_ends_when_the_whole_retreating_army_is_evacuated_or_lost():
    game = in_retreat()
    game.do("A", EvacuateTrooper(trooper_id=game.id("Other")))
    assert game.state.phase != FINISHED
    events = game.do("A", EvacuateTrooper(trooper_id=game.id("Lieutenant")))
    assert [(e.kind, e.rule) for e in events][-1] == ("MatchEnded", "RT-7")
    assert "(RT-7)" in events[-1].describe()[0]
    assert game.state.phase == FINISHED


def lost_in_bob_s_turn():
    """Alice in Retreat!; in Bob's Turn her last two troopers are set Dead."""
    game = in_retreat()
    end_turn(game)
    set_state(game, "Other", DEAD, by="B")
    set_state(game, "Lieutenant", DEAD, by="B")
    return game


def test_rt_7_losses_in_the_opponents_turn_end_the_match_at_the_next_turn_start():
    game = lost_in_bob_s_turn()
    end_turn(game)
    assert game.state.phase == FINISHED
    assert game.events[-1].kind == "MatchEnded" and game.events[-1].rule == "RT-7"


def test_rt_7_the_last_loss_tells_both_phones_the_battle_is_over_and_a_tap_ends_it():
    """The battle is over at the last loss ("concluye la batalla"), not at
    the next Player Turn: both views say so, and either player ends it."""
    game = in_retreat()
    end_turn(game)
    set_state(game, "Other", DEAD, by="B")
    assert game.view("A").battle_over is None and game.view("B").battle_over is None
    set_state(game, "Lieutenant", DEAD, by="B")
    assert game.state.phase != FINISHED
    assert game.view("A").battle_over == "A" and game.view("B").battle_over == "A"
    assert game.view(None).battle_over == "A"
    events = game.do("A", EndBattle())
    assert [(e.kind, e.rule) for e in events][-1] == ("MatchEnded", "RT-7")
    assert game.state.phase == FINISHED
    assert game.view("B").battle_over is None


def test_rt_7_the_opponent_may_end_the_battle_too():
    game = in_retreat()
    set_state(game, "Other", SEPSITORIZED, by="B")
    set_state(game, "Lieutenant", UNCONSCIOUS, by="B")
    game.do("B", EndBattle())
    assert game.state.phase == FINISHED


def test_rt_7_a_mis_tapped_last_loss_is_undone_before_anything_is_revealed():
    game = lost_in_bob_s_turn()
    game.do("B", UndoLastStep())
    assert game.view("A").battle_over is None
    assert not any(e.kind == "MatchEnded" for e in game.events)
    with pytest.raises(NotAllowed) as refused:
        game.do("A", EndBattle())
    assert refused.value.rule == "RT-7"
    assert game.state.phase != FINISHED


def test_rt_7_no_battle_to_end_while_the_army_has_a_trooper_or_is_not_in_retreat():
    game = Game.started(army(), opponents(), first="A")
    with pytest.raises(NotAllowed) as refused:
        game.do("B", EndBattle())
    assert refused.value.rule == "RT-7"
    assert game.view("A").battle_over is None


def test_rt_7_an_army_not_in_retreat_does_not_end_the_match():
    game = Game.started(army(kept=30, other=30, big=40), opponents(), first="A")
    set_state(game, "Big", DEAD, by="B")
    to_turn(game, 2, "A")
    assert game.state.phase != FINISHED and not game.state.seat("A").retreat


# ------------------------------------------------------------------ RT-X1


@pytest.mark.parametrize("why", [COURAGE, RELIGIOUS, VETERAN, "TM-T4"])
def test_rt_x1_courage_religious_veteran_or_a_token_ignore_retreat(why):
    traits = [] if why == "TM-T4" else [why]
    game = Game.started(army(traits=traits), opponents(), first="A")
    if why == "TM-T4":
        to_phase(game, ORDERS)
        game.do("A", IgnoreRetreat(trooper_id=game.id("Other")))
    set_state(game, "Big", UNCONSCIOUS, by="B")
    to_turn(game, 2, "A")
    assert game.state.seat("A").retreat
    assert not game.view("B").trooper(game.id("Other")).retreat_marker
    to_phase(game, ORDERS)
    game.do("A", DeclareSkill(trooper_id=game.id("Other"), skill="bs_attack"))
    game.do("A", EndOrder())


def test_rt_x1_a_veteran_keeps_its_holoecho_when_its_army_enters_retreat():
    """RT-5 ends Holoecho (HE-C6) only for troopers that do not ignore
    Retreat!: a Veteran Holoprojector bearer keeps its decoys and its seal."""
    a = [
        trooper("Lieutenant", 10),
        trooper("Hassassin", 15, traits=[HOLOPROJECTOR, VETERAN]),
        trooper("Big", 75),
    ]
    game = Game.started(a, opponents(), first="A", seal_a={"holoecho": {"Hassassin": "marker1"}})
    set_state(game, "Big", UNCONSCIOUS, by="B")
    to_turn(game, 2, "A")
    assert game.state.seat("A").retreat
    holoecho = next(s for s in game.state.secrets.values() if s.kind == HOLOECHO)
    assert not holoecho.revealed
    assert game.trooper("Hassassin").holoechoes
    assert not [e for e in game.events if e.kind == "SecretRevealed"]


def test_rt_x1_a_veteran_keeps_its_holomask_when_its_army_enters_retreat():
    """RT-5 ends HoloMask only for troopers that do not ignore Retreat!
    (RT-X1): the opponent still reads the Veteran's masked troop type."""
    a = [
        trooper("Lieutenant", 10),
        trooper("Masked", 15, traits=[HOLOMASK, VETERAN]),
        trooper("Big", 75),
    ]
    game = Game.started(a, opponents(), first="A", seal_a={"holomask": {"Masked": "Fusilier"}})
    set_state(game, "Big", UNCONSCIOUS, by="B")
    to_turn(game, 2, "A")
    assert game.state.seat("A").retreat
    mask = next(s for s in game.state.secrets.values() if s.kind == HOLOMASK_TYPE)
    assert not mask.revealed
    assert game.view("B").trooper(game.id("Masked")).name == "Fusilier"


def test_rt_x1_a_token_also_cancels_the_retreat_of_a_marked_trooper():
    game = in_retreat()
    to_phase(game, ORDERS)
    game.do("A", IgnoreRetreat(trooper_id=game.id("Lieutenant")))
    assert not game.view("A").trooper(game.id("Lieutenant")).retreat_marker
    game.do("A", DeclareSkill(trooper_id=game.id("Lieutenant"), skill="bs_attack"))


# ------------------------------------------------------------------ RT-X2


def test_rt_x2_retreat_ends_when_survivors_are_back_above_25_percent():
    game = in_retreat()
    set_state(game, "Big", NORMAL)  # a Doctor brought Big back
    assert game.state.seat("A").retreat  # only checked at a turn start
    to_turn(game, 3, "A")
    assert not game.state.seat("A").retreat
    ended = [e for e in game.events if e.kind == "RetreatEnded"]
    assert [e.rule for e in ended] == ["RT-X2"]
    assert not any(t.retreat_marker for t in game.view("B").seat("A").troopers)
    to_phase(game, ORDERS)
    game.do("A", DeclareSkill(trooper_id=game.id("Lieutenant"), skill="bs_attack"))


def test_retreat_replays_to_the_same_state():
    game = in_retreat()
    game.do("A", EvacuateTrooper(trooper_id=game.id("Other")))
    set_state(game, "Big", NORMAL)
    to_turn(game, 3, "A")
    assert rules.replay(game.events) == game.state
