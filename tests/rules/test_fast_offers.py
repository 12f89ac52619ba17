"""The forms' offers (issue 18) are what asking the handlers every pair gave
(issue 19), at every state the rules tests' scripted matches pass through,
for both seats: the Order, ARO, second Short Skill, report and Command Token
offers. The reference below is the way offers were computed before the
shortcuts: every trooper × choice asked of `rules.decide`, each state step
built by dataclasses.replace (not the rules' faster copy, state.replace).
The matches made here (`played`, and two made to order) hold twins
(twins.py) beside troopers the state names."""

from __future__ import annotations

import dataclasses
import functools
import importlib
import inspect
import random
from contextlib import contextmanager, suppress

import pytest

from tracker import rules
from tracker.rules import declaration_offers as declaration_offers_module

# The reference groups troopers as the code does (_grouped): what it does
# otherwise is ask every pair.
from tracker.rules import kept_offers, player_view, twins
from tracker.rules import state as state_module
from tracker.rules import token_offers as token_offers_module
from tracker.rules.command_tokens import open_uses
from tracker.rules.conditions import SetTrooperState
from tracker.rules.declaration_offers import (
    DECLARE_READS,
    ORDER_SKILLS,
    REPORT_READS,
    SECOND_SKILLS,
    ReportOffer,
    _grouped,
    aro_offers,
    order_offers,
    report_offers,
    second_skills,
)
from tracker.rules.errors import NotAllowed, RuleViolation
from tracker.rules.identity import alias_for
from tracker.rules.orders import (
    ARO_SKILLS,
    OUTCOME_KINDS,
    OUTCOMES,
    DeclareAro,
    DeclareSkill,
    EndOrder,
    ReportOutcome,
)
from tracker.rules.queries import trooper_visible
from tracker.rules.setup import MAX_GROUPS
from tracker.rules.state import (
    CAMOUFLAGE,
    DEPLOYMENT,
    HIDDEN_DEPLOYMENT,
    HOLOPROJECTOR,
    IMPETUOUS,
    IMPETUOUS_PHASE,
    INFILTRATION,
    IRREGULAR,
    LIEUTENANT_CANDIDATE,
    ORDERS,
    PLAYING,
    SEATS,
    MatchState,
    Trooper,
)
from tracker.rules.token_offers import token_offers
from tracker.rules.token_tactical import (
    CoordinatedOrder,
    ForceGutsRoll,
    IgnoreRetreat,
    MakeOrderRegular,
)
from tracker.rules.token_uses import CancelPossessed, ChangeCombatGroup, StrategicSuppressiveFire

from .game import Game, trooper
from .steps import advance, let_s2_pass, set_state, to_phase, to_turn

# The scripted matches: every test of these modules that takes no argument.
SCRIPTED = (
    "test_classified",
    "test_command_tokens",
    "test_declaration_offers",
    "test_fireteams",
    "test_hidden_deployment",
    "test_holoecho",
    "test_holomask",
    "test_impetuous_phase",
    "test_markers",
    "test_match_flow",
    "test_replacement",
    "test_retreat",
    "test_seat_moves",
    "test_secret_kinds",
)


@contextmanager
def recording(monkeypatch):
    """Every state a Game reaches, and every Game, while the block runs."""
    states: list[MatchState] = []
    games: list[Game] = []
    apply = Game.apply

    def recorded(self, events):
        if not self.events:
            games.append(self)
        out = apply(self, events)
        states.append(self.state)
        return out

    monkeypatch.setattr(Game, "apply", recorded)
    yield states, games
    monkeypatch.setattr(Game, "apply", apply)


def play_scripted() -> None:
    """Every argument-free test of the SCRIPTED modules, run once (under
    `recording`, the states and Games they make are what a check walks)."""
    for name in SCRIPTED:
        module = importlib.import_module(f"tests.rules.{name}")
        for attribute, test in vars(module).items():
            argument_free = callable(test) and not inspect.signature(test).parameters
            if attribute.startswith("test_") and argument_free:
                test()


@pytest.fixture(scope="module")
def scripted():
    """(the states of every argument-free test of SCRIPTED, the states of
    the matches made here, every Game of both)."""
    with pytest.MonkeyPatch.context() as monkeypatch, recording(monkeypatch) as (states, games):
        play_scripted()
        first_played = len(states)
        for seed in range(2):
            played(seed, 150)
        irregulars_one_spent()
        regular_spent_irregular_not()
        one_twin_ignores_retreat()
        coordinated_mates_one_out()
        group_one_out_of_orders()
    # The states of the rules tests, then those of the matches made here.
    return _unique(states[:first_played]), _unique(states[first_played:]), games


def _unique(states: list[MatchState]) -> list[MatchState]:
    return list({id(s): s for s in states}.values())


@contextmanager
def slow_steps():
    """Every rule module's `replace` back to dataclasses.replace."""
    with pytest.MonkeyPatch.context() as monkeypatch:
        for module in vars(rules).values():
            if (
                inspect.ismodule(module)
                and getattr(module, "replace", None) is state_module.replace
            ):
                monkeypatch.setattr(module, "replace", dataclasses.replace)
        yield


# ------------------------------------------------ the reference: ask all


def _asked(state, seat, command) -> bool:
    try:
        rules.decide(state, seat, command)
    except RuleViolation:
        return False
    return True


def reference_aro(state: MatchState, seat: str):
    turn = state.turn
    if state.phase != PLAYING or turn is None or turn.order is None or turn.seat == seat:
        return ()
    actor = state.troopers.get(turn.order.trooper_id)
    if actor is None:
        return ()
    alias = alias_for(state, actor, seat)
    target = alias.ref if alias is not None else actor.id
    element = actor.holoechoes[0] if actor.holoechoes else ""
    pairs = []
    for t in state.troopers_of(seat):
        if t.out_of_action or t.condition != "normal":
            continue
        aro = [DeclareAro(trooper_id=t.id, skill=s, target_id=target, target_element=element)
               for s in ARO_SKILLS]  # fmt: skip
        pairs.append((t, tuple(c.skill for c in aro if _asked(state, seat, c))))
    return _grouped(pairs)


def reference_orders(state: MatchState, seat: str):
    turn = state.turn
    if state.phase != PLAYING or turn is None or turn.seat != seat:
        return ()
    if turn.phase != ORDERS or turn.order is not None:
        return ()
    pairs = []
    for t in state.troopers_of(seat):
        if t.out_of_action or t.reserved or t.condition != "normal":
            continue
        pairs.append(
            (t, tuple(s for s in ORDER_SKILLS if _asked(state, seat, DeclareSkill(trooper_id=t.id, skill=s))))
        )  # fmt: skip
    return _grouped(pairs)


def reference_second(state: MatchState, seat: str):
    turn = state.turn
    if state.phase != PLAYING or turn is None or turn.seat != seat:
        return ()
    if turn.order is None or turn.phase not in (ORDERS, IMPETUOUS_PHASE):
        return ()
    actor = turn.order.trooper_id
    return tuple(
        s for s in SECOND_SKILLS if _asked(state, seat, DeclareSkill(trooper_id=actor, skill=s))
    )


def reference_reports(state: MatchState, seat: str):
    if state.phase not in (PLAYING, DEPLOYMENT):
        return ()
    groups: dict = {}
    for t in state.troopers.values():
        if not trooper_visible(t, seat) or t.condition == "dead":
            continue
        alias = alias_for(state, t, seat)
        ref = alias.ref if alias is not None else t.id
        elements = tuple(t.holoechoes)
        outcomes = tuple(
            o
            for o in OUTCOME_KINDS
            if all(
                _asked(state, seat, ReportOutcome(outcome=o, trooper_id=ref, element=e))
                for e in (elements or ("",))
            )
        )
        if outcomes:
            groups.setdefault((outcomes, elements), []).append(ref)
    ordered = sorted(groups.items(), key=lambda item: -len(item[0][0]))
    return tuple(ReportOffer(tuple(ids), o, e) for (o, e), ids in ordered)


def fast(state: MatchState, seat: str):
    return (
        aro_offers(state, seat),
        order_offers(state, seat),
        second_skills(state, seat),
        report_offers(state, seat),
        token_offers(state, seat),
    )


def reference(state: MatchState, seat: str):
    """The offers as every pair asked gives them: the Command Token offers
    with no twins (token_offers asks every trooper then)."""
    with slow_steps(), pytest.MonkeyPatch.context() as monkeypatch:
        monkeypatch.setattr(
            token_offers_module, "twin_key", lambda state, fields=None: lambda trooper: None
        )
        # Asked at this state, never kept from another (kept_offers.py).
        monkeypatch.setattr(token_offers_module, "kept_answer", lambda *args: args[-1]())
        return (
            reference_aro(state, seat),
            reference_orders(state, seat),
            reference_second(state, seat),
            reference_reports(state, seat),
            token_offers(state, seat),
        )


@pytest.fixture(scope="module")
def referenced(scripted):
    """(state, seat, the reference offers) for every state and seat, asked
    once, the rules tests' states then this module's."""
    tested, made, _games = scripted
    return tuple(
        [(state, seat, reference(state, seat)) for state in states for seat in SEATS]
        for states in (tested, made)
    )


def mismatches(referenced) -> list[tuple[int, str, int]]:
    """(seq, seat, which offer) wherever the offers differ from the reference."""
    twins._keys.clear()  # a planted shortcut applies from the first state on
    kept_offers.forget()
    found = []
    for state, seat, theirs in referenced:
        for n, (mine, answer) in enumerate(zip(fast(state, seat), theirs, strict=True)):
            if mine != answer:
                found.append((state.seq, seat, n))
    return found


def irregulars_one_spent() -> Game:
    """Twin Irregular troopers alone in a Combat Group with no Regular
    Order: once one has spent its Irregular Order, only the other may be
    activated (the turn names the spent one)."""
    group_one = [trooper("Warband", 8, group=1, traits=[IRREGULAR]) for _ in range(2)]
    return first_of_group_one_moved(group_one, [trooper("Fusilier", 10)])


def first_of_group_one_moved(group_one: list, b: list) -> Game:
    """A's Lieutenant in Combat Group 2 and `group_one`, whose first trooper
    has just moved on an Order of its own, in A's first Orders Phase."""
    a = [trooper("Lieutenant", 20, group=2, traits=[LIEUTENANT_CANDIDATE]), *group_one]
    game = Game.started(a, b, first="A")
    to_phase(game, ORDERS)
    first = game.state.troopers_of("A")[1]
    game.do("A", DeclareSkill(trooper_id=first.id, skill="move"))
    game.do("A", EndOrder())
    return game


def regular_spent_irregular_not() -> Game:
    """A Combat Group of a Fusilier and an Irregular Warband, its one
    Regular Order spent: only the Warband may still be activated, on its
    own Irregular Order. Alike in all a declaration reads but the trait."""
    group_one = [
        trooper("Fusilier", 10, group=1),
        trooper("Warband", 8, group=1, traits=[IRREGULAR]),
    ]
    return first_of_group_one_moved(group_one, [trooper("Bolt", 10)])


def one_twin_ignores_retreat() -> Game:
    """Alice in Retreat! (RT-A), one of two twins ignoring it (TM-T4): only
    the other is held to movement, Dodge and Reset (RT-3)."""
    a = [trooper("Big", 76), *(trooper("Small", 12) for _ in range(2))]
    game = Game.started(a, [trooper("Fusilier", 10)], first="A")
    set_state(game, "Big", "unconscious", by="B")
    to_turn(game, 2, "A")
    let_s2_pass(game)
    first = game.state.troopers_of("A")[1]
    game.do("A", IgnoreRetreat(trooper_id=first.id))
    to_phase(game, ORDERS)
    return game


def coordinated_mates_one_out() -> Game:
    """A Coordinated Order (TM-T1) in the Orders Phase, in a Combat Group
    where a trooper's first mate is out of action and its others are twins:
    only the twins are mates it may coordinate with, asked once for both.
    A third Fusilier, alone in its Combat Group, has no mate: a twin of the
    others but for its group."""
    a = [
        trooper("Lieutenant", 20, group=2, traits=[LIEUTENANT_CANDIDATE]),
        trooper("Lone", 15, group=1),
        trooper("Fallen", 12, group=1),
        *(trooper("Fusilier", 10, group=1) for _ in range(2)),
        trooper("Fusilier", 10, group=3),
    ]
    game = Game.started(a, [trooper("Bolt", 10)], first="A")
    set_state(game, "Fallen", "dead", by="B")
    to_phase(game, ORDERS)
    return game


def group_one_out_of_orders() -> Game:
    """Twins but for their Combat Group: once group 1 has spent its only
    Regular Order, only the Fusilier of group 2 may be activated. (The
    seeded matches below found this by chance, until the report offers
    grew, HE-D2, and their dice fell elsewhere.)"""
    a = [
        trooper("Lieutenant", 20, group=2, traits=[LIEUTENANT_CANDIDATE]),
        trooper("Fusilier", 10, group=1),
        trooper("Fusilier", 10, group=2),
    ]
    game = Game.started(a, [trooper("Bolt", 10)], first="A")
    to_phase(game, ORDERS)
    first = next(t for t in game.state.troopers_of("A") if t.combat_group == 1)
    game.do("A", DeclareSkill(trooper_id=first.id, skill="move"))
    game.do("A", EndOrder())
    return game


# ------------------------------------- a match played by what it offers


def army(letter: str) -> list[dict]:
    """Twins (identical Fusiliers in two Combat Groups, some Impetuous or
    Irregular ones) beside troopers the state names (a Lieutenant, Hidden
    Deployment, Camouflage, Infiltration, a Holoprojector)."""
    plain = [trooper(f"{letter} Fusilier", 10, group=1) for _ in range(4)]
    plain += [trooper(f"{letter} Rifle", 10, group=2) for _ in range(3)]
    plain += [trooper(f"{letter} Berserk", 12, group=2, traits=[IMPETUOUS]) for _ in range(2)]
    plain += [trooper(f"{letter} Warband", 8, group=1, traits=[IRREGULAR]) for _ in range(2)]
    return [
        trooper(f"{letter} Lieutenant", 20, traits=[LIEUTENANT_CANDIDATE]),
        trooper(f"{letter} Ninja", 30, traits=[HIDDEN_DEPLOYMENT, CAMOUFLAGE]),
        trooper(f"{letter} Yaogat", 25, traits=[HIDDEN_DEPLOYMENT, INFILTRATION]),
        trooper(f"{letter} Hassassin", 40, traits=[HOLOPROJECTOR]),
        *plain,
    ]


def _seal(letter: str, real: str) -> dict:
    return {
        "lieutenant": f"{letter} Lieutenant",
        "hd": {f"{letter} Ninja": "behind the wall", f"{letter} Yaogat": "in the tower"},
        "holoecho": {f"{letter} Hassassin": real},
    }


def _moves(game: Game, rng: random.Random) -> list:
    """(seat, command) candidates: the offered ones, and a phone's other taps."""
    state = game.state
    moves = []
    for seat in SEATS:
        for offer in order_offers(state, seat):
            moves.append((seat, DeclareSkill(trooper_id=rng.choice(offer.trooper_ids),
                                             skill=rng.choice(offer.skills))))  # fmt: skip
        for skill in second_skills(state, seat):
            moves.append((seat, DeclareSkill(trooper_id=state.turn.order.trooper_id, skill=skill)))
        actor = state.turn.order.trooper_id if state.turn and state.turn.order else ""
        for offer in aro_offers(state, seat):
            target = player_view(state, seat).order.trooper_id if actor else ""
            element = state.troopers[actor].holoechoes[:1] if actor else ()
            moves.append((seat, DeclareAro(trooper_id=rng.choice(offer.trooper_ids),
                                           skill=rng.choice(offer.skills), target_id=target,
                                           target_element=element[0] if element else "")))  # fmt: skip
        for offer in report_offers(state, seat):
            moves.append((seat, ReportOutcome(outcome=rng.choice(offer.outcomes),
                                              trooper_id=rng.choice(offer.trooper_ids),
                                              element=rng.choice(offer.elements or ("",)))))  # fmt: skip
        tokens = token_offers(state, seat)
        for ids, groups in tokens.e1_moves:
            moves.append((seat, ChangeCombatGroup(trooper_id=ids[0], group=groups[0])))
        for use, command in (
            ("t3", MakeOrderRegular),
            ("t4", IgnoreRetreat),
            ("e2", CancelPossessed),
        ):
            for trooper_id in getattr(tokens, use)[:1]:
                moves.append((seat, command(trooper_id=trooper_id)))
        mine = [t for t in state.troopers_of(seat) if not t.hidden and t.condition != "dead"]
        if mine:
            tapped = rng.choice(mine)
            condition = rng.choice(["normal", "normal", "normal", "unconscious"])
            marks = rng.sample(
                ["prone", "immobilized_a", "possessed", "isolated"], rng.randint(0, 2)
            )
            moves.append(
                (seat, SetTrooperState(trooper_id=tapped.id, condition=condition, tokens=marks))
            )
    if state.turn and state.turn.order is not None:
        moves += [(state.turn.seat, EndOrder())] * 3
    return moves


def played(seed: int, steps: int) -> Game:
    """A match of twins and named troopers, played `steps` taps by a seeded
    random choice among what the phones offer, and the turns advanced."""
    rng = random.Random(seed)
    game = Game.started(
        army("A"), army("B"), seal_a=_seal("A", "marker1"), seal_b=_seal("B", "model")
    )
    for _ in range(steps):
        if game.state.phase != PLAYING:
            break
        turn = game.state.turn
        if turn.order is None and (turn.phase != ORDERS or rng.random() < 0.08):
            advance(game)
            continue
        moves = _moves(game, rng)
        seat, command = rng.choice(moves)
        # A state tap or an End Order may be refused: the phone offers those anyway.
        with suppress(RuleViolation):
            game.do(seat, command)
    return game


# ---------------------------------------------------------------- tests


def test_the_scripted_matches_pass_through_many_offer_situations(scripted, referenced):
    tested, made, _games = scripted
    assert len(tested) > 2000 and len(made) > 300
    # The reference's answers (the offers equal them, below).
    offered = [answers for part in referenced for _state, _seat, answers in part]
    assert sum(1 for o in offered if o[0]) > 20  # AROs against an Order
    assert sum(1 for o in offered if o[1]) > 50  # Orders Phase
    assert sum(1 for o in offered if o[2]) > 20  # a second Short Skill
    assert sum(1 for o in offered if o[3]) > 200  # reports
    assert sum(1 for o in offered if o[4]) > 20  # Command Token uses
    # States with twins beside troopers the state names.
    shared = [s for s in made if _has_twins(s) and any(_named(s, t) for t in s.troopers.values())]
    assert len(shared) > 100


def _has_twins(state):
    key = twins.twin_key(state, twins.EVERY_FIELD)
    keys = [key(t) for t in state.troopers.values()]
    found = [k for k in keys if k is not None]
    return len(found) > len(set(found))


def _named(state, trooper_):
    return twins.twin_key(state, twins.EVERY_FIELD)(trooper_) is None


def test_the_offers_are_what_asking_every_pair_gives(referenced):
    tested, made = referenced
    assert mismatches(tested + made) == []


class _Recorded(Trooper):
    """A trooper that notes each field read of it (and of its copies: the
    rules' replace keeps the class) while _READING is on."""

    def __getattribute__(self, name):
        if _READING and name in _TROOPER_FIELDS:
            _READ.add(name)
        return object.__getattribute__(self, name)


_TROOPER_FIELDS = frozenset(f.name for f in dataclasses.fields(Trooper))
_READING: list = []
_READ: set[str] = set()


def _watched(state: MatchState) -> MatchState:
    """`state` with every trooper a _Recorded copy of itself."""
    recorded = {}
    for trooper_id, trooper_ in state.troopers.items():
        copy = object.__new__(_Recorded)
        object.__getattribute__(copy, "__dict__").update(trooper_.__dict__)
        recorded[trooper_id] = copy
    return state_module.replace(state, troopers=recorded)


def fields_read(states, monkeypatch, questions) -> tuple[set[str], int]:
    """Every field of every trooper read while the commands
    `questions(state, seat, trooper)` are asked, for each trooper the state
    does not name (twins.py), at each state and for each seat; and how many
    troopers were asked about. A field read of any trooper counts, not only
    of the one asked about: a rule that walks the army (a sum of points, a
    count of a Combat Group) tells twins apart by what it reads of them."""
    monkeypatch.setitem(state_module._COPYABLE, _Recorded, _TROOPER_FIELDS)
    _READ.clear()
    asked = 0
    for state in states:
        named = twins.twin_key(state, twins.EVERY_FIELD)
        watched = None
        for seat in SEATS:
            for trooper_ in state.troopers.values():
                if named(trooper_) is None:
                    continue
                commands = list(questions(state, seat, trooper_))
                if not commands:
                    continue
                watched = watched or _watched(state)
                _READING.append(True)
                try:
                    for command in commands:
                        _asked(watched, seat, command)
                finally:
                    _READING.clear()
                asked += 1
    return set(_READ) - {"id", "name"}, asked


def report_questions(state, seat, trooper_):
    """Every report of an outcome on `trooper_`, as report_offers asks them
    (each outcome, each Holoecho element)."""
    if state.phase not in (PLAYING, DEPLOYMENT):
        return
    if not trooper_visible(trooper_, seat) or trooper_.condition == "dead":
        return
    alias = alias_for(state, trooper_, seat)
    ref = alias.ref if alias is not None else trooper_.id
    for outcome in OUTCOME_KINDS:
        for element in trooper_.holoechoes or ("",):
            yield ReportOutcome(outcome=outcome, trooper_id=ref, element=element)


def test_a_report_reads_of_its_trooper_only_the_fields_its_twin_key_holds(scripted, monkeypatch):
    """declaration_offers.REPORT_READS: troopers alike in those fields are
    asked once for every report. Recorded at every state of the matches:
    a report that starts reading another field of the trooper fails here."""
    tested, made, _games = scripted
    read, asked = fields_read(tested + made, monkeypatch, report_questions)
    assert asked > 5000
    assert {"hidden", "marker", "holoechoes"} <= read
    assert read <= set(REPORT_READS), read - set(REPORT_READS)


def test_the_matches_ask_reports_of_troopers_alike_only_in_the_report_s_fields(scripted):
    """The check against asking every pair (above) holds twins that only a
    report takes as such: the Fusiliers and Rifles of a side differ in their
    Combat Group alone."""
    _tested, made, _games = scripted
    assert _states_with_more_twins(made, REPORT_READS) > 100


def _states_with_more_twins(states, fields, use=None) -> int:
    """How many of `states` (with `use` open for a seat, if given) have
    troopers that are twins in `fields` and not in every field."""
    found = 0
    for state in states:
        if use is not None and not any(use in open_uses(state, seat) for seat in SEATS):
            continue
        full, fewer = twins.twin_key(state, twins.EVERY_FIELD), twins.twin_key(state, fields)
        keys = [(full(t), fewer(t)) for t in state.troopers.values()]
        fulls = {k for k, _f in keys if k is not None}
        fewers = {f for _k, f in keys if f is not None}
        found += len(fewers) < len(fulls)
    return found


def test_the_record_finds_a_new_rule_that_reads_another_field(scripted, monkeypatch):
    """A rule added to the reports that reads the trooper's Silhouette (a
    field REPORT_READS leaves out, so Silhouette 1 and 5 would answer for
    each other) is found by the record above."""
    tested, made, _games = scripted

    def by_size(state, seat, trooper, element):
        if state.troopers[trooper.id].silhouette > 8:
            raise NotAllowed("Too big to hit.")
        return []

    monkeypatch.setitem(OUTCOMES, "saving_roll", [*OUTCOMES["saving_roll"], by_size])
    read, _asked_ = fields_read(tested + made, monkeypatch, report_questions)
    assert "silhouette" in read


def declaration_questions(state, seat, trooper_):
    """Every Order skill the active player's trooper may be asked to
    declare, and every ARO of the reactive player's, as order_offers and
    aro_offers ask them."""
    turn = state.turn
    if state.phase != PLAYING or turn is None or trooper_.seat != seat:
        return
    if trooper_.out_of_action or trooper_.condition != "normal":
        return
    if turn.seat == seat and turn.phase == ORDERS and turn.order is None:
        for skill in ORDER_SKILLS:
            yield DeclareSkill(trooper_id=trooper_.id, skill=skill)
    actor = state.troopers.get(turn.order.trooper_id) if turn.order else None
    if turn.seat != seat and actor is not None:
        alias = alias_for(state, actor, seat)
        target = alias.ref if alias is not None else actor.id
        element = actor.holoechoes[0] if actor.holoechoes else ""
        for skill in ARO_SKILLS:
            yield DeclareAro(
                trooper_id=trooper_.id, skill=skill, target_id=target, target_element=element
            )


def test_a_declaration_reads_of_any_trooper_only_the_fields_its_twin_key_holds(
    scripted, monkeypatch
):
    """declaration_offers.DECLARE_READS: troopers alike in those fields are
    asked once for every Order skill and ARO. Recorded at every state of the
    matches: a declaration that starts reading another field fails here."""
    tested, made, _games = scripted
    read, asked = fields_read(tested + made, monkeypatch, declaration_questions)
    assert asked > 2000, asked
    assert {"combat_group", "traits", "regular_this_turn", "hidden"} <= read, read
    expected = set(DECLARE_READS) | {"position"}  # list order
    assert read <= expected, read - expected


def test_the_matches_ask_declarations_of_troopers_alike_only_in_their_fields(scripted):
    """The check against asking every pair holds Order offers of troopers
    that only a declaration takes as twins (they differ in points)."""
    _tested, made, _games = scripted
    in_orders = [s for s in made if any(order_offers(s, seat) for seat in SEATS)]
    assert _states_with_more_twins(in_orders, DECLARE_READS) > 20


@pytest.mark.parametrize("left_out", ["combat_group", "traits"])
def test_the_check_finds_a_declaration_key_that_shares_too_widely(
    referenced, monkeypatch, left_out
):
    """A field left out of DECLARE_READS is caught by the check against
    asking every pair, in the matches made here."""
    _tested, made = referenced
    planted = tuple(f for f in DECLARE_READS if f != left_out)
    monkeypatch.setattr(declaration_offers_module, "DECLARE_READS", planted)
    assert mismatches(made) != []


# What token_offers asks about a trooper for each use (the Coordinated Order
# with each mate of its Combat Group; the Combat Groups it may go to).
TOKEN_QUESTIONS = {
    "TM-S2": lambda state, t: [StrategicSuppressiveFire(trooper_id=t.id)],
    "TM-E1": lambda state, t: [
        ChangeCombatGroup(trooper_id=t.id, group=g) for g in range(1, MAX_GROUPS + 1)
    ],
    "TM-E2": lambda state, t: [CancelPossessed(trooper_id=t.id)],
    "TM-T1": lambda state, t: [
        CoordinatedOrder(trooper_ids=[t.id, mate.id])
        for mate in state.troopers_of(t.seat)
        if mate.combat_group == t.combat_group and mate.id != t.id
    ],
    "TM-T2": lambda state, t: [ForceGutsRoll(trooper_id=t.id, passed=True)],
    "TM-T3": lambda state, t: [MakeOrderRegular(trooper_id=t.id)],
    "TM-T4": lambda state, t: [IgnoreRetreat(trooper_id=t.id)],
}


def token_questions(use):
    def questions(state, seat, trooper_):
        if trooper_.seat == seat and use in open_uses(state, seat):
            yield from TOKEN_QUESTIONS[use](state, trooper_)

    return questions


def test_every_use_offered_per_trooper_is_asked():
    """TOKEN_QUESTIONS and TOKEN_READS name the same uses: every use the
    offers ask per trooper is recorded below."""
    assert set(TOKEN_QUESTIONS) == set(token_offers_module.TOKEN_READS)


@pytest.mark.parametrize("use", sorted(TOKEN_QUESTIONS))
def test_a_token_use_reads_of_any_trooper_only_the_fields_its_twin_key_holds(
    scripted, monkeypatch, use
):
    """token_offers.TOKEN_READS: troopers alike in a use's fields are asked
    once for it. Recorded at every state of the matches where the use is
    open: a handler that starts reading another field of any trooper fails
    here."""
    tested, made, _games = scripted
    read, asked = fields_read(tested + made, monkeypatch, token_questions(use))
    assert asked > 100, asked
    assert {"seat", "condition", "hidden"} <= read, read
    expected = set(token_offers_module.TOKEN_READS[use]) | {"position"}  # list order
    assert read <= expected, read - expected


@pytest.mark.parametrize(
    ("command_type", "field", "questions"),
    [
        (DeclareSkill, "silhouette", declaration_questions),
        (ForceGutsRoll, "cost", token_questions("TM-T2")),
    ],
    ids=["an Order reads Silhouette", "TM-T2 reads points"],
)
def test_the_record_finds_a_new_rule_that_reads_a_field_no_key_holds(
    scripted, monkeypatch, command_type, field, questions
):
    """A rule added to a handler that reads a field its key leaves out
    (troopers that differ in it would answer for each other) is found."""
    tested, made, _games = scripted
    handler = rules.commands.HANDLERS[command_type]

    def planted(state, seat, command):
        if getattr(state.troopers[command.trooper_id], field) > 60:
            raise NotAllowed("A planted rule.")
        return handler(state, seat, command)

    monkeypatch.setitem(rules.commands.HANDLERS, command_type, planted)
    read, _asked_ = fields_read(tested + made, monkeypatch, questions)
    assert field in read


@pytest.mark.parametrize("use", ["TM-T1", "TM-T2", "TM-T4"])
def test_the_matches_ask_token_uses_of_troopers_alike_only_in_the_use_s_fields(scripted, use):
    """The check against asking every pair holds twins that only a Command
    Token use takes as such, in states where that use is open."""
    _tested, made, _games = scripted
    assert _states_with_more_twins(made, token_offers_module.TOKEN_READS[use], use) > 20


@pytest.mark.parametrize(
    ("use", "left_out"),
    [("TM-T1", "combat_group"), ("TM-T4", "ignores_retreat"), ("TM-T3", "regular_this_turn")],
)
def test_the_check_finds_a_token_use_that_shares_too_widely(referenced, monkeypatch, use, left_out):
    """A field left out of a use's TOKEN_READS (troopers that differ in it
    answer for each other) is caught by the check against asking every
    pair, in the matches made here."""
    _tested, made = referenced
    reads = token_offers_module.TOKEN_READS
    planted = {**reads, use: tuple(f for f in reads[use] if f != left_out)}
    monkeypatch.setattr(token_offers_module, "TOKEN_READS", planted)
    assert mismatches(made) != []


def test_the_check_finds_a_coordinated_order_asked_of_too_few_mates(referenced, monkeypatch):
    """TM-T1's mates are asked once per set of twin mates (token_offers.py):
    asking only the first mate of each trooper is caught."""
    _tested, made = referenced
    monkeypatch.setattr(token_offers_module, "_one_per_twin", lambda mates, key: mates[:1])
    assert mismatches(made) != []


def test_the_check_finds_a_shortcut_that_ignores_who_is_named(referenced, monkeypatch):
    _tested, made = referenced
    monkeypatch.setattr(twins, "_everything_but_own_ids", lambda state: "")
    assert mismatches(made) != []


def test_states_built_by_the_fast_copy_equal_those_built_by_init(scripted):
    """Each scripted match's log replayed both ways gives equal states."""
    _tested, _made, games = scripted
    for game in games:
        fast_replay = rules.replay(game.events)
        with slow_steps():
            assert rules.replay(game.events) == fast_replay
    assert len(games) > 100


def test_the_fast_copy_refuses_an_unknown_field_like_dataclasses_replace():
    one = Trooper(**{k: v for k, v in trooper("Fusilier").items() if k != "traits"}, seat="A")
    assert state_module.replace(one, condition="dead") == dataclasses.replace(one, condition="dead")
    with pytest.raises(TypeError):
        state_module.replace(one, conditon="dead")
    with pytest.raises(TypeError):
        dataclasses.replace(one, conditon="dead")


def test_a_dataclass_with_post_init_is_copied_through_init():
    @dataclasses.dataclass(frozen=True)
    class Checked:
        value: int

        def __post_init__(self):
            if self.value < 0:
                raise ValueError(self.value)

    with pytest.raises(ValueError):
        state_module.replace(Checked(1), value=-1)


@dataclasses.dataclass(frozen=True)
class _Plain:
    value: int


class _Derived(_Plain):
    """A subclass with an __init__ of its own (a value worked out from a field)."""

    def __init__(self, value: int) -> None:
        super().__init__(value)
        object.__setattr__(self, "double", 2 * value)


@dataclasses.dataclass(frozen=True)
class _Validated:
    value: int

    def __init__(self, value: int) -> None:  # a hand-written __init__: dataclass keeps it
        if value < 0:
            raise ValueError(value)
        object.__setattr__(self, "value", value)


@dataclasses.dataclass(frozen=True)
class _Cached:
    value: int

    @functools.cached_property
    def double(self) -> int:
        return 2 * self.value


def test_the_fast_copy_builds_what_init_builds_whatever_the_class_does_in_it():
    """state.replace must stay dataclasses.replace for any dataclass a rule
    module may add: a subclass's own __init__, a hand-written __init__ and a
    cached value are all as __init__ (or a first read) makes them."""
    assert state_module.replace(_Derived(1), value=5).double == 10
    with pytest.raises(ValueError):
        state_module.replace(_Validated(1), value=-1)
    cached = _Cached(1)
    assert cached.double == 2
    assert state_module.replace(cached, value=5).double == 10


def test_each_state_keeps_its_own_twin_key(scripted):
    """twin_key keeps the last few states' keys (a server builds other
    matches' views between the two of one action): a state finds its own
    after another's, and an entry under its id holding another state is not
    taken for its own (ids are reused once a state is freed)."""
    _tested, made, _games = scripted
    first, second = made[-1], made[-2]
    key = twins.twin_key(first, twins.EVERY_FIELD)
    twins.twin_key(second, twins.EVERY_FIELD)
    assert twins.twin_key(first, twins.EVERY_FIELD) is key
    assert twins.twin_key(first, REPORT_READS) is not key  # a key per kind of question
    twins._keys[id(second)] = twins._keys[id(first)]
    assert twins.twin_key(second, twins.EVERY_FIELD) is not key
    assert twins._keys[id(second)].state is second
