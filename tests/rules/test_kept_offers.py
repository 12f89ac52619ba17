"""A seat's declaration offers and its per-trooper Command Token uses,
kept from one state to the next (tracker/rules/kept_offers.py, issue 18),
are the offers asked afresh.

At every state the rules tests' scripted matches and this package's played
matches pass through, for each seat: the offers are asked once, then asked
again of the state a State tap would leave (a trooper the state names
nowhere else with a token more or fewer and one field no key compares
changed, the seq moved on, an undo step added), where they are found kept,
and they must equal the offers asked of that state afresh. Planted rules
that read what the keys leave out (a trooper's tokens or points, the seq)
are found by the same walk."""

from __future__ import annotations

import random

import pytest

from tracker.rules import kept_offers
from tracker.rules.commands import HANDLERS
from tracker.rules.declaration_offers import (
    aro_offers,
    order_offers,
    report_offers,
    second_skills,
)
from tracker.rules.errors import RuleViolation
from tracker.rules.kept_offers import DeclarationOffers, declaration_offers
from tracker.rules.orders import DeclareSkill, ReportOutcome
from tracker.rules.state import PRONE, SEATS, TOKENS, UndoStep, replace
from tracker.rules.token_offers import TOKEN_READS, token_offers
from tracker.rules.token_tactical import CoordinatedOrder, ForceGutsRoll
from tracker.rules.token_uses import ChangeCombatGroup
from tracker.rules.twins import EVERY_FIELD, named_elsewhere

from .test_fast_offers import scripted  # noqa: F401 (the states walked, a fixture)


def afresh(state, seat) -> DeclarationOffers:
    return DeclarationOffers(
        aro=aro_offers(state, seat),
        order=order_offers(state, seat),
        second=second_skills(state, seat),
        report=report_offers(state, seat),
    )


# Another value for each field no offer's key compares but the tokens
# (kept_offers.KEY_FIELDS leaves them out): the walk changes one of them too,
# so an offer that starts reading one is found as a token-reading one is.
UNKEYED = {
    "cost": lambda t: t.cost + 7,
    "fireteam": lambda t: "" if t.fireteam else "Planted fireteam",
    "holoecho_token": lambda t: "" if t.holoecho_token else "marker1",
    "no_room": lambda t: not t.no_room,
    "replaced": lambda t: "" if t.replaced else "RP-1",
    "replacement_choice": lambda t: "" if t.replacement_choice else "edge",
}


def test_the_walk_changes_every_field_the_keys_leave_out():
    left_out = {f for f in EVERY_FIELD if f not in kept_offers.WITH_TOKENS}
    assert left_out == set(UNKEYED)


def tapped(state, rng: random.Random, token: str | None = None):
    """`state` as a State tap on a trooper it names nowhere else leaves it:
    a token more or fewer, the seq one on, an undo step more; and one field
    no key compares changed (UNKEYED). None if every trooper is named
    elsewhere."""
    named = named_elsewhere(state)
    free = [t for t in state.troopers.values() if not named(t.id)]
    if not free:
        return None
    trooper = rng.choice(free)
    token = token or rng.choice(TOKENS)
    tokens = trooper.tokens ^ {token}
    field, other = rng.choice(sorted(UNKEYED.items()))
    moved = state.with_trooper(trooper.id, tokens=tokens, **{field: other(trooper)})
    step = UndoStep(state.seq + 1, trooper.seat, trooper.id, trooper.condition, tuple(tokens))
    return replace(moved, seq=state.seq + 1, undo=(*state.undo, step))


def offers(state, seat) -> tuple:
    """Every offer that may be kept: the declarations and the Command Token
    uses."""
    return declaration_offers(state, seat), token_offers(state, seat)


def mismatches(states, seed: int = 0, token: str | None = None) -> tuple[list, int]:
    """(seq, seat) wherever an offer found kept differs from one asked
    afresh, and how many answers were found kept."""
    rng = random.Random(seed)
    found, kept = [], 0
    for state in states:
        after = tapped(state, rng, token)
        if after is None:
            continue
        for seat in SEATS:
            kept_offers.forget()
            try:
                offers(state, seat)
                before = kept_offers.stats["kept"]
                offered = offers(after, seat)
                kept += kept_offers.stats["kept"] - before
                kept_offers.forget()
                if offered != (afresh(after, seat), token_offers(after, seat)):
                    found.append((after.seq, seat))
            except KeyError:  # a test's own secret kind (tests/toy_kind.py), gone since
                continue
    return found, kept


def test_offers_kept_across_a_state_tap_are_those_asked_afresh(scripted):  # noqa: F811
    tested, made, _games = scripted
    states = tested + made
    found, kept = mismatches(states)
    assert found == []
    # Found kept at nearly every state walked, both seats: the walk tests
    # the kept offers, not offers asked again.
    assert kept > 1.5 * len(states), (kept, len(states))


def test_the_walk_finds_a_rule_that_reads_a_token(scripted, monkeypatch):  # noqa: F811
    """A planted rule: a Prone trooper may not declare a skill. Tokens are
    outside the key, so the offers kept from before it went Prone are
    stale, and the walk says so."""
    _tested, made, _games = scripted
    declare = HANDLERS[DeclareSkill]

    def planted(state, seat, command):
        trooper = state.troopers.get(command.trooper_id)
        if trooper is not None and PRONE in trooper.tokens:
            raise RuleViolation("planted: Prone")
        return declare(state, seat, command)

    monkeypatch.setitem(HANDLERS, DeclareSkill, planted)
    found, _kept = mismatches(made, seed=1, token=PRONE)
    assert found


def test_the_walk_finds_a_rule_that_reads_points(scripted, monkeypatch):  # noqa: F811
    """A planted rule: a trooper of odd points may not declare a skill.
    Points are outside every key, so the walk, changing them, finds it."""
    import sys

    _tested, made, _games = scripted
    declare = HANDLERS[DeclareSkill]

    def planted(state, seat, command):
        trooper = state.troopers.get(command.trooper_id)
        if trooper is not None and trooper.cost % 2:
            raise RuleViolation("planted: odd points")
        return declare(state, seat, command)

    monkeypatch.setitem(HANDLERS, DeclareSkill, planted)
    monkeypatch.setattr(sys.modules[__name__], "UNKEYED", {"cost": UNKEYED["cost"]})
    found, _kept = mismatches(made, seed=3)
    assert found


@pytest.mark.parametrize("use", ["TM-T1", "TM-E1", "TM-T2"])
def test_the_walk_finds_a_token_use_that_reads_a_token(scripted, monkeypatch, use):  # noqa: F811
    """A planted rule: no Coordinated Order with a Prone trooper (TM-T1),
    no Prone trooper changes Combat Group (TM-E1) or is forced to pass its
    Guts Roll (TM-T2). No such use's key holds the tokens, so the kept
    answer is stale, and the walk says so."""
    tested, made, _games = scripted
    command = {"TM-T1": CoordinatedOrder, "TM-E1": ChangeCombatGroup, "TM-T2": ForceGutsRoll}[use]
    decide = HANDLERS[command]

    def planted(state, seat, asked):
        ids = getattr(asked, "trooper_ids", None) or [asked.trooper_id]
        if any(PRONE in state.troopers[i].tokens for i in ids if i in state.troopers):
            raise RuleViolation("planted: Prone")
        return decide(state, seat, asked)

    monkeypatch.setitem(HANDLERS, command, planted)
    found, _kept = mismatches(tested + made, seed=2, token=PRONE)
    assert found


def test_the_walk_finds_a_rule_that_reads_the_seq(scripted, monkeypatch):  # noqa: F811
    """A planted rule: no report at an odd seq. The seq is outside the key."""
    _tested, made, _games = scripted
    report = HANDLERS[ReportOutcome]

    def planted(state, seat, command):
        if state.seq % 2:
            raise RuleViolation("planted: odd")
        return report(state, seat, command)

    monkeypatch.setitem(HANDLERS, ReportOutcome, planted)
    found, _kept = mismatches(made)
    assert found


def test_a_trooper_named_elsewhere_is_compared_whole(scripted):  # noqa: F811
    """The trooper of the Order in progress is named by the turn: a token
    more on it asks the offers again (a handler may read any of its fields)."""
    _tested, made, _games = scripted
    state = next(s for s in made if s.turn is not None and s.turn.order is not None)
    actor = state.troopers[state.turn.order.trooper_id]
    assert named_elsewhere(state)(actor.id)
    after = state.with_trooper(actor.id, tokens=actor.tokens ^ {PRONE})
    kept_offers.forget()
    seat = state.turn.seat
    declaration_offers(state, seat)
    asked = kept_offers.stats["asked"]
    assert declaration_offers(after, seat) == afresh(after, seat)
    assert kept_offers.stats["asked"] == asked + 1


def test_offers_kept_for_one_seat_are_not_the_other_s(scripted):  # noqa: F811
    """Both seats ask the same state: each gets its own offers (the active
    player's Orders, none for the other)."""
    _tested, made, _games = scripted
    state = next(s for s in made if s.turn is not None and order_offers(s, s.turn.seat))
    kept_offers.forget()
    mine = declaration_offers(state, state.turn.seat)
    theirs = declaration_offers(state, "B" if state.turn.seat == "A" else "A")
    assert mine.order and not theirs.order
    assert declaration_offers(state, state.turn.seat) is mine


def test_every_question_but_two_reads_the_troopers_out_alike():
    """The declarations and the Command Token uses that read no tokens
    share one key's fields (a state's troopers read out once for them all);
    TM-E2 and TM-T3, which read tokens, share the other."""
    assert kept_offers.DECLARATIONS_KEY == kept_offers.KEY_FIELDS
    keys = {use: kept_offers.key_fields(reads) for use, reads in TOKEN_READS.items()}
    assert {use for use, key in keys.items() if key == kept_offers.WITH_TOKENS} == {
        "TM-E2",
        "TM-T3",
    }
    assert all(key in (kept_offers.KEY_FIELDS, kept_offers.WITH_TOKENS) for key in keys.values())
    assert "tokens" not in kept_offers.KEY_FIELDS
    # A question reading a field no key holds is keyed by what it reads.
    assert kept_offers.key_fields(("cost", "seat")) == ("cost", "seat")


def test_a_spectator_is_offered_nothing():
    from tracker.rules.state import MatchState

    assert declaration_offers(MatchState(), None) == DeclarationOffers()


@pytest.fixture(autouse=True)
def _forget():
    yield
    kept_offers.forget()
