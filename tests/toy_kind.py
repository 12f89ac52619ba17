"""A secret kind that exists only in tests (#20): a Data Tracker-like choice
of one trooper per seat, sealed with the deployment, revealed with its proof
when the match ends. Registered through sealing.register_kind alone, as a
new rule module would be: what the rest of the tracker does with it (seal,
views, end of the match, audit, exports, leak harness) comes from that."""

from __future__ import annotations

import contextlib

from tracker.rules.sealing import (
    AT_END,
    ONE_PER_SEAT,
    TROOPER,
    SecretKind,
    _own_trooper,
    public_name,
    register_kind,
    unregister_kind,
)

TOY = "toy_tracker"


def _seal_toy(state, seat, raw):
    trooper = _own_trooper(state, seat, raw.get("trooper_id"))
    # Like a Lieutenant: the choice of trooper is the secret, so no trooper
    # id outside the payload; its existence is public.
    return {"trooper_id": trooper.id, **public_name(trooper)}, None, True


@contextlib.contextmanager
def toy_kind(ends=(AT_END,)):
    register_kind(
        SecretKind(
            kind=TOY,
            names=TROOPER,
            per_seat=ONE_PER_SEAT,
            seal=_seal_toy,
            ends=tuple(ends),
            label="Toy tracker",  # test-only: no translation
        )
    )
    try:
        yield TOY
    finally:
        unregister_kind(TOY)
