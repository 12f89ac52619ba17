"""The organizer's verified history (audit.py) checks that each row's data
is the canonical JSON the app writes (and the commitments and the README's
offline check are defined over): a row rewritten in another JSON form, with
the chain recomputed after it (what one person with the database can do),
is named by its seq even though it still parses and replays."""

import json

import pytest

from tests.web.organizer_table import audit_page, finished, fresh, rewrite_log, text_of
from tracker import audit
from tracker.models import MatchEvent

pytestmark = pytest.mark.django_db


def test_a_row_rewritten_out_of_canonical_form_is_named_by_its_seq(alice, bob, carol):
    a, _b = finished(alice, bob)
    row = MatchEvent.objects.filter(match=a.match, kind="SecretsSealed").order_by("seq").first()
    loose = json.dumps(json.loads(row.data), indent=1, sort_keys=False)
    assert loose != row.data and json.loads(loose) == json.loads(row.data)
    rewrite_log(a.match, row.seq, edit=lambda _row: loose)
    match = fresh(a.match)
    rows = list(MatchEvent.objects.filter(match=match).order_by("seq"))
    check = audit.verify_match(match, rows)
    assert [(p.seq, p.code) for p in check.problems] == [(row.seq, "data")]
    assert check.chain_ok is False and check.first_broken_seq == row.seq
    assert f"the first broken event is #{row.seq}" in text_of(audit_page(carol, match))
