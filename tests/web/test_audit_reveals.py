"""The audit checks every reveal against its seal (#20, audit._check_reveal):
a SecretRevealed row rewritten in the database with the whole chain
recomputed after it (what one person with the database can do) fails the
organizer's summary, `manage.py verify_matches` and the export's
verification block, each with its own message."""

from __future__ import annotations

import io
import json

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError

from tests.web.organizer_table import (
    agree,
    audit_page,
    fresh,
    play_out,
    playing,
    rewrite_log,
    text_of,
)
from tests.web.table import error_of
from tracker import audit
from tracker.models import MatchEvent
from tracker.reading import load_state
from tracker.rules.commitments import canonical_json, commit

pytestmark = pytest.mark.django_db


def _reveal_both_lieutenants(alice, bob):
    """A finished match in which each player revealed their Lieutenant by hand."""
    a, b = playing(alice, bob)
    state = load_state(fresh(a.match))
    for phone, seat in ((a, "A"), (b, "B")):
        secret = next(
            s for s in state.secrets.values() if s.seat == seat and s.kind == "lieutenant"
        )
        assert error_of(phone.submit("RevealSecret", secret_id=secret.id)) is None
    play_out(a, b)
    agree(a, b)
    return a


def _reveals(match) -> list[MatchEvent]:
    return list(MatchEvent.objects.filter(match=match, kind="SecretRevealed").order_by("seq"))


def _another_trooper(match, seat: str, but: str) -> str:
    state = load_state(fresh(match))
    return next(t.id for t in state.troopers_of(seat) if t.id != but)


def _edited(data: str, change) -> str:
    value = json.loads(data)
    change(value)
    return canonical_json(value)


def _payload_only(match, first, second):
    """Alice's Lieutenant said to be another trooper; commitment kept."""
    other = _another_trooper(match, "A", json.loads(first.data)["payload"]["trooper_id"])
    return first.seq, lambda row: _edited(
        row.data, lambda d: d["payload"].update(trooper_id=other, name="Someone else")
    )


def _payload_and_commitment(match, first, second):
    """The same, with a commitment recomputed for the new payload."""
    other = _another_trooper(match, "A", json.loads(first.data)["payload"]["trooper_id"])

    def change(d):
        d["payload"].update(trooper_id=other, name="Someone else")
        d["commitment"] = commit(d["nonce"], d["payload"])

    return first.seq, lambda row: _edited(row.data, change)


def _seat(match, first, second):
    """Alice's reveal said to be Bob's secret: proof intact, seat wrong."""
    return first.seq, lambda row: _edited(row.data, lambda d: d.update(seat="B"))


def _twice(match, first, second):
    """Bob's reveal replaced by a copy of Alice's: her secret revealed twice."""
    return second.seq, lambda row: first.data


REWRITES = {
    "does not match its commitment": _payload_only,
    "never sealed with that commitment": _payload_and_commitment,
    "unlike its seal": _seat,
    "reveals again a secret revealed at event": _twice,
}


@pytest.mark.parametrize("message", list(REWRITES))
def test_a_rewritten_reveal_with_the_chain_recomputed_fails_every_verification(
    message, alice, bob, carol
):
    a = _reveal_both_lieutenants(alice, bob)
    match = a.match
    first, second = _reveals(match)[:2]
    assert (json.loads(first.data)["seat"], json.loads(second.data)["seat"]) == ("A", "B")
    # As built, all three verify.
    assert "verifies" in text_of(audit_page(carol, match))
    seq, edit = REWRITES[message](match, first, second)
    rewrite_log(match, seq, edit=edit)

    # The organizer's summary names the event.
    text = text_of(audit_page(carol, match))
    assert f"the first broken event is #{seq}" in text, text[:2000]
    assert message in text
    # manage.py verify_matches.
    out = io.StringIO()
    with pytest.raises(CommandError, match="1 broken"):
        call_command("verify_matches", stdout=out)
    assert f"seq {seq}:" in out.getvalue() and message in out.getvalue()
    # The export's verification block.
    response = carol.get(f"/organizer/matches/{match.code}/export.json")
    assert response.status_code == 200
    verification = json.loads(response.content)["verification"]
    assert verification["ok"] is False and verification["commitments_ok"] is False
    assert verification["chain_ok"] is True  # the chain itself was recomputed
    assert [p["seq"] for p in verification["problems"]] == [seq]
    assert message in verification["problems"][0]["text"]


def test_a_rewritten_seal_with_the_chain_recomputed_fails_the_commitment_check(alice, bob, carol):
    """A seal rewritten in the database (a Hidden Deployment position moved
    after the fact, never revealed, so no reveal can catch it) with the
    chain recomputed: its commitment no longer opens, and the audit says so."""
    a, _b = playing(alice, bob)
    match = a.match
    sealed = next(
        row
        for row in MatchEvent.objects.filter(match=match, kind="SecretsSealed").order_by("seq")
        if any(s["kind"] == "hd_position" for s in json.loads(row.data)["secrets"])
    )

    def move_the_ninja(data):
        for secret in data["secrets"]:
            if secret["kind"] == "hd_position":
                secret["payload"]["position"] = "somewhere safer, written afterwards"

    rewrite_log(match, sealed.seq, edit=lambda row: _edited(row.data, move_the_ninja))
    rows = list(MatchEvent.objects.filter(match=match).order_by("seq"))
    check = audit.verify_match(fresh(match), rows)
    assert check.chain_ok and not check.commitments_ok
    assert [(p.seq, p.code) for p in check.problems] == [(sealed.seq, "commitment")]
    text = text_of(audit_page(carol, match))
    assert "a sealed secret does not match its commitment" in text
