"""The audit page of one match: timeline, secrets with their commitments,
the verified chain, replay, and organizers opening sealed information of a
match still in play (recorded, and shown on both phones)."""

import re

import pytest
from django.db import connection
from django.utils import timezone

from tests.web.organizer_table import (
    NINJA_POSITION,
    audit_page,
    finished,
    fresh,
    open_sealed,
    playing,
    text_of,
)
from tests.web.table import error_of
from tracker import audit
from tracker.models import MatchEvent
from tracker.reading import load_state
from tracker.rules.commitments import fingerprint

pytestmark = pytest.mark.django_db


def test_the_timeline_lists_every_event_with_who_and_what(alice, bob, carol):
    a, _b = finished(alice, bob)
    html = audit_page(carol, a.match)
    seqs = [int(s) for s in re.findall(r'<tr id="event-(\d+)"', html)]
    assert seqs == list(range(1, fresh(a.match).seq + 1))
    text = text_of(html)
    assert "Alice took seat A." in text
    assert "Alice locked their army list." in text
    assert "their action" in text and "same tap as #" in text
    assert "Bob confirmed the result: objective points 7–3" in text
    # Private events are shown whole to the organizer once the match is over,
    # named in the organizer's language: no phone's log describes them.
    assert "private to seat A" in text
    assert "s troopers in Hidden Deployment, kept from the opponent, are in its data." in text
    assert "Alice sealed secrets: their contents and nonces are in its data." in text
    carol.defaults["HTTP_ACCEPT_LANGUAGE"] = "es"
    spanish = text_of(audit_page(carol, a.match))
    for kind in ("HiddenTroopersEnlisted", "SecretsSealed"):
        assert kind not in text and kind not in spanish
    assert "Alice ha sellado secretos" in spanish


def test_secrets_show_seal_time_commitment_and_recomputed_check(alice, bob, carol):
    a, _b = finished(alice, bob)
    text = text_of(audit_page(carol, a.match))
    state = load_state(fresh(a.match))
    for secret in state.secrets.values():
        assert secret.commitment in text
        assert secret.nonce in text
    assert NINJA_POSITION in text
    assert "matches ✓" in text and "does NOT match" not in text


def test_secrets_never_revealed_in_play_are_marked_as_such(alice, bob, carol):
    a, _b = finished(alice, bob)
    html = audit_page(carol, a.match)
    state = load_state(fresh(a.match))
    unrevealed = [s for s in state.secrets.values() if not s.revealed]
    assert unrevealed
    for secret in unrevealed:
        row = re.search(rf'<tr id="secret-{secret.id}".*?</tr>', html, re.S).group(0)
        assert "never revealed in play" in row


def test_a_revealed_secret_shows_when_and_why(alice, bob, carol):
    a, b = playing(alice, bob)
    state = load_state(fresh(a.match))
    lieutenant = next(s for s in state.secrets.values() if s.seat == "A" and s.kind == "lieutenant")
    assert error_of(a.submit("RevealSecret", secret_id=lieutenant.id)) is None
    html = audit_page(carol, a.match)
    revealed = load_state(fresh(a.match)).secrets[lieutenant.id]
    row = re.search(rf'<tr id="secret-{lieutenant.id}".*?</tr>', html, re.S).group(0)
    assert f"#{revealed.revealed_seq}" in row
    assert "by its owner" in row  # the rule that ended it: the owner, by hand
    assert "never revealed in play" not in row
    assert "matches ✓" in row


def test_the_verified_chain_is_shown(alice, bob, carol):
    a, _b = finished(alice, bob)
    text = text_of(audit_page(carol, a.match))
    assert f"The hash chain of {fresh(a.match).seq} events verifies" in text


def test_a_raw_sql_edit_is_named_on_the_audit_page(alice, bob, carol):
    a, _b = finished(alice, bob)
    with connection.cursor() as cursor:
        cursor.execute(
            "UPDATE tracker_matchevent SET data = replace(data, 'Bob', 'Rob') "
            "WHERE match_id = %s AND seq = 3",
            [a.match.pk],
        )
    html = audit_page(carol, a.match)
    assert "the first broken event is #3" in text_of(html)
    assert '<tr id="event-3" class="role-declared broken">' in html


def test_replay_shows_the_match_after_a_chosen_event(alice, bob, carol):
    a, _b = finished(alice, bob)
    locked = MatchEvent.objects.get(match=a.match, kind="ArmyListLocked", actor="A").seq
    html = audit_page(carol, a.match, at=locked)
    state = re.search(r'<section id="state".*?</section>', html, re.S).group(0)
    text = text_of(state)
    assert f"The match after event #{locked}" in text
    assert "Setting up" in text
    assert "Hassassin Ayyar" in text
    assert "Fusilier" not in text  # Bob had not locked his list yet
    assert "Lieutenant" not in text  # nothing sealed yet
    everything = text_of(audit_page(carol, a.match))
    assert "The match now" in everything and "Finished" in everything


def test_replay_ignores_a_point_out_of_range(alice, bob, carol):
    a, _b = finished(alice, bob)
    for at in ("0", "-1", "9999", "abc"):
        assert "The match now" in text_of(audit_page(carol, a.match, at=at))


def test_replay_equals_the_state_built_step_by_step(alice, bob):
    a, _b = finished(alice, bob)
    rows = list(MatchEvent.objects.filter(match=a.match).order_by("seq"))
    assert audit.replay(rows).state == load_state(fresh(a.match))


# ------------------------------------------------- a match still in play


def test_sealed_information_of_a_match_in_play_is_withheld_until_opened(alice, bob, carol):
    a, _b = playing(alice, bob)
    html = audit_page(carol, a.match)
    assert NINJA_POSITION not in html
    assert "Open the sealed information" in html
    assert "content sealed (still in play)" in html
    # Nothing was recorded by merely looking.
    assert not MatchEvent.objects.filter(match=a.match, actor="organizer").exists()
    assert carol.get(f"/organizer/matches/{a.match.code}/", {"at": 12}).status_code == 200
    assert NINJA_POSITION not in audit_page(carol, a.match, at=12)


def test_before_opening_no_hidden_deployment_seal_is_listed_nor_any_private_events_detail(
    alice, bob, carol
):
    """HD intro: the existence of a trooper in Hidden Deployment is private, so
    the audit of a match in play, unopened, shows what a spectator sees: no
    row, commitment or fingerprint of a Hidden Deployment seal, and each
    private event as its number alone (no kind, author or time)."""
    a, _b = playing(alice, bob)
    match = fresh(a.match)
    state = load_state(match)
    hidden = [s for s in state.secrets.values() if s.kind == "hd_position"]
    assert hidden
    html = audit_page(carol, match)
    for secret in hidden:
        assert secret.commitment not in html and fingerprint(secret.commitment) not in html
    rows = list(MatchEvent.objects.filter(match=match).order_by("seq"))
    assert any(row.private_to for row in rows)
    for entry in audit.timeline(rows, open_upto=0):
        if entry.sealed:
            assert (entry.kind, entry.actor, entry.private_to, entry.at) == ("", "", "", None)
            assert entry.data is None and entry.line is None
    assert not any(record.kind == "hd_position" for record in audit.secrets(state, {}, 0))
    # Opened (and recorded), the seal is listed with its commitment.
    open_sealed(carol, match)
    html = audit_page(carol, match)
    assert all(secret.commitment in html for secret in hidden)


def test_opening_sealed_information_is_recorded_and_both_phones_show_it(alice, bob, carol):
    a, b = playing(alice, bob)
    open_sealed(carol, a.match)
    row = MatchEvent.objects.get(match=a.match, kind="OrganizerViewedSecrets")
    assert row.actor == "organizer" and '"organizer":"carol"' in row.data
    html = audit_page(carol, a.match)
    assert NINJA_POSITION in html
    at = timezone.localtime(row.created_at).strftime("%H:%M")
    notice = f"The organizer viewed the sealed information at {at}."
    assert notice in text_of(a.page())
    assert notice in text_of(b.page())
    # Spectators see it too: it is public.
    from django.test import Client

    assert notice in text_of(Client().get(f"/m/{a.match.code}/").content.decode())


def test_a_secret_sealed_after_the_organizer_looked_stays_sealed_until_opened_again(
    alice, bob, carol
):
    a, b = playing(alice, bob)
    open_sealed(carol, a.match)
    assert error_of(b.submit("SealNote", label="Classified", text="note-canary-after-view")) is None
    assert "note-canary-after-view" not in audit_page(carol, a.match)
    open_sealed(carol, a.match)
    assert "note-canary-after-view" in audit_page(carol, a.match)
    assert MatchEvent.objects.filter(match=a.match, kind="OrganizerViewedSecrets").count() == 2


def test_one_organizer_opening_the_sealed_information_opens_it_for_that_organizer_only(
    alice, bob, carol
):
    """Each opening is recorded with its organizer's name, and the players
    are told who looked: another organizer still sees the match sealed
    until they open it too (and are recorded too)."""
    from django.contrib.auth.models import Group, User
    from django.test import Client

    dave = Client()
    user = User.objects.create_user("dave", password="dave-organizes-2026")
    user.groups.add(Group.objects.get_or_create(name="organizers")[0])
    dave.force_login(user)
    a, _b = playing(alice, bob)
    open_sealed(carol, a.match)
    assert NINJA_POSITION in audit_page(carol, a.match)
    assert NINJA_POSITION not in audit_page(dave, a.match)
    open_sealed(dave, a.match)
    assert NINJA_POSITION in audit_page(dave, a.match)
    viewed = MatchEvent.objects.filter(match=a.match, kind="OrganizerViewedSecrets")
    assert viewed.count() == 2


def test_opening_a_finished_match_records_nothing(alice, bob, carol):
    a, _b = finished(alice, bob)
    before = fresh(a.match).seq
    # The page of a finished match offers nothing to open...
    assert "/open/" not in audit_page(carol, a.match)
    # ...and a hand-built post (an attack, not a tap) records nothing.
    carol.post(f"/organizer/matches/{a.match.code}/open/")
    assert fresh(a.match).seq == before


def test_opening_is_a_post_only(alice, bob, carol):
    a, _b = playing(alice, bob)
    assert carol.get(f"/organizer/matches/{a.match.code}/open/").status_code == 405
    assert not MatchEvent.objects.filter(match=a.match, actor="organizer").exists()


def test_an_organizer_looking_does_not_close_a_players_undo_window(alice, bob, carol):
    a, _b = playing(alice, bob)
    bolt = next(t for t in load_state(fresh(a.match)).troopers.values() if t.name == "Bolt")
    response = a.submit("SetTrooperState", trooper_id=bolt.id, condition="unconscious", tokens=[])
    assert error_of(response) is None
    open_sealed(carol, a.match)
    assert error_of(a.submit("UndoLastStep")) is None
    assert load_state(fresh(a.match)).troopers[bolt.id].condition == "normal"


@pytest.mark.parametrize(
    "sql",
    [
        "UPDATE tracker_matchevent SET data = 'not json' WHERE match_id = %s AND seq = 4",
        "UPDATE tracker_matchevent SET kind = 'Bogus' WHERE match_id = %s AND seq = 4",
        "UPDATE tracker_matchevent SET data = '{\"x\":1}' WHERE match_id = %s AND seq = 4",
        "DELETE FROM tracker_matchevent WHERE match_id = %s AND seq = 4",
    ],
)
def test_a_mangled_row_is_reported_not_crashed_on(alice, bob, carol, sql):
    a, _b = finished(alice, bob)
    with connection.cursor() as cursor:
        cursor.execute(sql, [a.match.pk])
    text = text_of(audit_page(carol, a.match))
    assert "the first broken event is #4" in text
    assert "could not be replayed" in text or "DELETE" in sql
    assert carol.get(f"/organizer/matches/{a.match.code}/", {"at": 10}).status_code == 200
    export = carol.get(f"/organizer/matches/{a.match.code}/export.json")
    assert export.status_code == 200 and b'"first_broken_seq": 4' in export.content


# ------------------------------------- receipts carry 128 bits (issue 22)


def check_on_the_audit_page(carol, match, seq, code, language="en") -> str:
    """The organizer types a receipt into the audit page's own form (its
    fields as rendered) and reads the verdict."""
    from bs4 import BeautifulSoup

    page = audit_page(carol, match)
    form = BeautifulSoup(page, "lxml").select_one("form.receipt-check")
    names = [e["name"] for e in form.select("input[name]")]
    assert names == ["receipt_seq", "receipt_code"]
    carol.cookies["django_language"] = language
    html = audit_page(carol, match, receipt_seq=seq, receipt_code=code)
    found = BeautifulSoup(html, "lxml").select_one("#receipt-result")
    return " ".join(found.get_text(" ").split())


def test_the_audit_refuses_a_receipt_shorter_than_32_digits(alice, bob, carol):
    """Issue 22: a 12-digit (48-bit) prefix was accepted; whoever holds the
    database could grind a free field of a rewritten match to match it."""
    a, _b = finished(alice, bob)
    match = fresh(a.match)
    head = match.last_hash
    twelve = f"{head[:4]}-{head[4:8]}-{head[8:12]}".upper()  # what the phones showed
    for short in (twelve, head[:12], head[:31]):
        verdict = check_on_the_audit_page(carol, match, match.seq, short)
        digits = len(short.replace("-", ""))
        assert verdict == (
            f"This code has {digits} digits: a receipt is checked on at least 32 (the code the "
            "phone shows, or its whole hash). Fewer could be matched by whoever rewrote the log."
        )
    assert "digits" in check_on_the_audit_page(carol, match, match.seq, "zz" * 16)
    spanish = check_on_the_audit_page(carol, match, match.seq, head[:12], language="es")
    assert spanish.startswith(
        "Este código tiene 12 dígitos: un recibo se comprueba con al menos 32"
    )


def test_the_audit_accepts_a_receipt_of_32_digits_or_the_whole_hash(alice, bob, carol):
    a, _b = finished(alice, bob)
    match = fresh(a.match)
    head = match.last_hash
    for code in (audit.receipt_code(head), head[:32], head, head.upper(), head[:40]):
        verdict = check_on_the_audit_page(carol, match, match.seq, code)
        assert verdict == f"The receipt matches event #{match.seq} of this log.", code
    wrong = ("0" if head[0] != "0" else "1") + head[1:32]
    assert "does NOT match" in check_on_the_audit_page(carol, match, match.seq, wrong)
    # Every digit given is checked, past the 32 of the phone's code too: a
    # whole hash wrong only in its last digit, or 40 digits wrong in the
    # 40th, is not this log's.
    for given in (64, 40):
        last = head[given - 1]
        wrong = head[: given - 1] + ("0" if last != "0" else "1")
        verdict = check_on_the_audit_page(carol, match, match.seq, wrong)
        assert "does NOT match" in verdict, given


def test_the_phones_code_is_128_bits_in_groups_of_four():
    head = "0123456789abcdef" * 4
    assert audit.receipt_code(head) == "0123-4567-89AB-CDEF-0123-4567-89AB-CDEF"
    assert audit.receipt_refusal(audit.receipt_code(head)) == ""
