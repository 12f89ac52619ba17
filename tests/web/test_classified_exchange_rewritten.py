"""Attack: a database editor rewrites the card an exchange dealt (CL-4),
recomputing its commitment and the whole hash chain. The chain and the
commitment then check, but the exchange's own seed does not draw that card
from its pool: the verification of the match names it, as it names a draw
rewritten the same way (tests/web/test_classified_web.py)."""

from __future__ import annotations

import json

import pytest

from tests.web.organizer_table import fresh, rewrite_log
from tests.web.rendered_forms import submit
from tests.web.test_classified_web import claim, lock_a_list, ok, page
from tracker import audit
from tracker.models import Match, MatchEvent
from tracker.reading import load_state
from tracker.rules.classified import hand_of
from tracker.rules.commitments import canonical_json, commit

pytestmark = pytest.mark.django_db


def test_attack_an_exchanged_card_rewritten_with_its_commitment_is_named(alice, bob):
    home = alice.get("/").content.decode()
    response = submit(
        alice,
        home,
        "/new/",
        name="Exchange night",
        classified_drawn=2,
        classified_kept=1,
        classified_exchanges=1,
    )
    match = Match.objects.get(code=response["Location"].split("/")[2])
    claim(alice, match, "A", "Alice")
    claim(bob, match, "B", "Bob")
    lock_a_list(alice, match, "Kaplan", 20)
    ok(submit(alice, page(alice, match), "/act/DrawClassified/"))
    ok(submit(alice, page(alice, match), "/act/KeepClassified/", keep=["1"]))
    (old,) = hand_of(load_state(fresh(match)), "A")["held"]
    ok(submit(alice, page(alice, match), "/act/ExchangeClassified/", within=f"#held-{old}"))
    rows = list(MatchEvent.objects.filter(match=match).order_by("seq"))
    assert audit.verify_rows(rows).ok

    def another_card(row):
        if row.kind != "SecretsSealed" or '"replaces"' not in row.data:
            return row.data
        data = json.loads(row.data)
        secret = data["secrets"][0]
        payload = secret["payload"]
        payload["card"] = next(c for c in payload["pool"] if c != payload["card"])
        secret["commitment"] = commit(secret["nonce"], payload)
        return canonical_json(data)

    rewrite_log(match, None, edit=another_card)
    check = audit.verify_rows(list(MatchEvent.objects.filter(match=match).order_by("seq")))
    assert check.chain_ok
    assert [p.code for p in check.problems] == ["draw"]
    # The export's verification block (Check.as_dict) says which part failed:
    # the chain holds, the sealed cards do not.
    verification = check.as_dict()
    assert verification["chain_ok"] is True
    assert verification["commitments_ok"] is False and verification["ok"] is False
