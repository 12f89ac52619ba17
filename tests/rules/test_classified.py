"""Classified Objectives (tracker/rules/classified.py, CL-1..CL-6)."""

from __future__ import annotations

import hashlib
import itertools
from collections import Counter

import pytest

from tests.rules.game import Game, nonce, trooper
from tracker.rules import player_view
from tracker.rules.classified import (
    CLASSIFIED,
    DEFAULT_DECK,
    AccomplishClassified,
    ClassifiedConfigured,
    DrawClassified,
    ExchangeClassified,
    KeepClassified,
    check_draw,
    clean_config,
    draw,
    hand_of,
    shuffled,
)
from tracker.rules.errors import InvalidInput, NotAllowed, UnknownElement
from tracker.rules.sealing import RevealSecret
from tracker.rules.setup import MatchCreated

_ids = itertools.count(1)

# Chi-square critical values at p = 0.001 (fixed tolerance; the seeds are
# fixed too, so the test either always passes or always fails).
CHI2_999 = {9: 27.88, 11: 31.26, 89: 129.0}


def seed(n: int) -> str:
    return hashlib.sha256(f"seed-{n}".encode()).hexdigest()


def chi_square(counts: Counter, cells: list, expected: float) -> float:
    return sum((counts[cell] - expected) ** 2 / expected for cell in cells)


# ------------------------------------------------------------ the draw (CL-2)


def test_draw_is_uniform_over_cards_and_positions():
    deck = [f"card {i}" for i in range(10)]
    runs = 20_000
    first, anywhere = Counter(), Counter()
    for n in range(runs):
        hand = draw(deck, seed(n), 2)
        first[hand[0]] += 1
        anywhere.update(hand)
    assert chi_square(first, deck, runs / 10) < CHI2_999[9]
    assert chi_square(anywhere, deck, 2 * runs / 10) < CHI2_999[9]


def test_draw_is_uniform_over_ordered_pairs():
    deck = [f"card {i}" for i in range(10)]
    runs = 45_000
    pairs = Counter(tuple(draw(deck, seed(n), 2)) for n in range(runs))
    cells = list(itertools.permutations(deck, 2))
    assert chi_square(pairs, cells, runs / len(cells)) < CHI2_999[89]


def test_a_biased_shuffle_fails_the_same_test():
    """The statistic can fail: a draw that favours the first card is caught."""
    deck = [f"card {i}" for i in range(10)]
    runs = 20_000
    first = Counter()
    for n in range(runs):
        hand = draw(deck, seed(n), 1)
        first[deck[0] if n % 20 == 0 else hand[0]] += 1
    assert chi_square(first, deck, runs / 10) > CHI2_999[9]


def test_a_hand_never_repeats_a_card():
    deck = list(DEFAULT_DECK)
    for n in range(2_000):
        hand = draw(deck, seed(n), 5)
        assert len(set(hand)) == 5
        assert set(hand) <= set(deck)
    assert sorted(shuffled(deck, seed(1))) == sorted(deck)


def test_the_draw_depends_on_the_seed_alone():
    deck = list(DEFAULT_DECK)
    assert draw(deck, seed(7), 3) == draw(deck, seed(7), 3)
    assert len({tuple(draw(deck, seed(n), 3)) for n in range(50)}) > 40


# ---------------------------------------------------------------- a match


def configured(drawn=3, kept=2, exchanges=1, points=1, deck=DEFAULT_DECK) -> Game:
    game = Game()
    game.apply(
        [
            MatchCreated(name="Test"),
            ClassifiedConfigured(**clean_config(drawn, kept, exchanges, points, list(deck))),
        ]
    )
    from tracker.rules.setup import ClaimSeat, LockArmyList

    game.do("A", ClaimSeat(name="Alice"))
    game.do("B", ClaimSeat(name="Bob"))
    game.do("A", LockArmyList(troopers=[trooper("Fusilier", 10)]))
    game.do("B", LockArmyList(troopers=[trooper("Zhanshi", 10)]))
    return game


def do_draw(game, seat, n=1):
    return game.do(
        seat,
        DrawClassified(seed=seed(n), secret_id=f"d{next(_ids):06d}", nonce=nonce(next(_ids))),
    )


def do_keep(game, seat, cards):
    return game.do(
        seat,
        KeepClassified(
            cards=[str(c) for c in cards],
            secret_ids=[f"k{next(_ids):06d}" for _ in cards],
            nonces=[nonce(next(_ids)) for _ in cards],
        ),
    )


def start(game):
    from tracker.rules.setup import SetInitiative

    game.do("A", SetInitiative(first_turn="A", deploys_first="A"))
    game.seal("A")
    game.seal("B")


def test_draw_seals_seed_deck_and_cards_for_the_owner_only():
    game = configured()
    events = do_draw(game, "A", n=3)
    sealed = events[0]
    assert sealed.private_to == "A" and sealed.rule == "CL-2"
    payload = sealed.secrets[0]["payload"]
    assert payload["drawn"] == draw(DEFAULT_DECK, seed(3), 3)
    assert events[1].private_to is None  # the opponent learns that A drew
    bob = player_view(game.state, "B").seat("A")
    assert bob.classified_drawn and bob.classified_hand is None
    assert all(s.payload is None for s in bob.secrets)
    alice = player_view(game.state, "A").me
    assert alice.classified_hand["drawn"] == payload["drawn"]


def test_a_player_draws_once():
    game = configured()
    do_draw(game, "A")
    with pytest.raises(NotAllowed):
        do_draw(game, "A", n=2)


def test_the_seed_must_be_full_length_server_randomness():
    game = configured()
    with pytest.raises(InvalidInput):
        game.do("A", DrawClassified(seed="00", secret_id="d0000001", nonce=nonce(1)))


def test_no_classified_without_configuration():
    game = Game.listed([trooper("Fusilier")], [trooper("Zhanshi")])
    with pytest.raises(NotAllowed):
        do_draw(game, "A")


def test_keep_exactly_the_configured_number_of_drawn_cards():
    game = configured(drawn=3, kept=2)
    do_draw(game, "A", n=5)
    for wrong in ([0], [0, 1, 2], [0, 0], [0, 3], ["x", 1]):
        with pytest.raises(InvalidInput):
            do_keep(game, "A", wrong)
    do_keep(game, "A", [0, 2])
    drawn = draw(DEFAULT_DECK, seed(5), 3)
    hand = player_view(game.state, "A").me.classified_hand
    assert [h["card"] for h in hand["held"]] == [drawn[0], drawn[2]]
    bob = player_view(game.state, "B").seat("A")
    assert bob.classified_held == 2
    assert not any(drawn[0] in repr(s) or drawn[2] in repr(s) for s in bob.secrets)
    with pytest.raises(NotAllowed):
        do_keep(game, "A", [1, 2])


def test_exchange_deals_an_unseen_card_from_a_fresh_seed():
    game = configured(drawn=3, kept=2, exchanges=1)
    do_draw(game, "A", n=9)
    do_keep(game, "A", [0, 1])
    held = hand_of(game.state, "A")["held"]
    game.do(
        "A",
        ExchangeClassified(
            secret_id=held[0], seed=seed(99), new_secret_id="x0000001", nonce=nonce(77)
        ),
    )
    drawn = draw(DEFAULT_DECK, seed(9), 3)
    pool = [c for c in DEFAULT_DECK if c not in drawn]
    new = game.state.secrets["x0000001"].payload
    assert new["card"] == draw(pool, seed(99), 1)[0] and new["card"] not in drawn
    assert hand_of(game.state, "A")["held"] == ("x0000001", held[1])
    assert player_view(game.state, "B").seat("A").classified_held == 2
    assert check_draw(game.state, "A") == (True, "ok")
    with pytest.raises(NotAllowed):  # CL-4: one exchange allowed
        game.do(
            "A",
            ExchangeClassified(
                secret_id=held[1], seed=seed(98), new_secret_id="x0000002", nonce=nonce(78)
            ),
        )


def test_accomplishing_reveals_with_proof_and_scores():
    game = configured(drawn=3, kept=2, points=2)
    do_draw(game, "A", n=4)
    do_keep(game, "A", [0, 1])
    start(game)
    done, kept = hand_of(game.state, "A")["held"]
    with pytest.raises(NotAllowed):  # CL-6: not by a plain Reveal
        game.do("A", RevealSecret(secret_id=done))
    with pytest.raises(InvalidInput):
        game.do("A", AccomplishClassified(secret_id=done, proof="  "))
    with pytest.raises(UnknownElement):
        game.do("B", AccomplishClassified(secret_id=done, proof="mine now"))
    events = game.do("A", AccomplishClassified(secret_id=done, proof="Engineer on the console"))
    assert [e.kind for e in events] == ["SecretRevealed", "ClassifiedAccomplished"]
    bob = player_view(game.state, "B")
    shown = {s.id: s for s in bob.seat("A").secrets}
    assert shown[done].revealed and shown[done].verified
    assert shown[done].payload["card"] == draw(DEFAULT_DECK, seed(4), 3)[0]
    assert shown[kept].payload is None and shown[kept].nonce is None  # CL-6
    assert bob.seat("A").classified_points == 2 and bob.seat("A").classified_held == 1
    with pytest.raises(NotAllowed):
        game.do("A", AccomplishClassified(secret_id=done, proof="again"))


def test_the_audit_catches_a_draw_the_seed_did_not_give():
    game = configured()
    do_draw(game, "A", n=2)
    do_keep(game, "A", [0, 1])
    assert check_draw(game.state, "A") == (True, "ok")
    draw_id = hand_of(game.state, "A")["draw"]
    secret = game.state.secrets[draw_id]
    from dataclasses import replace

    from tracker.rules.commitments import commit
    from tracker.rules.state import frozen_map

    forged = dict(secret.payload, drawn=list(reversed(secret.payload["drawn"])))
    tampered = game.state.with_secret(
        replace(secret, payload=frozen_map(forged), commitment=commit(secret.nonce, forged))
    )
    assert check_draw(tampered, "A")[0] is False


def test_config_refuses_a_deck_with_a_repeated_card_or_too_few_cards():
    with pytest.raises(InvalidInput):
        clean_config(2, 1, 0, 1, ["Telemetry", "telemetry", "Test Run"])
    with pytest.raises(InvalidInput):
        clean_config(4, 1, 0, 1, "Telemetry\nTest Run")
    with pytest.raises(InvalidInput):
        clean_config(2, 3, 0, 1, DEFAULT_DECK)
    assert clean_config(0, 0, 0, 0, "") is None
    assert clean_config(2, 1, 0, 1, "  Telemetry \n\nTest   Run\n")["deck"] == [
        "Telemetry",
        "Test Run",
    ]


def test_a_classified_secret_kind_is_classified():
    game = configured()
    do_draw(game, "B", n=1)
    do_keep(game, "B", [0, 1])
    kinds = Counter(s.kind for s in game.state.secrets.values())
    assert kinds[CLASSIFIED] == 2
