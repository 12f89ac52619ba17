"""Salted commitments to sealed secrets (DESIGN.md, Commitments).

commitment = sha256(nonce || canonical_json(payload)). The nonce matters: a
1-of-3 Holoecho choice is guessable from an unsalted hash.
"""

from __future__ import annotations

import hashlib
import json


def canonical_json(value: object) -> str:
    return json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=False)


def commit(nonce_hex: str, payload: object) -> str:
    return hashlib.sha256(bytes.fromhex(nonce_hex) + canonical_json(payload).encode()).hexdigest()


def verify(commitment: str, nonce_hex: str, payload: object) -> bool:
    try:
        return commit(nonce_hex, payload) == commitment
    except ValueError:
        return False


def fingerprint(commitment: str) -> str:
    """The short form players compare by eye: 12 hex digits in groups of 4."""
    head = commitment[:12].upper()
    return "-".join(head[i : i + 4] for i in range(0, 12, 4))
