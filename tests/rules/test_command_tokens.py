"""TM — Command Tokens (RULES.md TM-0, TM-S1, TM-S2, TM-E1, TM-E2, TM-T1..T6)."""

import pytest

from tracker import rules
from tracker.rules.command_tokens import USES, spend_token
from tracker.rules.errors import InvalidInput, NotAllowed, UnknownElement
from tracker.rules.orders import DeclareSkill, EndOrder
from tracker.rules.setup import SetInitiative
from tracker.rules.state import (
    CUBE,
    DEAD,
    DOCTOR,
    ENGINEER,
    HIDDEN_DEPLOYMENT,
    IRREGULAR,
    ISOLATED,
    LIEUTENANT_CANDIDATE,
    NORMAL,
    ORDERS,
    POSSESSED,
    REMOTE_PRESENCE,
    SEPSITORIZED,
    TACTICAL,
    UNCONSCIOUS,
    VETERAN,
)
from tracker.rules.token_tactical import (
    CoordinatedOrder,
    ForceGutsRoll,
    IgnoreRetreat,
    MakeOrderRegular,
    RerollDoctorWip,
    RerollEngineerWip,
)
from tracker.rules.token_uses import (
    CancelOpponentOrders,
    CancelPossessed,
    ChangeCombatGroup,
    LimitOpponentTokens,
    StrategicSuppressiveFire,
)
from tracker.rules.turns import AdvancePhase, DeclineStrategicUse
from tracker.rules.visibility import redact_log

from .game import Game, trooper
from .steps import count_orders, end_turn, set_state, to_phase, to_turn


def lists():
    a = [
        trooper("Kaplan", 20, traits=[LIEUTENANT_CANDIDATE]),
        trooper("Fusilier", 10),
        trooper("Bolt", 15, group=2),
        trooper("Zhanshi", 10, traits=[IRREGULAR]),
        trooper("Trauma Doc", 15, traits=[DOCTOR]),
        trooper("Machinist", 15, traits=[ENGINEER]),
        trooper("Cubed", 10, traits=[CUBE]),
        trooper("Remote", 10, traits=[REMOTE_PRESENCE]),
        trooper("Kazak", 15, traits=[VETERAN]),
    ]
    b = [
        trooper("Alguacil", 10),
        trooper("Moblot", 10, group=2),
        trooper("Ninja", 30, traits=[HIDDEN_DEPLOYMENT]),
    ]
    return a, b


def new_game():
    """Round 1, Alice (seat A) plays first and is in her Tactical Phase."""
    a, b = lists()
    return Game.started(a, b, first="A", seal_b={"hd": {"Ninja": "behind the wall"}})


def at_s2():
    """Alice has made her first Order Count: Bob's TM-S2 moment (TM-S2)."""
    game = new_game()
    count_orders(game)
    return game


def tokens(game, seat):
    return game.state.seat(seat).command_tokens


def log_for(game, seat):
    return redact_log(enumerate(game.events, 1), seat)


# ------------------------------------------------------------------- TM-0


def test_every_player_has_four_command_tokens():
    game = new_game()
    assert tokens(game, "A") == tokens(game, "B") == 4


def test_spending_a_token_is_public():
    game = new_game()
    to_phase(game, ORDERS)
    events = game.do("A", ForceGutsRoll(trooper_id=game.id("Fusilier"), passed=True))
    spent = [e for e in events if e.kind == "CommandTokenSpent"]
    assert len(spent) == 1 and spent[0].private_to is None and spent[0].use == "TM-T2"
    assert game.view("B").seat("A").command_tokens == 3
    assert game.view("B").tokens_spent == 1


REACTIVE_USES = [
    ("TM-E1", lambda g: ChangeCombatGroup(trooper_id=g.id("Alguacil"), group=2)),
    ("TM-E2", lambda g: CancelPossessed(trooper_id=g.id("Alguacil"))),
    ("TM-T1", lambda g: CoordinatedOrder(trooper_ids=[g.id("Alguacil"), g.id("Moblot")])),
    ("TM-T2", lambda g: ForceGutsRoll(trooper_id=g.id("Alguacil"), passed=True)),
    ("TM-T3", lambda g: MakeOrderRegular(trooper_id=g.id("Alguacil"))),
    ("TM-T4", lambda g: IgnoreRetreat(trooper_id=g.id("Alguacil"))),
    ("TM-T5", lambda g: RerollDoctorWip(trooper_id=g.id("Alguacil"), target_id=g.id("Moblot"))),
    ("TM-T6", lambda g: RerollEngineerWip(trooper_id=g.id("Alguacil"), target_id=g.id("Moblot"))),
]


@pytest.mark.parametrize("phase", [TACTICAL, ORDERS])
@pytest.mark.parametrize(("use", "command"), REACTIVE_USES, ids=[u for u, _ in REACTIVE_USES])
def test_tm_0_tokens_are_refused_in_the_reactive_turn(use, command, phase):
    game = new_game()
    to_phase(game, phase)
    with pytest.raises(NotAllowed) as refused:
        game.do("B", command(game))
    assert refused.value.rule == "TM-0"
    assert "Reactive Turn (TM-0)" in refused.value.message
    assert tokens(game, "B") == 4


def test_no_token_is_spent_when_none_are_left():
    game = new_game()
    to_phase(game, ORDERS)
    for _ in range(4):
        game.do("A", ForceGutsRoll(trooper_id=game.id("Fusilier"), passed=True))
    with pytest.raises(NotAllowed, match="no Command Tokens left"):
        game.do("A", ForceGutsRoll(trooper_id=game.id("Fusilier"), passed=True))
    assert tokens(game, "A") == 0


def test_the_phone_is_offered_only_the_uses_whose_window_is_open():
    game = new_game()
    assert game.view("A").token_uses == ("TM-E1", "TM-E2", *[f"TM-T{i}" for i in range(1, 7)])
    assert game.view("B").token_uses == ()
    count_orders(game)
    # TM-S2: Bob's choice comes at the end of the count, before Alice's next use.
    assert game.view("A").token_uses == ()
    assert game.view("B").token_uses == ("TM-S2",)
    assert game.view(None).token_uses == ()
    game.do("B", DeclineStrategicUse())
    assert game.view("A").token_uses == tuple(f"TM-T{i}" for i in range(1, 7))
    to_phase(game, ORDERS)
    assert game.view("A").token_uses == tuple(f"TM-T{i}" for i in range(1, 7))
    assert game.view("B").token_uses == ()


def test_an_unknown_use_is_refused():
    game = new_game()
    with pytest.raises(InvalidInput):
        spend_token(game.state, "A", "TM-X9")
    assert "TM-X9" not in USES


# ------------------------------------------------------------------ TM-S1


def test_tm_s1_reserve_spends_the_once_per_game_strategic_token():
    a, b = lists()
    game = Game.started(
        a, b, first="A", seal_a={"reserve": "Bolt"}, seal_b={"hd": {"Ninja": "roof"}}
    )
    spent = [e for e in game.events if e.kind == "CommandTokenSpent"]
    assert [(e.seat, e.use, e.private_to) for e in spent] == [("A", "TM-S1", None)]
    assert tokens(game, "A") == 3 and game.state.seat("A").strategic_used
    assert game.view("B").seat("A").strategic_used


def test_tm_s1_only_the_player_with_the_first_turn_reserves():
    a, b = lists()
    game = Game.listed(a, b)
    game.do("A", SetInitiative(first_turn="A", deploys_first="B"))
    with pytest.raises(NotAllowed) as refused:
        game.seal("B", hd={"Ninja": "roof"}, reserve="Moblot")
    assert refused.value.rule == "TM-S1"
    # The token's own window says so too, so the phone offers it to A only.
    with pytest.raises(NotAllowed) as refused:
        spend_token(game.state, "B", "TM-S1")
    assert refused.value.rule == "TM-S1"
    assert "TM-S1" not in game.view("B").token_uses
    assert "TM-S1" in game.view("A").token_uses


def test_tm_s1_is_only_during_deployment():
    game = new_game()
    with pytest.raises(NotAllowed) as refused:
        spend_token(game.state, "A", "TM-S1")
    assert refused.value.rule == "TM-S1"


def test_tm_s1_reserve_is_sealed_with_the_deployment_in_one_private_event():
    a, b = lists()
    game = Game.listed(a, b)
    game.do("A", SetInitiative(first_turn="A", deploys_first="A"))
    events = game.seal("A", reserve="Bolt")
    sealed = [e for e in events if e.kind == "SecretsSealed"]
    assert sealed[0].private_to == "A"
    assert "Bolt" not in repr([e for e in events if e.private_to is None])
    # Which trooper is held back is the owner's alone: the opponent and a
    # spectator see Bolt as any other trooper of the list.
    assert game.view("A").trooper(game.id("Bolt")).reserved
    for viewer in ("B", None):
        assert not game.view(viewer).trooper(game.id("Bolt")).reserved
        assert not any(t.reserved for s in game.view(viewer).seats for t in s.troopers)


# ------------------------------------------------------------------ TM-S2


def test_tm_s2_is_spent_in_the_opponents_turn_as_an_exception_to_tm_0():
    game = at_s2()
    game.do("B", LimitOpponentTokens())
    assert tokens(game, "B") == 3 and game.state.seat("B").strategic_used
    # It is not one of the active player's tokens for this Turn.
    assert game.state.turn.tokens_spent == 0


S2_OPTIONS = [
    ("cancel", lambda g: CancelOpponentOrders(groups=["1", "2"])),
    ("limit", lambda g: LimitOpponentTokens()),
    ("suppressive", lambda g: StrategicSuppressiveFire(trooper_id=g.id("Alguacil"))),
]


def _s2_refused_for_the_first_player(game):
    to_turn(game, 1, "B")
    return "A"


def _s2_refused_in_the_orders_phase(game):
    to_phase(game, ORDERS)
    return "B"


def _s2_refused_in_round_two(game):
    to_turn(game, 2, "A")
    return "B"


def _s2_refused_in_its_own_turn(game):
    to_turn(game, 1, "B")
    return "B"


@pytest.mark.parametrize(("option", "command"), S2_OPTIONS, ids=[o for o, _ in S2_OPTIONS])
@pytest.mark.parametrize(
    "move",
    [
        _s2_refused_for_the_first_player,
        _s2_refused_in_the_orders_phase,
        _s2_refused_in_round_two,
        _s2_refused_in_its_own_turn,
    ],
)
def test_tm_s2_only_in_the_tactical_phase_of_the_opponents_first_turn(option, command, move):
    game = new_game()
    seat = move(game)
    before = tokens(game, seat)
    with pytest.raises(NotAllowed) as refused:
        game.do(seat, command(game))
    assert refused.value.rule in ("TM-S2", "TM-0")
    assert tokens(game, seat) == before


@pytest.mark.parametrize(("option", "command"), S2_OPTIONS, ids=[o for o, _ in S2_OPTIONS])
def test_tm_s2_allows_exactly_one_option_once_per_game(option, command):
    game = at_s2()
    game.do("B", command(game))
    for _other, other_command in S2_OPTIONS:
        with pytest.raises(NotAllowed) as refused:
            game.do("B", other_command(game))
        assert refused.value.rule == "TM-S2"
    assert tokens(game, "B") == 3


def test_tm_s2_cancels_two_regular_orders_from_the_chosen_groups():
    game = at_s2()
    assert game.view("A").orders_left == {1: 7, 2: 1}
    events = game.do("B", CancelOpponentOrders(groups=["1", "2"]))
    assert all(e.private_to is None for e in events)
    for seat in ("A", "B", None):
        view = game.view(seat)
        assert view.orders_left == {1: 6, 2: 0}
        assert view.cancelled_orders == {1: 1, 2: 1}
    to_phase(game, ORDERS)
    with pytest.raises(NotAllowed) as refused:
        game.do("A", DeclareSkill(trooper_id=game.id("Bolt"), skill="move"))
    assert refused.value.rule == "TM-S2"
    # Other groups still give Orders, and next Turn the Pool is whole again.
    game.do("A", DeclareSkill(trooper_id=game.id("Fusilier"), skill="move"))
    game.do("A", EndOrder())
    to_turn(game, 2, "A")
    assert game.view("A").orders_left == {1: 7, 2: 1}
    assert game.view("A").cancelled_orders == {}


def test_tm_s2_may_cancel_both_orders_from_one_group():
    game = at_s2()
    game.do("B", CancelOpponentOrders(groups=["1", "1"]))
    assert game.view("A").orders_left == {1: 5, 2: 1}


@pytest.mark.parametrize(
    ("groups", "why"),
    [
        (["1"], "Choose 2"),
        (["1", "1", "1"], "Choose 2"),
        (["2", "2"], "that many"),
        (["9", "1"], "that many"),
    ],
)
def test_tm_s2_cancel_refuses_a_wrong_choice(groups, why):
    game = at_s2()
    with pytest.raises(InvalidInput, match=why):
        game.do("B", CancelOpponentOrders(groups=groups))
    assert tokens(game, "B") == 4


def test_tm_s2_limit_stops_the_opponent_after_one_token_that_turn():
    game = at_s2()
    game.do("B", LimitOpponentTokens())
    assert game.view("A").token_limit == 1
    to_phase(game, ORDERS)
    game.do("A", ForceGutsRoll(trooper_id=game.id("Fusilier"), passed=True))
    with pytest.raises(NotAllowed) as refused:
        game.do("A", ForceGutsRoll(trooper_id=game.id("Fusilier"), passed=True))
    assert refused.value.rule == "TM-S2"
    assert tokens(game, "A") == 3
    assert game.view("A").token_uses == ()
    to_turn(game, 2, "A")
    to_phase(game, ORDERS)
    game.do("A", ForceGutsRoll(trooper_id=game.id("Fusilier"), passed=True))
    game.do("A", ForceGutsRoll(trooper_id=game.id("Fusilier"), passed=False))
    assert tokens(game, "A") == 1


def test_tm_s2_is_offered_only_at_the_end_of_the_opponents_order_count():
    """TM-S2 (seed: "al final del Recuento de Órdenes de su adversario"):
    not during Alice's Executive Use, only once she has made the Order Count."""
    game = new_game()
    assert "TM-S2" not in game.view("B").token_uses
    assert not game.view("B").token_offers
    with pytest.raises(NotAllowed) as early:
        game.do("B", LimitOpponentTokens())
    assert early.value.rule == "TM-S2" and tokens(game, "B") == 4
    # Executive Use first, and using it does not open TM-S2.
    game.do("A", ChangeCombatGroup(trooper_id=game.id("Fusilier"), group=2))
    assert "TM-S2" not in game.view("B").token_uses
    count_orders(game)
    assert game.state.turn.phase == TACTICAL and game.view("B").orders_counted
    assert game.view("B").token_uses == ("TM-S2",)
    assert game.view("A").s2_deciding == game.view("B").s2_deciding == "B"
    offers = game.view("B").token_offers
    assert offers.s2_orders and offers.s2_limit and offers.s2_decline


def test_the_order_count_ends_executive_use_and_tm_s2_does_not():
    """TM-E1 is made in the Executive Use step, before the Order Count; the
    count ends it, whether Bob then uses TM-S2 or not."""
    game = new_game()
    game.do("A", ChangeCombatGroup(trooper_id=game.id("Fusilier"), group=2))
    count_orders(game)
    with pytest.raises(NotAllowed) as refused:
        game.do("A", ChangeCombatGroup(trooper_id=game.id("Kaplan"), group=2))
    assert refused.value.rule == "TM-E1"
    assert "(TM-E1)" in str(refused.value) and "TM-S2" not in str(refused.value)
    # In a later Turn, Executive Use is open until that Turn's Order Count.
    to_turn(game, 2, "A")
    game.do("A", ChangeCombatGroup(trooper_id=game.id("Kaplan"), group=2))
    game.do("A", ChangeCombatGroup(trooper_id=game.id("Kaplan"), group=1))


def test_the_tactical_phase_waits_for_the_second_players_tm_s2_decision():
    """TM-S2: the choice is Bob's; Alice cannot end the phase past it, and
    letting it pass is recorded (once per game, so never asked again)."""
    game = at_s2()
    with pytest.raises(NotAllowed) as waiting:
        game.do("A", AdvancePhase(expected=TACTICAL))
    assert waiting.value.rule == "TM-S2" and game.state.turn.phase == TACTICAL
    with pytest.raises(NotAllowed):
        game.do("A", DeclineStrategicUse())
    events = game.do("B", DeclineStrategicUse())
    assert events[0].kind == "StrategicUseDeclined" and events[0].private_to is None
    assert tokens(game, "B") == 4 and game.view("A").s2_deciding is None
    with pytest.raises(NotAllowed):
        game.do("B", LimitOpponentTokens())
    game.do("A", AdvancePhase(expected=TACTICAL))
    assert game.state.turn.phase != TACTICAL


@pytest.mark.parametrize(
    "command",
    [
        lambda g: ForceGutsRoll(trooper_id=g.id("Fusilier"), passed=True),
        lambda g: MakeOrderRegular(trooper_id=g.id("Zhanshi")),
        lambda g: IgnoreRetreat(trooper_id=g.id("Fusilier")),
    ],
    ids=["TM-T2", "TM-T3", "TM-T4"],
)
def test_tm_s2_the_first_player_spends_no_token_while_the_second_decides(command):
    """TM-S2 (seed: "Consumiendo un Token de Mando al final del Recuento de
    Órdenes de su adversario"): Bob's moment is the end of Alice's Order
    Count, with nothing of Alice's in between. Were she to spend tokens
    while he decides, his "no more than 1 Command Token this Turn" would
    come after she had spent them all."""
    game = at_s2()
    with pytest.raises(NotAllowed) as refused:
        game.do("A", command(game))
    assert refused.value.rule == "TM-S2"
    assert tokens(game, "A") == 4 and game.state.turn.tokens_spent == 0
    # Not offered on her phone either (what it offers, the server takes).
    assert game.view("A").token_uses == () and not game.view("A").token_offers
    game.do("B", LimitOpponentTokens())
    game.do("A", command(game))
    assert tokens(game, "A") == 3
    with pytest.raises(NotAllowed) as limited:
        game.do("A", ForceGutsRoll(trooper_id=game.id("Kaplan"), passed=True))
    assert limited.value.rule == "TM-S2" and tokens(game, "A") == 3


def test_after_tm_s2_is_used_the_first_player_ends_the_tactical_phase():
    game = at_s2()
    game.do("B", LimitOpponentTokens())
    game.do("A", AdvancePhase(expected=TACTICAL))
    assert game.state.turn.phase != TACTICAL


def test_tm_s2_suppressive_fire_cancels_a_marker_without_declaring_an_order():
    game = at_s2()
    game.state = game.state.with_trooper(game.id("Alguacil"), marker=True)
    events = game.do("B", StrategicSuppressiveFire(trooper_id=game.id("Alguacil")))
    assert [e.kind for e in events] == ["CommandTokenSpent", "SuppressiveFireEntered"]
    assert not game.trooper("Alguacil").marker
    # FAQ: no Order was declared, so nothing (enemy deployables...) reacts.
    assert game.state.turn.order is None
    assert not any(e.kind in ("OrderStarted", "SkillDeclared") for e in events)


def test_tm_s2_suppressive_fire_never_names_a_hidden_trooper_before_its_reveal():
    """HD-C2 + TM-S2: a hidden trooper may enter Suppressive Fire; the reveal
    of its Hidden Deployment comes first. (This used to pass on a refusal.)"""
    game = at_s2()
    events = game.do("B", StrategicSuppressiveFire(trooper_id=game.id("Ninja")))
    kinds = [e.kind for e in events]
    assert kinds == [
        "CommandTokenSpent",
        "SecretRevealed",
        "HiddenDeploymentEnded",
        "SuppressiveFireEntered",
    ]
    assert not game.trooper("Ninja").hidden and tokens(game, "B") == 3
    assert kinds.index("SecretRevealed") < kinds.index("SuppressiveFireEntered")
    assert events[kinds.index("SecretRevealed")].rule == "HD-C2"


def test_tm_s2_suppressive_fire_needs_a_trooper_in_the_fight():
    game = at_s2()
    set_state(game, "Alguacil", DEAD, by="B")
    with pytest.raises(NotAllowed) as refused:
        game.do("B", StrategicSuppressiveFire(trooper_id=game.id("Alguacil")))
    assert refused.value.rule == "TM-S2"


# ------------------------------------------------------------------ TM-E1


def test_tm_e1_moves_a_trooper_and_its_order_to_another_combat_group():
    game = new_game()
    events = game.do("A", ChangeCombatGroup(trooper_id=game.id("Fusilier"), group=2))
    assert [e.kind for e in events] == ["CommandTokenSpent", "CombatGroupChanged"]
    assert game.trooper("Fusilier").combat_group == 2
    assert game.view("B").orders_left == {1: 6, 2: 2}


def test_tm_e1_is_an_executive_use_of_the_own_tactical_phase():
    game = new_game()
    to_phase(game, ORDERS)
    with pytest.raises(NotAllowed) as refused:
        game.do("A", ChangeCombatGroup(trooper_id=game.id("Fusilier"), group=2))
    assert refused.value.rule == "TM-E1"


def ten_in_group_one():
    a = [trooper(f"Rifle {i}", 10) for i in range(10)] + [trooper("Loner", 10, group=2)]
    return Game.started(a, [trooper("Y", 10)], first="A")


@pytest.mark.parametrize(
    ("condition", "allowed"),
    [(NORMAL, False), (UNCONSCIOUS, False), (DEAD, True), (SEPSITORIZED, True)],
)
def test_tm_e1_respects_the_ten_trooper_limit_counting_unconscious_members(condition, allowed):
    """FAQ: Unconscious troopers stay in their group; Dead or Sepsitorized
    ones belong to none, so they free a place."""
    game = ten_in_group_one()
    if condition != NORMAL:
        set_state(game, "Rifle 0", condition)
    command = ChangeCombatGroup(trooper_id=game.id("Loner"), group=1)
    if allowed:
        game.do("A", command)
        assert game.trooper("Loner").combat_group == 1
    else:
        with pytest.raises(NotAllowed) as refused:
            game.do("A", command)
        assert refused.value.rule == "TM-E1" and "10" in str(refused.value)


@pytest.mark.parametrize(
    ("condition", "allowed"), [(UNCONSCIOUS, True), (DEAD, False), (SEPSITORIZED, False)]
)
def test_tm_e1_dead_or_sepsitorized_troopers_belong_to_no_group(condition, allowed):
    game = new_game()
    set_state(game, "Fusilier", condition)
    command = ChangeCombatGroup(trooper_id=game.id("Fusilier"), group=2)
    if allowed:
        game.do("A", command)
        assert game.trooper("Fusilier").combat_group == 2
    else:
        with pytest.raises(NotAllowed) as refused:
            game.do("A", command)
        assert refused.value.rule == "TM-E1"


def test_tm_e1_refuses_the_same_group_or_a_group_that_cannot_exist():
    game = new_game()
    with pytest.raises(NotAllowed):
        game.do("A", ChangeCombatGroup(trooper_id=game.id("Fusilier"), group=1))
    with pytest.raises(InvalidInput):
        game.do("A", ChangeCombatGroup(trooper_id=game.id("Fusilier"), group=6))
    assert tokens(game, "A") == 4


def test_hd_5_tm_e1_tells_the_opponent_only_that_a_hidden_trooper_changed_group():
    game = new_game()
    to_turn(game, 1, "B")
    ninja = game.id("Ninja")
    events = game.do("B", ChangeCombatGroup(trooper_id=ninja, group=2))
    public = [e for e in events if e.private_to is None]
    private = [e for e in events if e.private_to == "B"]
    assert [e.kind for e in public] == ["CommandTokenSpent", "HiddenTrooperRegrouped"]
    assert public[1].rule == "HD-5"
    assert ninja not in repr(public) and "Ninja" not in repr(public)
    assert [e.kind for e in private] == ["CombatGroupChanged"]
    assert private[0].to_group == 2 and private[0].trooper_name == "Ninja"
    alice_sees = game.view("A")
    assert "Ninja" not in repr(alice_sees) and ninja not in repr(alice_sees)
    alice_reads = log_for(game, "A")
    assert "HiddenTrooperRegrouped" in [line.kind for line in alice_reads]
    assert "CombatGroupChanged" not in [line.kind for line in alice_reads]
    assert ninja not in repr(alice_reads) and "Ninja" not in repr(alice_reads)
    assert [t.combat_group for t in game.view("B").me.troopers if t.name == "Ninja"] == [2]


def test_a_hidden_troopers_id_is_refused_to_the_opponent_like_an_unknown_one():
    game = new_game()
    to_phase(game, ORDERS)
    with pytest.raises(UnknownElement) as hidden:
        game.do("A", ForceGutsRoll(trooper_id=game.id("Ninja"), passed=True))
    with pytest.raises(UnknownElement) as unknown:
        game.do("A", ForceGutsRoll(trooper_id="nosuchtrooper", passed=True))
    assert hidden.value.message == unknown.value.message


# ------------------------------------------------------------------ TM-E2


def test_tm_e2_cancels_the_possessed_state_of_an_allied_trooper():
    game = new_game()
    set_state(game, "Fusilier", tokens=[POSSESSED, "prone"], by="B")
    game.do("A", CancelPossessed(trooper_id=game.id("Fusilier")))
    assert game.trooper("Fusilier").tokens == frozenset({"prone"})


def test_tm_e2_refuses_a_trooper_that_is_not_possessed():
    game = new_game()
    with pytest.raises(NotAllowed) as refused:
        game.do("A", CancelPossessed(trooper_id=game.id("Fusilier")))
    assert refused.value.rule == "TM-E2"
    assert tokens(game, "A") == 4


# ------------------------------------------------------------------ TM-T


def _coordinated(game):
    return CoordinatedOrder(trooper_ids=[game.id("Kaplan"), game.id("Fusilier")])


def _guts(game):
    return ForceGutsRoll(trooper_id=game.id("Fusilier"), passed=True)


def _regular(game):
    return MakeOrderRegular(trooper_id=game.id("Zhanshi"))


def _ignore(game):
    return IgnoreRetreat(trooper_id=game.id("Fusilier"))


def _doctor(game):
    game.do("A", DeclareSkill(trooper_id=game.id("Trauma Doc"), skill="roll_skill"))
    return RerollDoctorWip(trooper_id=game.id("Trauma Doc"), target_id=game.id("Cubed"))


def _engineer(game):
    game.do("A", DeclareSkill(trooper_id=game.id("Machinist"), skill="roll_skill"))
    return RerollEngineerWip(trooper_id=game.id("Machinist"), target_id=game.id("Remote"))


TACTICAL_USES = [
    ("TM-T1", _coordinated, "CoordinatedOrderDeclared"),
    ("TM-T2", _guts, "GutsRollForced"),
    ("TM-T3", _regular, "OrderMadeRegular"),
    ("TM-T4", _ignore, "RetreatIgnored"),
    ("TM-T5", _doctor, "WipRerolled"),
    ("TM-T6", _engineer, "WipRerolled"),
]


@pytest.mark.parametrize(
    ("use", "prepare", "kind"), TACTICAL_USES, ids=[u[0] for u in TACTICAL_USES]
)
def test_each_tactical_use_spends_one_public_token_in_the_own_active_turn(use, prepare, kind):
    game = new_game()
    to_phase(game, ORDERS)
    events = game.do("A", prepare(game))
    spent = [e for e in events if e.kind == "CommandTokenSpent"]
    assert [(e.use, e.rule, e.private_to) for e in spent] == [(use, use, None)]
    assert [e.rule for e in events if e.kind == kind] == [use]
    assert tokens(game, "A") == 3


def test_tm_t1_coordinated_order_spends_one_regular_order_and_records_participants():
    game = new_game()
    to_phase(game, ORDERS)
    ids = [game.id("Kaplan"), game.id("Fusilier"), game.id("Cubed")]
    game.do("A", CoordinatedOrder(trooper_ids=ids))
    assert game.view("B").orders_left == {1: 6, 2: 1}
    order = game.state.turn.order
    assert order.trooper_id == ids[0] and list(order.extra["coordinated"]) == ids
    # The first participant carries the Order; the declarations apply to all.
    game.do("A", DeclareSkill(trooper_id=ids[0], skill="move"))
    game.do("A", EndOrder())
    assert game.state.turn.order is None


@pytest.mark.parametrize(
    ("names", "error"),
    [
        (["Kaplan"], InvalidInput),
        (["Kaplan", "Kaplan"], InvalidInput),
        (["Kaplan", "Fusilier", "Cubed", "Remote", "Kazak"], InvalidInput),
        (["Kaplan", "Bolt"], NotAllowed),
    ],
    ids=["alone", "twice", "five", "two-groups"],
)
def test_tm_t1_needs_two_to_four_troopers_of_one_combat_group(names, error):
    game = new_game()
    to_phase(game, ORDERS)
    with pytest.raises(error) as refused:
        game.do("A", CoordinatedOrder(trooper_ids=[game.id(n) for n in names]))
    assert refused.value.rule == "TM-T1"
    assert tokens(game, "A") == 4


def test_tm_t1_is_declared_in_the_orders_phase_only():
    game = new_game()
    with pytest.raises(NotAllowed) as refused:
        game.do("A", _coordinated(game))
    assert refused.value.rule == "TM-T1"


def test_tm_t1_needs_a_regular_order_left_in_the_group():
    game = new_game()
    game.do("A", ChangeCombatGroup(trooper_id=game.id("Fusilier"), group=2))
    to_phase(game, ORDERS)
    for name in ("Bolt", "Fusilier"):
        game.do("A", DeclareSkill(trooper_id=game.id(name), skill="move"))
        game.do("A", EndOrder())
    with pytest.raises(NotAllowed) as refused:
        game.do("A", CoordinatedOrder(trooper_ids=[game.id("Bolt"), game.id("Fusilier")]))
    assert refused.value.rule == "TM-T1"


def test_hd_6_a_hidden_participant_is_revealed_before_it_is_named():
    game = new_game()
    to_turn(game, 1, "B")
    to_phase(game, ORDERS)
    ninja = game.id("Ninja")
    # HD-6: it may be picked (this test used to pass on a refusal).
    events = game.do("B", CoordinatedOrder(trooper_ids=[game.id("Alguacil"), ninja]))
    kinds = [e.kind for e in events]
    assert "CommandTokenSpent" in kinds and tokens(game, "B") == 3
    assert not game.trooper("Ninja").hidden
    assert kinds.index("SecretRevealed") < kinds.index("CoordinatedOrderDeclared")
    declared = events[kinds.index("CoordinatedOrderDeclared")]
    assert declared.lost_own_order == [ninja]
    assert ninja in game.state.turn.extra["own_used"]


@pytest.mark.parametrize("passed", [True, False])
def test_tm_t2_an_allied_trooper_automatically_passes_or_fails_a_guts_roll(passed):
    game = new_game()
    to_phase(game, ORDERS)
    events = game.do("A", ForceGutsRoll(trooper_id=game.id("Fusilier"), passed=passed))
    message, _params = events[-1].describe()
    assert ("passes" in message) is passed and ("fails" in message) is not passed


def test_tm_t3_turns_an_irregular_order_regular_for_that_turn():
    game = new_game()
    to_phase(game, ORDERS)
    game.do("A", MakeOrderRegular(trooper_id=game.id("Zhanshi")))
    assert game.view("B").orders_left == {1: 8, 2: 1}
    assert game.view("B").trooper(game.id("Zhanshi")).regular_order
    to_turn(game, 2, "A")
    assert not game.trooper("Zhanshi").regular_this_turn
    assert game.view("A").orders_left == {1: 7, 2: 1}


def test_tm_t3_refuses_an_isolated_troopers_order():
    """FAQ: the Order of an Isolated trooper cannot be made Regular."""
    game = new_game()
    set_state(game, "Zhanshi", tokens=[ISOLATED])
    to_phase(game, ORDERS)
    with pytest.raises(NotAllowed) as refused:
        game.do("A", MakeOrderRegular(trooper_id=game.id("Zhanshi")))
    assert refused.value.rule == "TM-T3" and "Isolated" in str(refused.value)


def test_tm_t3_refuses_a_regular_trooper_or_a_spent_irregular_order():
    game = new_game()
    to_phase(game, ORDERS)
    with pytest.raises(NotAllowed) as regular:
        game.do("A", MakeOrderRegular(trooper_id=game.id("Fusilier")))
    game.do("A", DeclareSkill(trooper_id=game.id("Zhanshi"), skill="move"))
    game.do("A", EndOrder())
    with pytest.raises(NotAllowed) as spent:
        game.do("A", MakeOrderRegular(trooper_id=game.id("Zhanshi")))
    assert regular.value.rule == spent.value.rule == "TM-T3"
    assert tokens(game, "A") == 4


def test_tm_t4_a_trooper_ignores_retreat_until_the_end_of_the_game():
    game = new_game()
    to_phase(game, ORDERS)
    game.do("A", IgnoreRetreat(trooper_id=game.id("Fusilier")))
    to_turn(game, 3, "A")
    assert game.trooper("Fusilier").ignores_retreat
    assert game.view("B").trooper(game.id("Fusilier")).ignores_retreat


def test_tm_t4_refuses_a_trooper_that_already_ignores_retreat():
    game = new_game()
    to_phase(game, ORDERS)
    with pytest.raises(NotAllowed) as refused:
        game.do("A", IgnoreRetreat(trooper_id=game.id("Kazak")))
    assert refused.value.rule == "TM-T4" and "RT-X1" in str(refused.value)


REROLLS = [
    ("TM-T5", "Trauma Doc", "Cubed", RerollDoctorWip),
    ("TM-T6", "Machinist", "Remote", RerollEngineerWip),
]


@pytest.mark.parametrize(("use", "actor", "target", "command"), REROLLS, ids=["TM-T5", "TM-T6"])
def test_wip_reroll_is_for_the_actors_current_order_and_grants_no_new_aro(
    use, actor, target, command
):
    game = new_game()
    to_phase(game, ORDERS)
    reroll = command(trooper_id=game.id(actor), target_id=game.id(target))
    with pytest.raises(NotAllowed) as no_order:
        game.do("A", reroll)
    assert no_order.value.rule == use
    game.do("A", DeclareSkill(trooper_id=game.id(actor), skill="roll_skill"))
    events = game.do("A", reroll)
    assert "no new ARO" in events[-1].describe()[0]
    # Re-rolling is not a new declaration: the Order holds the same skills.
    assert game.state.turn.order.skills == ("roll_skill",)
    events = game.do("A", reroll)  # and may be repeated while tokens last
    assert tokens(game, "A") == 2


@pytest.mark.parametrize(("use", "actor", "target", "command"), REROLLS, ids=["TM-T5", "TM-T6"])
def test_wip_reroll_needs_the_skill_and_the_right_target(use, actor, target, command):
    game = new_game()
    to_phase(game, ORDERS)
    game.do("A", DeclareSkill(trooper_id=game.id(actor), skill="roll_skill"))
    with pytest.raises(NotAllowed) as wrong_target:
        game.do("A", command(trooper_id=game.id(actor), target_id=game.id("Fusilier")))
    game.do("A", EndOrder())
    game.do("A", DeclareSkill(trooper_id=game.id("Fusilier"), skill="roll_skill"))
    with pytest.raises(NotAllowed) as wrong_actor:
        game.do("A", command(trooper_id=game.id("Fusilier"), target_id=game.id(target)))
    assert wrong_target.value.rule == wrong_actor.value.rule == use
    assert tokens(game, "A") == 4


@pytest.mark.parametrize(("use", "actor", "target", "command"), REROLLS, ids=["TM-T5", "TM-T6"])
def test_wip_reroll_is_for_every_participant_of_a_coordinated_order(use, actor, target, command):
    """TM-T1 + TM-T5/T6: every participant of a Coordinated Order executes
    its declaration, so the Doctor or Engineer that is not the first of them
    is in the current Order too and its failed WIP roll may be re-rolled."""
    game = new_game()
    to_phase(game, ORDERS)
    game.do("A", CoordinatedOrder(trooper_ids=[game.id("Kaplan"), game.id(actor)]))
    game.do("A", DeclareSkill(trooper_id=game.id("Kaplan"), skill="roll_skill"))
    events = game.do("A", command(trooper_id=game.id(actor), target_id=game.id(target)))
    assert [e.rule for e in events if e.kind == "WipRerolled"] == [use]


def test_tokens_spent_and_replay_agree():
    game = new_game()
    game.do("A", ChangeCombatGroup(trooper_id=game.id("Fusilier"), group=2))
    count_orders(game)
    game.do("B", CancelOpponentOrders(groups=["1", "1"]))
    to_phase(game, ORDERS)
    game.do("A", CoordinatedOrder(trooper_ids=[game.id("Kaplan"), game.id("Cubed")]))
    game.do("A", EndOrder())
    end_turn(game)
    assert rules.replay(game.events) == game.state


def test_the_strategic_use_is_made_once_per_game():
    """A player who already made a Strategic Use (TM-S1 or TM-S2) may not make
    another, even in a window that is open (TM-S2)."""
    game = at_s2()
    game.state = game.state.with_seat("B", strategic_used=True)
    with pytest.raises(NotAllowed, match="once per game") as refused:
        game.do("B", LimitOpponentTokens())
    assert refused.value.rule == "TM-S2"


def test_tm_s1_is_not_offered_again_once_the_reserve_is_sealed():
    """TM-S1 is the Strategic Use of the player with the first Player Turn,
    once per game: sealed with her deployment, it is not offered again while
    her opponent is still deploying."""
    a, b = lists()
    game = Game.listed(a, b)
    game.do("A", SetInitiative(first_turn="A", deploys_first="A"))
    game.seal("A", reserve="Bolt")
    assert game.state.seat("A").strategic_used and tokens(game, "A") == 3
    assert "TM-S1" not in game.view("A").token_uses
    with pytest.raises(NotAllowed) as refused:
        spend_token(game.state, "A", "TM-S1")
    assert refused.value.rule == "TM-S1"
