"""Exports: JSON (everything the audit shows, re-verifiable offline with the
README's snippet) and CSV per match and per event; a player's own export is
redacted exactly as their own view."""

import codecs
import csv
import datetime as dt
import hashlib
import io
import json
import re
import subprocess
import sys
from dataclasses import asdict
from pathlib import Path

import pytest
from django.test import Client

from tests.web.organizer_table import NINJA_POSITION, finished, fresh, open_sealed, playing
from tracker import rules
from tracker.models import Match, MatchEvent, Seat, TournamentEvent
from tracker.reading import load_state
from tracker.rules.commitments import canonical_json

pytestmark = pytest.mark.django_db

README = Path(__file__).resolve().parents[2] / "README.md"


def readme_snippet() -> str:
    section = README.read_text(encoding="utf-8").split("### Verify an export offline", 1)[1]
    return re.search(r"```python\n(.*?)```", section, re.S).group(1)


def run_snippet(tmp_path, export: dict) -> subprocess.CompletedProcess:
    script = tmp_path / "verify_export.py"
    script.write_text(readme_snippet(), encoding="utf-8")
    path = tmp_path / "export.json"
    path.write_text(json.dumps(export, ensure_ascii=False), encoding="utf-8")
    return subprocess.run(
        [sys.executable, str(script), str(path)], capture_output=True, text=True, timeout=60
    )


HASHED = ("seq", "kind", "data", "private_to", "actor", "action_id", "created_at")


def independent_hash(prev: str, event: dict) -> str:
    """sha256(prev || canonical event), written out again from the README's
    description rather than imported from tracker.models."""
    body = json.dumps(
        {key: event[key] for key in HASHED},
        sort_keys=True,
        separators=(",", ":"),
        ensure_ascii=False,
    )
    return hashlib.sha256((prev + body).encode()).hexdigest()


def organizer_export(carol, match) -> dict:
    response = carol.get(f"/organizer/matches/{match.code}/export.json")
    assert response.status_code == 200
    assert response["Content-Type"] == "application/json"
    assert "attachment" in response["Content-Disposition"]
    return json.loads(response.content)


def test_the_match_export_holds_every_event_exactly_as_hashed(alice, bob, carol):
    a, _b = finished(alice, bob)
    export = organizer_export(carol, a.match)
    rows = list(MatchEvent.objects.filter(match=a.match).order_by("seq"))
    assert len(export["events"]) == len(rows)
    prev = "0" * 64
    for exported, row in zip(export["events"], rows, strict=True):
        assert exported["data"] == row.data
        assert exported["hash"] == row.hash
        # Expected values computed here, not by the code under test: UTC,
        # microseconds, "+00:00"; the hash re-derived as the README says.
        assert re.fullmatch(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{6}\+00:00", exported["created_at"])
        assert dt.datetime.fromisoformat(exported["created_at"]) == row.created_at
        assert exported["hash"] == independent_hash(prev, exported)
        prev = exported["hash"]
    assert prev == fresh(a.match).last_hash
    assert export["verification"]["ok"] is True
    assert export["match"]["last_hash"] == fresh(a.match).last_hash


def test_the_match_export_holds_what_the_audit_page_shows(alice, bob, carol):
    a, _b = finished(alice, bob)
    export = organizer_export(carol, a.match)
    state = load_state(fresh(a.match))
    secrets = {s["id"]: s for s in export["secrets"]}
    assert set(secrets) == set(state.secrets)
    for secret in state.secrets.values():
        exported = secrets[secret.id]
        assert exported["nonce"] == secret.nonce
        assert exported["payload"] == dict(secret.payload)
        assert exported["commitment"] == secret.commitment
        assert exported["canonical_payload"] == canonical_json(dict(secret.payload))
        # Re-derived here: sha256(nonce || canonical payload) (DESIGN.md).
        salted = (
            bytes.fromhex(exported["nonce"])
            + json.dumps(
                exported["payload"], sort_keys=True, separators=(",", ":"), ensure_ascii=False
            ).encode()
        )
        assert hashlib.sha256(salted).hexdigest() == exported["commitment"]
        assert exported["verified"] is True
        assert exported["revealed_in_play"] is False
    assert [t["seq"] for t in export["timeline"]] == [e["seq"] for e in export["events"]]
    assert "Bob confirmed the result" in export["timeline"][-1]["text"]
    assert export["match"]["result"]["objective_points"] == {"A": 7, "B": 3}
    assert export["match"]["players"] == {"A": "Alice", "B": "Bob"}
    assert "Ninja" in [t["name"] for t in export["final_state"]["A"]["troopers"]]


def test_the_readme_snippet_verifies_a_real_export(alice, bob, carol, tmp_path):
    a, _b = finished(alice, bob)
    done = run_snippet(tmp_path, organizer_export(carol, a.match))
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == f"{a.match.code} ok"


def test_the_readme_snippet_names_the_first_edited_seq(alice, bob, carol, tmp_path):
    a, _b = finished(alice, bob)
    export = organizer_export(carol, a.match)
    index = next(i for i, e in enumerate(export["events"]) if e["kind"] == "SecretsSealed")
    export["events"][index]["data"] = export["events"][index]["data"].replace("red", "blue")
    done = run_snippet(tmp_path, export)
    assert done.returncode == 1
    assert done.stdout.strip() == f"{a.match.code} chain broken at seq {index + 1}"


def rehash(export: dict) -> None:
    """What a forger would do: recompute every hash after an edit."""
    prev = "0" * 64
    for event in export["events"]:
        body = canonical_json(
            {
                k: event[k]
                for k in ("seq", "kind", "data", "private_to", "actor", "action_id", "created_at")
            }
        )
        event["hash"] = prev = hashlib.sha256((prev + body).encode()).hexdigest()
    export["match"]["last_hash"] = prev


def test_the_readme_snippet_catches_a_swapped_secret_under_a_rebuilt_chain(
    alice, bob, carol, tmp_path
):
    a, _b = finished(alice, bob)
    export = organizer_export(carol, a.match)
    index = next(i for i, e in enumerate(export["events"]) if e["kind"] == "SecretsSealed")
    data = json.loads(export["events"][index]["data"])
    data["secrets"][0]["payload"]["name"] = "Someone else"
    export["events"][index]["data"] = canonical_json(data)
    rehash(export)
    done = run_snippet(tmp_path, export)
    assert done.returncode == 1
    assert done.stdout.strip() == f"{a.match.code} commitment broken at seq {index + 1}"


def test_the_readme_snippet_catches_a_dropped_last_event(alice, bob, carol, tmp_path):
    a, _b = finished(alice, bob)
    export = organizer_export(carol, a.match)
    export["events"].pop()
    done = run_snippet(tmp_path, export)
    assert done.returncode == 1 and "last hash differs" in done.stdout


def test_an_export_of_a_match_in_play_needs_its_sealed_information_opened_first(alice, bob, carol):
    a, _b = playing(alice, bob)
    response = carol.get(f"/organizer/matches/{a.match.code}/export.json")
    assert response.status_code == 302
    assert response["Location"] == f"/organizer/matches/{a.match.code}/"
    assert NINJA_POSITION not in response.content.decode()
    open_sealed(carol, a.match)
    export = organizer_export(carol, a.match)
    assert export["events"][-1]["kind"] == "OrganizerViewedSecrets"
    assert NINJA_POSITION in json.dumps(export, ensure_ascii=False)


def test_the_event_export_verifies_finished_matches_and_lists_those_in_play(
    alice, bob, carol, mallory, tmp_path
):
    done_a, _b = finished(alice, bob)
    live_a, _d = playing(Client(), mallory)
    spring = TournamentEvent.objects.create(name="Spring Open")
    Match.objects.filter(pk__in=[done_a.match.pk, live_a.match.pk]).update(event=spring)
    response = carol.get(f"/organizer/events/{spring.pk}/export.json")
    assert response.status_code == 200
    export = json.loads(response.content)
    assert export["event"]["name"] == "Spring Open"
    by_code = {m["match"]["code"]: m for m in export["matches"]}
    assert by_code[live_a.match.code]["in_progress"] is True
    assert by_code[live_a.match.code]["events"] is None
    assert by_code[done_a.match.code]["verification"]["ok"] is True
    # The match in play gives away none of its secrets, and nobody was told
    # of a view that did not happen.
    live_secrets = load_state(fresh(live_a.match)).secrets.values()
    text = response.content.decode()
    assert not any(secret.nonce in text for secret in live_secrets)
    assert not MatchEvent.objects.filter(actor="organizer").exists()
    # The README's lines say which match they could not verify yet, rather
    # than print only the finished ones as if they were all.
    ran = run_snippet(tmp_path, export)
    assert ran.returncode == 0
    assert sorted(ran.stdout.strip().splitlines()) == sorted(
        [f"{done_a.match.code} ok", f"{live_a.match.code} still in play: not exported yet"]
    )


def parse_csv(response) -> list[dict]:
    assert response.status_code == 200 and response["Content-Type"] == "text/csv; charset=utf-8"
    # With a byte order mark, or Excel reads "José" as "JosÃ©" (README, Exports).
    assert response.content.startswith(codecs.BOM_UTF8)
    return list(csv.DictReader(io.StringIO(response.content.decode("utf-8-sig"))))


def test_csv_has_one_row_per_match(alice, bob, carol):
    a, _b = finished(alice, bob)
    spring = TournamentEvent.objects.create(name="Spring Open")
    Match.objects.filter(pk=a.match.pk).update(event=spring, event_round=2, table_number=7)
    [row] = parse_csv(carol.get(f"/organizer/matches/{a.match.code}/export.csv"))
    assert row["event"] == "Spring Open" and row["round"] == "2" and row["table"] == "7"
    assert (row["player_a"], row["player_b"]) == ("Alice", "Bob")
    assert (row["objective_points_a"], row["objective_points_b"]) == ("7", "3")
    assert (row["army_points_a"], row["army_points_b"]) == ("90", "25")
    assert row["status"] == "finished" and row["result"] == "confirmed"
    assert row["last_hash"] == fresh(a.match).last_hash
    other, _ = playing(Client(), Client())
    Match.objects.filter(pk=other.match.pk).update(event=spring, event_round=2, table_number=8)
    rows = parse_csv(carol.get(f"/organizer/events/{spring.pk}/export.csv"))
    assert [r["table"] for r in rows] == ["7", "8"]
    assert rows[1]["status"] == "in_progress" and rows[1]["result"] == ""


def test_csv_cells_cannot_run_as_spreadsheet_formulas(alice, bob, carol):
    a, _b = finished(alice, bob)
    Seat.objects.filter(match=a.match, letter="A").update(name='=HYPERLINK("http://x")')
    [row] = parse_csv(carol.get(f"/organizer/matches/{a.match.code}/export.csv"))
    assert row["player_a"] == '\'=HYPERLINK("http://x")'


# ------------------------------------------------------------ player export


def player_export(client, match) -> tuple[dict, str]:
    response = client.get(f"/m/{match.code}/export.json")
    assert response.status_code == 200
    return json.loads(response.content), response.content.decode()


@pytest.mark.parametrize("stage", [playing, finished])
def test_a_player_export_is_redacted_exactly_as_their_own_view(alice, bob, stage):
    a, b = stage(alice, bob)
    state = load_state(fresh(a.match))
    alice_secrets = [s for s in state.secrets.values() if s.seat == "A" and not s.revealed]
    hidden_commitment = next(s.commitment for s in alice_secrets if s.kind == "hd_position")
    bob_export, bob_text = player_export(b.client, a.match)
    assert bob_export["view"] == json.loads(
        json.dumps(asdict(rules.player_view(state, "B")), default=str)
    )
    # Independent of player_view: what the export must say, written out.
    alice_seat = next(s for s in bob_export["view"]["seats"] if s["seat"] == "A")
    assert sorted(t["name"] for t in alice_seat["troopers"]) == ["Hassassin Ayyar", "Kaplan"]
    closed = [x for x in alice_seat["secrets"] if x["revealed_seq"] is None]
    assert closed and {x["id"] for x in closed} == {
        s.id for s in alice_secrets if s.existence_public
    }
    for listed in closed:
        assert listed["payload"] is None and listed["nonce"] is None
    assert hidden_commitment not in json.dumps(alice_seat["secrets"])
    for secret in alice_secrets:
        assert secret.nonce not in bob_text
    for canary in (NINJA_POSITION, "Ninja", '"real"', hidden_commitment):
        assert canary not in bob_text
    assert '"hash"' not in bob_text and fresh(a.match).last_hash not in bob_text
    alice_export, alice_text = player_export(a.client, a.match)
    assert alice_export["viewer"] == "A" and NINJA_POSITION in alice_text
    assert "Bob" in bob_text  # the log is there, in the player's words
    assert any("took seat" in line["text"] for line in bob_export["log"])


def test_only_the_two_players_can_export_their_match(alice, bob, mallory):
    a, _b = finished(alice, bob)
    assert mallory.get(f"/m/{a.match.code}/export.json").status_code == 403
    other, _ = playing(Client(), Client())
    response = alice.get(f"/m/{other.match.code}/export.json")
    assert response.status_code == 403
    assert NINJA_POSITION not in response.content.decode()
    assert alice.get("/m/nope/export.json").status_code == 404
