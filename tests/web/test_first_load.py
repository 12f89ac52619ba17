"""Issue 18: the first load of a player's page with 25-trooper lists is at
most 50 KB: its HTML, uncompressed on purpose (docs/performance.md, "Compression and
BREACH"), plus the static files it fetches as collectstatic publishes them
(our own JS and CSS minified, all brotli'd: tracker/static_storage.py).
Bytes, not time: the same figure bench/first_load.py measures on the real
server, here in-process, with the static files collected as `make run`
collects them (their hashed names are in the page). And the State tap on
that page, through its one form, answers and pushes a few rows' worth."""

from __future__ import annotations

import json

import pytest
from django.contrib.sessions.models import Session
from django.test import Client

from bench.load import fetched_assets
from bench.setup_matches import army, bring_to_play, claimed, play_orders, to_orders_phase
from tracker import actions
from tracker.models import Match

from .minifier import PUBLISHING, collect_static, require_tdewolff
from .phone import Phone

pytestmark = pytest.mark.django_db

BUDGET = 50 * 1024  # bench/run.py's goal
# The socket's first frame for a page just loaded: the seq marker alone.
FIRST_FRAME = 100
TROOPERS = 25


@pytest.fixture(scope="module")
def published(tmp_path_factory):
    """The static files as `make run` publishes them, in a folder of their
    own: minified, hashed, with their brotli copies."""
    root = tmp_path_factory.mktemp("static")
    collect_static(root)
    return root


@pytest.fixture
def served(published, settings):
    """Pages rendered with the published names, as `make run` serves them."""
    settings.STATIC_ROOT, settings.STORAGES = published, PUBLISHING
    return published


def published_bytes(root, url: str) -> int:
    """A static file's bytes as a phone asking for brotli fetches it."""
    name = root / url.removeprefix("/static/")
    compressed = name.with_name(name.name + ".br")
    return len((compressed if compressed.exists() else name).read_bytes())


@pytest.fixture
def big_match() -> dict:
    match = actions.create_match(name="Big lists", points_limit=20 * TROOPERS)
    bring_to_play(match, {letter: army(letter, TROOPERS) for letter in "AB"})
    sessions: list[Session] = []
    made = claimed(Match.objects.get(pk=match.pk), sessions)
    Session.objects.bulk_create(sessions)
    return made


# The player's page (seat A, the active player) where a match spends its
# time: the Tactical Phase and the Orders Phase at the start of play, and the
# Orders Phase after 10 whole Orders (the log full), as `make bench` measures
# it (in English), in both languages.
PAGES = [
    ("tactical", 0, "en"),
    ("tactical", 0, "es"),
    ("orders", 0, "en"),
    ("orders", 0, "es"),
    ("orders", 10, "en"),
    ("orders", 10, "es"),
]


@pytest.mark.parametrize(("phase", "orders", "language"), PAGES)
def test_a_players_first_load_with_25_trooper_lists_is_within_50_kb(
    served, big_match, phase, orders, language
):
    require_tdewolff()  # rjsmin's app.js is about 1.3 KB more
    match = Match.objects.get(code=big_match["code"])
    if orders:
        play_orders(match, orders)
    elif phase == "orders":
        to_orders_phase(match)
    client = Client(headers={"accept-language": language})
    client.cookies["sessionid"] = big_match["A"]
    html = client.get(f"/m/{big_match['code']}/").content
    assert f'<html lang="{language}"'.encode() in html
    assert b'data-phase="playing"' in html and html.count(b'<li class="trooper') == 50
    assert (b"act/DeclareSkill/" in html) == (phase == "orders")
    names = json.loads((served / "staticfiles.json").read_text())["paths"]
    assert f"/static/{names['tracker/app.js']}" in html.decode()  # as served
    parts = {"html": len(html)}
    parts.update({url: published_bytes(served, url) for url in fetched_assets(html.decode())})
    assert len(parts) == 6  # the page, its icon, manifest, stylesheet and two scripts
    total = sum(parts.values()) + FIRST_FRAME
    assert total <= BUDGET, f"{total:,} bytes > {BUDGET:,}: {parts}"


def test_the_state_form_sets_a_state_and_answers_in_a_few_rows(big_match):
    alice = Phone()
    alice.app.set_cookie("sessionid", big_match["A"])
    alice.open(big_match["code"])
    # One form for the page, whichever trooper: tapped from Bob's trooper's row.
    assert len(alice.forms("SetTrooperState")) == 1
    form = alice.form("SetTrooperState", trooper_id="b0000003")
    assert form.node.select_one("input[name=trooper_id]")["value"] == "b0000003"
    # Prone, as bench/load.py taps: the answer is that row (and the log's
    # line), not the seat block; the form is in no block, so never in it.
    answer = alice.submit("SetTrooperState", trooper_id="Zhanshi 3", tokens=["Prone"])
    assert alice.error is None
    assert alice.soup.select_one("#trooper-b0000003")["data-tokens"] == "prone"
    assert len(answer.body) <= 5 * 1024, len(answer.body)
    assert b'id="blk-seat_B"' not in answer.body and b"data-state-form" not in answer.body
    assert b'<li hx-swap-oob="true" class="trooper" id="trooper-b0000003"' in answer.body
    # Prefilled from the row now: Unconscious keeps Prone, as the row shows it.
    alice.submit("SetTrooperState", trooper_id="b0000003", condition="unconscious")
    row = alice.soup.select_one("#trooper-b0000003")
    assert row["data-cond"] == "unconscious" and row["data-tokens"] == "prone"


def test_the_bench_measures_a_page_of_the_middle_of_a_turn_with_its_log_full(big_match):
    """bench/run.py measures the first load twice: at the start of play and
    after ORDERS_PLAYED whole Orders (setup_matches.play_orders), the page a
    phone reloading in the middle of a Turn gets. That second page must be
    one: the Orders Phase of the active player, its log block full."""
    from bench.run import ORDERS_PLAYED
    from bench.setup_matches import play_orders
    from tracker.reading import RECENT

    match = Match.objects.get(code=big_match["code"])
    play_orders(match, ORDERS_PLAYED)
    alice = Phone()
    alice.app.set_cookie("sessionid", big_match["A"])
    alice.open(big_match["code"])
    assert alice.can("DeclareSkill")
    lines = alice.soup.select("#log-list > li")
    assert len(lines) == RECENT
    text = " ".join(line.get_text(" ", strip=True) for line in lines)
    assert f"End of the Order of Fusilier {ORDERS_PLAYED - 1}." in text
    # Full of play: the set-up's lines (the match created, the seats taken)
    # have scrolled out.
    assert "Match created" not in text and "took seat" not in text
