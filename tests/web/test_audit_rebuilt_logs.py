"""A log rebuilt by one person with the database: rows edited and every
hash after them recomputed. The organizer's verified history (audit.py)
still names it: a row in another JSON form than the canonical one the app
writes (which the commitments and the README's offline check are defined
over), though it parses and replays; a chain that no longer ends at the
head the match row keeps."""

import json

import pytest
from bs4 import BeautifulSoup
from django.db import connection

from tests.web.organizer_table import audit_page, finished, fresh, rewrite_log, text_of
from tracker import audit
from tracker.models import MatchEvent
from tracker.rules.commitments import canonical_json

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


def test_a_log_rebuilt_behind_the_match_rows_head_hash_is_caught(alice, bob, carol):
    """The match row keeps the head of the log: a row edited and every hash
    after it recomputed, with the match row's head left as it was, no
    longer ends where the match says (audit.verify_rows, "head")."""
    a, _b = finished(alice, bob)
    match = fresh(a.match)
    head = match.last_hash
    row = MatchEvent.objects.get(match=match, kind="SeatClaimed", actor="B")
    rewrite_log(match, row.seq, edit=lambda r: r.data.replace("Bob", "Mallory"))
    type(match).objects.filter(pk=match.pk).update(last_hash=head)
    rows = list(MatchEvent.objects.filter(match=match).order_by("seq"))
    check = audit.verify_match(fresh(match), rows)
    assert [p.code for p in check.problems] == ["head"]
    assert not check.ok and not check.chain_ok


def test_a_seal_swapped_under_a_rebuilt_chain_is_marked_as_not_matching(alice, bob, carol):
    """The secrets table's own check column: the holoecho seal whose real
    element was swapped (chain recomputed) reads "does NOT match", each
    other secret "matches"."""
    a, _b = finished(alice, bob)
    row = MatchEvent.objects.filter(match=a.match, kind="SecretsSealed", actor="A").first()
    data = json.loads(row.data)
    (holoecho,) = [s for s in data["secrets"] if s["kind"] == "holoecho"]
    holoecho["payload"]["real"] = "marker1"
    rewrite_log(a.match, row.seq, edit=lambda _row: canonical_json(data))
    html = audit_page(carol, fresh(a.match))
    soup = BeautifulSoup(html, "lxml")
    swapped = soup.select_one(f"tr#secret-{holoecho['id']}")
    assert "does NOT match" in swapped.get_text() and "matches ✓" not in swapped.get_text()
    others = [tr for tr in soup.select("tr[id^=secret-]") if tr is not swapped]
    assert others and all("matches ✓" in tr.get_text() for tr in others)


def test_a_row_renamed_to_an_unknown_kind_under_a_rebuilt_chain_is_named(alice, bob, carol):
    """The chain covers the kind, but one person with the database can rename
    a row's kind and recompute every hash (and the match row's head) behind
    it: the data is still canonical JSON, so only the check that the kind is
    one the tracker writes names the row. Without it the history verified
    while its replay stopped at that row."""
    a, _b = finished(alice, bob)
    row = MatchEvent.objects.get(match=a.match, kind="ResultConfirmed")
    with connection.cursor() as cursor:
        cursor.execute(
            "UPDATE tracker_matchevent SET kind = 'ResultImposed' WHERE id = %s", [row.id]
        )
    rewrite_log(a.match, None)  # every hash recomputed, the match row's head too
    match = fresh(a.match)
    rows = list(MatchEvent.objects.filter(match=match).order_by("seq"))
    check = audit.verify_match(match, rows)
    assert [(p.seq, p.code) for p in check.problems] == [(row.seq, "data")]
    assert f"Event {row.seq} has an unknown kind (ResultImposed)." in text_of(
        audit_page(carol, match)
    )
