"""The proof behind every reveal (DESIGN.md, Commitments; HD-C2, HE-D3 and
every rule that ends a secret reveal through it): a seal is
sha256(nonce || canonical JSON of the payload), with the canonical form the
organizer's export and the README spell out, so that anyone can check a
reveal with the standard library alone, written positions in any language
included."""

import hashlib
import json

from tracker.rules.commitments import canonical_json, commit, verify
from tracker.rules.state import HD_POSITION, ORDERS

from .game import Game
from .hidden_games import army_a, army_b, declare, secret, to_phase

# A written position as a Spanish-speaking player types it.
POSITION = "Detrás del contenedor azul, junto a la señal «Peligro», cuerpo a tierra"


def by_hand(nonce: str, payload: dict) -> str:
    """The commitment as the README's offline check recomputes it."""
    text = json.dumps(payload, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
    return hashlib.sha256(bytes.fromhex(nonce) + text.encode("utf-8")).hexdigest()


def spanish_game() -> Game:
    return Game.started(
        army_a(),
        army_b(),
        seal_a={
            "lieutenant": "Kaplan",
            "hd": {"Ninja": POSITION, "Yaogat": "torre"},
            "holoecho": {"Hassassin": "marker1"},
        },
    )


def test_every_seal_is_the_documented_sha256_of_nonce_and_canonical_json_hd_c2():
    """A non-ASCII written position is committed as UTF-8 text, keys sorted, no spaces."""
    game = spanish_game()
    hd = secret(game, "Ninja", HD_POSITION)
    assert hd.payload["position"] == POSITION
    for sealed in game.state.secrets.values():
        assert sealed.commitment == by_hand(sealed.nonce, dict(sealed.payload))
    assert canonical_json({"b": "ñ", "a": [1, 2]}) == '{"a":[1,2],"b":"ñ"}'


def test_the_opponent_checks_the_revealed_position_by_hand_hd_c2():
    """HD-C2: Alice's Ninja acts and its position is revealed to Bob with the
    nonce; the text he is given opens the seal, and its fingerprint is the
    one he was shown while it was sealed."""
    game = spanish_game()
    hd = secret(game, "Ninja", HD_POSITION)
    to_phase(game, ORDERS)
    declare(game, "Ninja", "move")
    seen = {s.id: s for s in game.view("B").seat("A").secrets}[hd.id]
    assert seen.revealed and seen.verified is True
    assert seen.payload["position"] == POSITION
    assert hashlib.sha256(bytes.fromhex(seen.nonce) + seen.canonical.encode()).hexdigest() == (
        seen.commitment
    )
    head = seen.commitment[:12].upper()
    assert seen.fingerprint == f"{head[:4]}-{head[4:8]}-{head[8:]}"


def test_verify_refuses_a_wrong_nonce_payload_or_malformed_nonce():
    """Only the very nonce and payload sealed open a commitment; a nonce that
    is not hex proves nothing (never an error, never a pass)."""
    nonce, payload = "0f" * 16, {"position": POSITION, "trooper_id": "t1"}
    sealed = commit(nonce, payload)
    assert verify(sealed, nonce, payload)
    assert not verify(sealed, "1f" + "0f" * 15, payload)
    assert not verify(sealed, nonce, {**payload, "position": "torre"})
    # A seal edited in its last digit is another seal (the fingerprint's
    # twelve digits are for eyes; the proof is the whole hash).
    edited = sealed[:-1] + ("1" if sealed[-1] == "0" else "0")
    assert not verify(edited, nonce, payload)
    for bad in ("zz" * 16, "0f" * 15 + "0", "", "nonce"):
        assert verify(sealed, bad, payload) is False
