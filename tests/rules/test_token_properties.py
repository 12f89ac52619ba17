"""Invariants of Command Tokens and Retreat! under random legal play (TM, RT).

Random sequences of token uses, turn advances, state changes and Orders;
commands the rules refuse are skipped. After every accepted step: no player
has fewer than 0 or more than 4 Command Tokens, never more than 4 were spent,
none was spent in the Reactive Turn except TM-S2 (TM-0), the TM-S2 limit
held, and the opponent's view never shows a hidden trooper. At the end,
replaying the log (also through JSON, as the database stores it) gives the
state built step by step.
"""

import json
from dataclasses import replace

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tracker import rules
from tracker.rules.conditions import SetTrooperState
from tracker.rules.errors import RuleViolation
from tracker.rules.orders import DeclareSkill, EndOrder
from tracker.rules.retreat import EvacuateTrooper
from tracker.rules.state import (
    COMMAND_TOKENS_PER_GAME,
    CONDITIONS,
    COURAGE,
    CUBE,
    DOCTOR,
    ENGINEER,
    HIDDEN_DEPLOYMENT,
    IRREGULAR,
    ISOLATED,
    POSSESSED,
    PRONE,
    REMOTE_PRESENCE,
    SEATS,
    other_seat,
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
from tracker.rules.turns import AdvancePhase

from .game import Game, trooper


def new_game():
    a = [
        trooper("Kaplan", 10),
        trooper("Zhanshi", 10, traits=[IRREGULAR]),
        trooper("Doc", 10, group=2, traits=[DOCTOR]),
        trooper("Cubed", 10, group=2, traits=[CUBE]),
        trooper("Brave", 10, traits=[COURAGE]),
        # Losing the big one alone puts an army in Retreat!.
        trooper("Big", 160, group=2),
    ]
    b = [
        trooper("Alguacil", 10),
        trooper("Machinist", 10, traits=[ENGINEER]),
        trooper("Remote", 10, traits=[REMOTE_PRESENCE]),
        trooper("Ninja", 20, group=2, traits=[HIDDEN_DEPLOYMENT]),
        trooper("Heavy", 150, group=2),
    ]
    return Game.started(a, b, first="A", seal_b={"hd": {"Ninja": "roof"}}, rounds=4)


SKILLS = ["move", "bs_attack", "dodge", "roll_skill", "cautious_move"]


TROOPERS = 11  # in the two lists above


def _some():
    """A trooper, as its index in the match's sorted ids (see `with_ids`)."""
    return st.integers(0, TROOPERS - 1).map(str)


_group = st.integers(1, 3)

# Built once: building strategies per step is what makes hypothesis slow.
COMMANDS = st.one_of(
    st.just("advance"),
    st.just("advance"),
    st.just("advance"),
    st.builds(ChangeCombatGroup, trooper_id=_some(), group=_group),
    st.builds(CancelPossessed, trooper_id=_some()),
    st.builds(CoordinatedOrder, trooper_ids=st.lists(_some(), min_size=2, max_size=3)),
    # Participants of one Combat Group (indexes follow the lists' order).
    st.builds(
        CoordinatedOrder,
        trooper_ids=st.sampled_from(
            [["0", "1"], ["0", "4", "1"], ["2", "3"], ["6", "7"], ["9", "10"]]
        ),
    ),
    st.builds(ForceGutsRoll, trooper_id=_some(), passed=st.booleans()),
    st.builds(MakeOrderRegular, trooper_id=_some()),
    st.builds(IgnoreRetreat, trooper_id=_some()),
    st.builds(RerollDoctorWip, trooper_id=_some(), target_id=_some()),
    st.builds(RerollEngineerWip, trooper_id=_some(), target_id=_some()),
    st.builds(CancelOpponentOrders, groups=st.lists(_group.map(str), min_size=1, max_size=3)),
    st.just(LimitOpponentTokens()),
    st.builds(StrategicSuppressiveFire, trooper_id=_some()),
    st.builds(
        SetTrooperState,
        trooper_id=_some(),
        condition=st.sampled_from(CONDITIONS),
        tokens=st.lists(st.sampled_from([POSSESSED, ISOLATED, PRONE]), max_size=2),
    ),
    st.builds(DeclareSkill, trooper_id=_some(), skill=st.sampled_from(SKILLS)),
    st.just(EndOrder()),
    st.builds(EvacuateTrooper, trooper_id=_some()),
)


def with_ids(command, ids):
    """The command with trooper indexes replaced by the match's ids."""
    changes = {}
    for name in ("trooper_id", "target_id"):
        if hasattr(command, name):
            changes[name] = ids[int(getattr(command, name))]
    if hasattr(command, "trooper_ids"):
        changes["trooper_ids"] = [ids[int(i)] for i in command.trooper_ids]
    return replace(command, **changes)


def check_step(game, before, events):
    state = game.state
    for seat in SEATS:
        left = state.seat(seat).command_tokens
        spent = sum(1 for e in game.events if e.kind == "CommandTokenSpent" and e.seat == seat)
        assert 0 <= left <= COMMAND_TOKENS_PER_GAME == 4
        assert spent == COMMAND_TOKENS_PER_GAME - left <= COMMAND_TOKENS_PER_GAME
    for event in events:
        if event.kind != "CommandTokenSpent":
            continue
        # TM-0: only TM-S2 is spent outside one's own Player Turn in play.
        if before.turn is not None and before.turn.seat != event.seat:
            assert event.use == "TM-S2"
        # TM-S2: the limit held (counting tokens spent before it was imposed).
        turn = before.turn
        if turn is not None and turn.extra.get("token_limit") and turn.seat == event.seat:
            assert turn.tokens_spent < turn.extra["token_limit"]
    ninja = state.troopers[game.id("Ninja")]
    if ninja.hidden:
        assert ninja.id not in repr(game.view("A"))


@settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.data())
def test_random_play_keeps_token_invariants_and_replays_exactly(data):
    game = new_game()
    ids = sorted(game.state.troopers)
    assert len(ids) == TROOPERS
    for _ in range(data.draw(st.integers(5, 80), label="steps")):
        # Mostly the active player acts; the other one tries its luck too.
        active = data.draw(st.sampled_from([True, True, True, False]), label="active")
        turn_seat = game.state.turn.seat if game.state.turn else "A"
        seat = turn_seat if active else other_seat(turn_seat)
        command = data.draw(COMMANDS, label="command")
        if command == "advance":
            if game.state.turn is None:
                continue
            command = AdvancePhase(expected=game.state.turn.phase)
        else:
            command = with_ids(command, ids)
        before = game.state
        try:
            events = game.do(seat, command)
        except RuleViolation:
            assert game.state is before
            continue
        check_step(game, before, events)
    assert rules.replay(game.events) == game.state
    stored = [
        rules.event_from_data(e.kind, json.loads(json.dumps(e.to_data()))) for e in game.events
    ]
    assert rules.replay(stored) == game.state
