"""The secret kinds' registry (sealing.register_kind, #20): a kind is one
module's registration, every module of the package is imported, a kind
nobody registered fails loudly, and what a registration says is what
sealing, the views and the end of the match do."""

from __future__ import annotations

import pkgutil
import sys

import pytest

import tracker.rules
from tests.toy_kind import TOY, toy_kind
from tracker.rules import InvalidInput, NotAllowed, player_view
from tracker.rules.results import ConfirmResult, ProposeResult
from tracker.rules.sealing import (
    AT_END,
    OWNER,
    SECRET_KINDS,
    RevealSecret,
    SecretKind,
    _sealed,
    register_kind,
)

from .game import Game, nonce, trooper


def test_every_module_of_the_rules_package_is_imported_with_it():
    """A module left out would register nothing: its secrets would be
    refused at the table as a malformed seal."""
    missing = [
        m.name
        for m in pkgutil.iter_modules(tracker.rules.__path__)
        if f"tracker.rules.{m.name}" not in sys.modules
    ]
    assert missing == []


def test_every_kind_sealed_anywhere_in_the_rules_is_registered():
    # The kinds the rule modules seal today, each registered by its module.
    assert {
        "lieutenant",
        "reserve",
        "note",
        "hd_position",
        "holoecho",
        "holomask_type",
        "classified",
        "classified_draw",
    } <= set(SECRET_KINDS)


def test_a_kind_nobody_registered_fails_loudly_not_as_a_malformed_seal():
    with pytest.raises(LookupError, match="not registered"):
        _sealed({"id": "abcd1234", "nonce": nonce(1)}, "data_tracker", {}, None, True)


def test_a_kind_registered_twice_or_required_without_a_message_is_refused_at_import():
    with pytest.raises(ValueError, match="twice"):
        register_kind(SecretKind(kind="lieutenant", names="trooper", per_seat="one per seat"))
    with pytest.raises(ValueError, match="without a message"):
        register_kind(SecretKind(kind="x", names="trooper", per_seat="one per seat", required=True))
    assert "x" not in SECRET_KINDS


def _seen_by(game, viewer, secret_id):
    view = player_view(game.state, viewer)
    return next(s for seat in view.seats for s in seat.secrets if s.id == secret_id)


def _game_with_toy():
    game = Game.listed([trooper("Alpha"), trooper("Bravo")], [trooper("Fusilier")])
    from tracker.rules.setup import SetInitiative

    game.do("A", SetInitiative(first_turn="A", deploys_first="A"))
    return game


def test_a_kind_registered_in_one_place_is_sealed_kept_from_the_opponent_and_revealed_at_the_end():
    with toy_kind():
        game = _game_with_toy()
        bravo = game.id("Bravo")
        toy = {"kind": TOY, "trooper_id": bravo}
        # One per seat, as registered: a second one is refused.
        with pytest.raises(InvalidInput, match="only once"):
            game.seal("A", extra=[toy, toy])
        game.seal("A", extra=[toy])
        game.seal("B")
        secret = next(s for s in game.state.secrets.values() if s.kind == TOY)
        seen = _seen_by(game, "B", secret.id)
        # The opponent sees that it exists (a fingerprint), not whom it names.
        assert seen.payload is None and seen.trooper_id is None
        # Its registration says only the end of the match reveals it.
        with pytest.raises(NotAllowed):
            game.do("A", RevealSecret(secret_id=secret.id))
        game.do("A", ProposeResult(objective_a=3, objective_b=1, army_a=40, army_b=10))
        proposal = game.state.seq
        events = game.do("B", ConfirmResult(proposal=proposal))
        kinds = game.kinds(events)
        # One end of the match: the reveal comes before MatchEnded, with its proof.
        assert kinds.index("SecretRevealed") < kinds.index("MatchEnded")
        revealed = next(e for e in events if e.kind == "SecretRevealed")
        assert revealed.secret_id == secret.id and revealed.payload["trooper_id"] == bravo
        seen = _seen_by(game, "B", secret.id)
        assert seen.verified is True and seen.payload["trooper_id"] == bravo
    assert TOY not in SECRET_KINDS


def test_the_end_of_the_match_reveals_only_what_is_still_sealed():
    """A kind its owner may reveal and the end of the match reveals too: a
    seal opened by its owner during play is not revealed again at the end,
    so its reveal keeps its rule and its seq, and the log one line."""
    with toy_kind(ends=(OWNER, AT_END)):
        game = _game_with_toy()
        game.seal("A", extra=[{"kind": TOY, "trooper_id": game.id("Bravo")}])
        game.seal("B")
        secret = next(s for s in game.state.secrets.values() if s.kind == TOY)
        game.do("A", RevealSecret(secret_id=secret.id))
        opened = game.state.secrets[secret.id]
        assert opened.revealed_rule == OWNER
        game.do("A", ProposeResult(objective_a=3, objective_b=1, army_a=40, army_b=10))
        events = game.do("B", ConfirmResult(proposal=game.state.seq))
        assert "MatchEnded" in game.kinds(events)
        assert [e for e in events if e.kind == "SecretRevealed"] == []
        assert game.state.secrets[secret.id] == opened


def test_without_its_registration_the_same_seal_is_refused():
    game = _game_with_toy()
    with pytest.raises(InvalidInput, match="malformed"):
        game.seal("A", extra=[{"kind": TOY, "trooper_id": game.id("Bravo")}])
