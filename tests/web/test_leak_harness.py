"""The leak harness: many random matches through the real views and sockets.

Each match (hypothesis): random army lists with Hidden Deployment,
Camouflage, Infiltration and Holoprojector troopers; both players tap what
their own screen offers, with random choices, now and then a tampered field
(another trooper's id, a hidden one's, junk), a replayed action id or a plain
non-htmx post; a spectator and an anonymous visitor poke at the match; now and
then a seat moves to a new phone with its PIN (the old phone, socket still
open, is one more viewer). Every byte each of them receives is recorded:
full pages, htmx partials, websocket frames, redirects (with their decoded
messages), 4xx pages and exports. Then, against the log's SecretRevealed
events: before the reveal of a secret, no canary of it (leaks.py) is in any
byte sent to anyone but its owner, in any form a page could give it.
The run's coverage (offered / posted / accepted per command, token uses,
reveals by rule) is printed in pytest's terminal summary, and checked over
50 matches or more (leaks.uncovered).

LEAK_MATCHES=<n> runs n matches (default 200).
"""

from __future__ import annotations

import base64
import contextlib
import itertools
import json
import os
import random
import time
from collections import Counter

import pytest
from asgiref.sync import async_to_sync, sync_to_async
from django.core.cache import cache
from django.test import Client
from hypothesis import HealthCheck, given
from hypothesis import settings as hypothesis_settings
from hypothesis import strategies as st

from tests.support import report
from tests.toy_kind import TOY, toy_kind
from tracker import rules
from tracker.models import Match, MatchEvent
from tracker.reading import load_state
from tracker.rules.sealing import SECRET_KINDS, subject_of

from .flows import CANARY_NINJA, CANARY_POSITION
from .leaks import (
    KINDS,
    MUST_BE_ACCEPTED,
    Table,
    Typist,
    coverage_lines,
    coverage_of,
    fill,
    leaks,
    payload_fragments,
    play,
    private_facts,
    published_words,
    reveal_seqs,
    sealed_secrets,
    uncovered,
)
from .table import error_of, seated

LEAK_MATCHES = int(os.environ.get("LEAK_MATCHES", "200"))
FAST_PINS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
_tags = itertools.count(1)

army = st.lists(st.sampled_from(sorted(KINDS)), min_size=1, max_size=3)


def owner_pages(table: Table) -> dict[str, dict[str, str]]:
    """Each seat's own last full page: what it shows for each of its secrets."""
    pages = {}
    for seat in "AB":
        last = next(
            r
            for r in reversed(table.recorder.received)
            if r.viewer == seat and r.what == f"GET /m/{table.code}/"
        )
        pages[seat] = payload_fragments(last.data.decode(errors="replace"))
    return pages


def leaks_in(table: Table) -> list[str]:
    match = Match.objects.get(pk=table.match.pk)
    state = load_state(match)
    revealed = reveal_seqs(match)
    sealed = sealed_secrets(state, revealed, owner_pages(table))
    facts = private_facts(state, match, revealed)
    published = published_words(match, table.recorder.received)
    return leaks(table.recorder.received, sealed, facts, published)


def check_match(table: Table, stats: Counter, coverage: Counter | None = None) -> None:
    match = Match.objects.get(pk=table.match.pk)
    state = load_state(match)
    revealed = reveal_seqs(match)
    found = leaks_in(table)
    assert not found, f"{len(found)} leaks, the first ones:\n" + "\n".join(found[:8])
    assert (
        rules.replay(
            rules.event_from_data(row.kind, json.loads(row.data))
            for row in MatchEvent.objects.filter(match=match).order_by("seq")
        )
        == state
    )
    stats["matches"] += 1
    stats["responses and frames"] += len(table.recorder.received)
    stats["frames"] += sum(1 for r in table.recorder.received if r.what == "frame")
    stats["bytes"] += table.recorder.total_bytes
    stats["secrets"] += len(state.secrets)
    stats["reveals"] += len(revealed)
    for secret in state.secrets.values():
        if secret.revealed_rule:
            stats[f"reveals {secret.revealed_rule}"] += 1
    stats["hidden troopers"] += sum(1 for t in state.troopers.values() if t.hidden)
    stats["camouflage markers"] += sum(1 for t in state.troopers.values() if t.marker_number)
    stats["HoloMask seals"] += sum(1 for s in state.secrets.values() if s.kind == "holomask_type")
    stats["fireteams formed"] += MatchEvent.objects.filter(
        match=match, kind="FireteamFormed"
    ).count()
    stats["playing"] += state.phase == "playing"
    stats["posts"] += table.posts
    stats["seats moved to a new phone"] += sum(v.endswith("-old") for v in table.viewers)
    if coverage is not None:
        coverage.update(coverage_of(table))


@pytest.mark.django_db(transaction=True)
def test_no_secret_reaches_anyone_but_its_owner_before_its_reveal(settings):
    settings.PASSWORD_HASHERS = FAST_PINS
    stats: Counter = Counter()
    coverage: Counter = Counter()
    started = time.monotonic()

    @hypothesis_settings(
        max_examples=LEAK_MATCHES,
        deadline=None,
        suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
    )
    @given(
        lists=st.fixed_dictionaries({"A": army, "B": army}),
        moves=st.integers(min_value=4, max_value=10),
        creator=st.sampled_from("AB"),
        # A seeded generator, not hypothesis-chosen values: those lean to the
        # first option of every form and gave half as many reveals.
        rng=st.randoms(use_true_random=True),
    )
    def one_match(lists, moves, creator, rng):
        cache.clear()  # the seat-link and PIN guess limits are per address
        table = Table(rng, Typist(f"{next(_tags):05d}"), creator)
        async_to_sync(play)(table, lists, moves)
        check_match(table, stats, coverage)

    one_match()
    elapsed = time.monotonic() - started
    summary = ", ".join(f"{k}: {v}" for k, v in stats.items())
    report(
        f"leak harness: {stats['matches']} matches in {elapsed:.0f}s",
        [summary, *coverage_lines(coverage)],
    )
    # Every kind of command the pages offer was accepted somewhere in the run
    # (over 50 matches or more: a shorter run may miss a rare one).
    if stats["matches"] >= 50:
        missing = uncovered(coverage)
        assert not missing, "the harness never reached:\n" + "\n".join(missing)
    # The run exercised what it claims to check (given enough matches to expect it).
    by_rule = sum(
        n for key, n in stats.items() if key.startswith("reveals ") and "owner" not in key
    )
    if stats["matches"] >= 50:
        assert stats["reveals"] and by_rule and stats["hidden troopers"] and stats["frames"]
        assert stats["seats moved to a new phone"]


# ------------------------------------------- the harness sees a planted leak

PLANTS = {
    # A hidden trooper shown to everyone: its name and id (HD intro).
    "hidden troopers listed": (
        "trooper_visible",
        lambda original: lambda t, v: True,
        ["hidden trooper of"],
    ),
    # The owner's view of every secret: payloads, the real Holoecho, nonces.
    "sealed payloads shown": (
        "_secret_view",
        lambda original: lambda secret, viewer, *rest: original(secret, secret.seat, *rest),
        ["lieutenant", "holoecho", "The real one is", 'class="payload"'],
    ),
    # Secrets whose existence is private listed, with their fingerprints.
    "private existence shown": (
        "secret_visible",
        lambda original: lambda s, v: True,
        ["hd_position"],
    ),
}


def plant_in_read_path(monkeypatch, name: str) -> None:
    """PLANTS[name] planted in the read path (tracker/rules/visibility.py)."""
    from tracker.rules import visibility

    attribute, patch, _expected = PLANTS[name]
    monkeypatch.setattr(visibility, attribute, patch(getattr(visibility, attribute)))


FULL_TABLE = {"A": ["hd_he", "hd_camo", "he"], "B": ["hd", "he", "lieutenant"]}


@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("planted", [False, True])
def test_the_harness_reports_a_classified_card_shown_to_the_opponent(
    planted, settings, monkeypatch
):
    """Classified canaries (CL-3, CL-6): with the owner's view of every secret
    planted, the cards kept are reported through their owner's text, their
    held-card ids and the draw's seed; as built, nothing is."""

    settings.PASSWORD_HASHERS = FAST_PINS
    if planted:
        plant_in_read_path(monkeypatch, "sealed payloads shown")
    found, kept = [], 0
    for seed in range(2):
        cache.clear()
        table = Table(random.Random(seed), Typist(f"{next(_tags):05d}"), "A", classified=True)
        async_to_sync(play)(table, {"A": ["plain"], "B": ["lieutenant"]}, 2)
        state = load_state(Match.objects.get(pk=table.match.pk))
        kept += sum(1 for s in state.secrets.values() if s.kind == "classified")
        found += leaks_in(table)
    assert kept, "the players kept Classified Objectives"
    if planted:
        assert any("classified_draw" in f for f in found)
        assert any("classified " in f for f in found)
    else:
        assert found == []


@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("plant", sorted(PLANTS))
def test_the_harness_reports_a_leak_planted_in_the_read_path(plant, settings, monkeypatch):
    """The harness is not vacuous: break visibility.player_view one way at a
    time and the same kind of match it plays above must be reported."""

    settings.PASSWORD_HASHERS = FAST_PINS
    expected = PLANTS[plant][2]
    plant_in_read_path(monkeypatch, plant)
    found = []
    for seed in range(3):
        cache.clear()
        table = Table(random.Random(seed), Typist(f"{next(_tags):05d}"), "A")
        async_to_sync(play)(table, FULL_TABLE, 3)
        found += leaks_in(table)
    assert found, plant
    for kind in expected:
        assert any(kind in f for f in found), (plant, kind)
    assert any("(frame)" in f for f in found) and any("(GET " in f for f in found), plant


def _stale_render(self, since=None):
    """A consumer that keeps the seat it found at connect()."""
    from tracker.rendering import blocks_for

    match = Match.objects.get(pk=self.match_id)
    seq, blocks = blocks_for(match, match.seats.get(letter=self.letter) if self.letter else None)
    return self.letter, seq, blocks  # as MatchConsumer._render returns


@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("consumer", ["as built", "keeping the seat it connected with"])
def test_a_phone_whose_seat_moved_to_another_phone_gets_no_more_of_its_secrets(
    consumer, settings, monkeypatch
):
    """Alice moves her seat to a new phone with her PIN; her old phone, socket
    still open, is a spectator from the next push on. Planting a consumer that
    does not re-read the seat at each push shows the check can fail."""
    from tracker.consumers import MatchConsumer

    settings.PASSWORD_HASHERS = FAST_PINS
    if consumer != "as built":
        monkeypatch.setattr(MatchConsumer, "_render", _stale_render)
    table = Table(random.Random(7), Typist(f"{next(_tags):05d}"), "A")

    async def scenario():
        run = sync_to_async(lambda fn, *args: fn(*args))
        await run(table.create)
        await table.connect()
        for step in table.set_up(FULL_TABLE):
            await run(*step)
            await table.settle()
        await table.move_seat("A")
        await table.settle()
        await run(table.tap_first, "B", "SealNote")  # any push will do
        await table.settle()
        # The old phone wakes up and asks for everything again.
        await table.drain("A-old")
        await run(table.finale)
        await table.close()

    async_to_sync(scenario)()
    old = [f for f in leaks_in(table) if f.startswith("A-old ")]
    old_frames = [r for r in table.recorder.received if r.viewer == "A-old" and r.what == "frame"]
    assert old_frames, "the old phone's socket received the pushes after the move"
    if consumer == "as built":
        assert leaks_in(table) == []
    else:
        assert old, "the stale consumer's frames to the old phone must be reported"


# ------------------------------------------------- what the harness found


@pytest.mark.django_db
def test_a_reserve_deployed_in_hidden_deployment_is_not_named_when_deployment_ends(alice, bob):
    """TM-S1 + HD intro. The reserve's seal used to be opened for both phones
    as soon as both deployments were sealed, naming (and giving the id of) a
    trooper still in Hidden Deployment. Now it stays closed until that trooper's
    Hidden Deployment ends, and the number of events is the same as for a
    reserve on the table. Found by the harness above."""
    a, b = seated(alice, bob)
    for args in (
        (CANARY_NINJA, 30, 1, 2, ["hidden_deployment"]),
        ("Kaplan", 20, 1, 2, ["lieutenant_candidate"]),
    ):
        assert error_of(a.add_trooper(*args)) is None
    assert error_of(b.add_trooper("Fusilier", 10, traits=["lieutenant_candidate"])) is None
    assert error_of(a.raw_post("LockArmyList")) is None
    assert error_of(b.raw_post("LockArmyList")) is None
    assert error_of(a.raw_post("SetInitiative", first_turn="A", deploys_first="A")) is None
    ids = {t.name: t.id for t in load_state(Match.objects.get()).troopers.values()}
    seal = {
        "lieutenant": ids["Kaplan"],
        f"hd_position_{ids[CANARY_NINJA]}": CANARY_POSITION,
        "reserve": ids[CANARY_NINJA],
    }
    assert error_of(a.raw_post("SealDeployment", **seal)) is None
    response = b.raw_post("SealDeployment", lieutenant=ids["Fusilier"])
    assert error_of(response) is None
    state = load_state(Match.objects.get())
    assert state.phase == "playing"
    code = a.match.code
    for seen in (
        response.content,
        bob.get(f"/m/{code}/").content,
        bob.get(f"/m/{code}/export.json").content,
        Client().get(f"/m/{code}/").content,
    ):
        assert CANARY_NINJA.encode() not in seen
        assert ids[CANARY_NINJA].encode() not in seen
    reserve = next(s for s in state.secrets.values() if s.kind == "reserve")
    assert not reserve.revealed
    assert not state.troopers[ids[CANARY_NINJA]].reserved  # deployed, hidden
    # The Ninja can act: declaring places it (HD-C2), and then its reserve seal
    # opens too, with its proof.
    a.raw_post("AdvancePhase", expected="tactical")  # the Order Count
    b.raw_post("DeclineStrategicUse")  # TM-S2 passes
    a.raw_post("AdvancePhase", expected="tactical")
    a.raw_post("AdvancePhase", expected="impetuous")
    assert error_of(a.raw_post("DeclareSkill", trooper_id=ids[CANARY_NINJA], skill="move")) is None
    state = load_state(Match.objects.get())
    assert state.secrets[reserve.id].revealed and not state.troopers[ids[CANARY_NINJA]].hidden
    assert "Matches what was sealed" in bob.get(f"/m/{code}/").content.decode()


@pytest.mark.django_db
def test_a_reserve_on_the_table_is_revealed_when_deployment_ends(alice, bob):
    """TM-S1: the reserved trooper is deployed after the opponent, so its seal
    opens for both phones when the last deployment is sealed."""
    a, b = seated(alice, bob)
    assert error_of(a.add_trooper("Kaplan", 20, traits=["lieutenant_candidate"])) is None
    assert error_of(a.add_trooper("Zhanshi", 10)) is None
    assert error_of(b.add_trooper("Fusilier", 10, traits=["lieutenant_candidate"])) is None
    assert error_of(a.raw_post("LockArmyList")) is None
    assert error_of(b.raw_post("LockArmyList")) is None
    assert error_of(a.raw_post("SetInitiative", first_turn="A", deploys_first="A")) is None
    ids = {t.name: t.id for t in load_state(Match.objects.get()).troopers.values()}
    a.raw_post("SealDeployment", lieutenant=ids["Kaplan"], reserve=ids["Zhanshi"])
    b.raw_post("SealDeployment", lieutenant=ids["Fusilier"])
    reserve = next(
        s for s in load_state(Match.objects.get()).secrets.values() if s.kind == "reserve"
    )
    assert reserve.revealed_rule == "TM-S1"
    assert "<strong>Zhanshi</strong>" in bob.get(f"/m/{a.match.code}/").content.decode()


# ------------------------------------- the harness sees what it never reached


def test_coverage_names_a_command_never_accepted_and_a_form_always_refused():
    """The run's coverage check, on counts written out: a command of
    MUST_BE_ACCEPTED never accepted, and a form posted as rendered 40 times
    and never accepted while another form of the same command works (the ARO
    form of a target without Holoechoes, which sent no target_element)."""
    good = Counter()
    for command in MUST_BE_ACCEPTED:
        good[("posted", command)] = good[("accepted", command)] = 3
    good[("token use", "TM-T2")] = 1
    good[("reveal", "HD-C2")] = 1
    assert uncovered(good) == []
    broken_aro = Counter(good)
    broken_aro[("form posted", "DeclareAro(skill,target_element,target_id,trooper_id)")] = 5
    broken_aro[("form accepted", "DeclareAro(skill,target_element,target_id,trooper_id)")] = 5
    broken_aro[("form posted", "DeclareAro(skill,target_id,trooper_id)")] = 40
    assert uncovered(broken_aro) == [
        "DeclareAro(skill,target_id,trooper_id): posted 40 times as the page rendered it, "
        "never accepted"
    ]
    never = Counter(good)
    del never[("accepted", "ActivateHoloecho")]
    del never[("reveal", "HD-C2")]
    never[("reveal", "owner")] = 2
    assert uncovered(never) == [
        "ActivateHoloecho: never accepted (3 posted)",
        "no secret was ever revealed by a rule",
    ]


@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("plant", ["as built", "every DeclareSkill refused"])
def test_the_coverage_of_real_matches_shows_a_broken_declaration(plant, settings, monkeypatch):
    """Through the real views: three matches that tell an Order through the
    forms; with the Order form broken (every DeclareSkill refused, as a form
    missing a field would be) the coverage check names it."""
    from tracker import views
    from tracker.rules.errors import InvalidInput

    settings.PASSWORD_HASHERS = FAST_PINS
    if plant != "as built":
        honest = views.build_command

        def broken(command, *args):
            if command == "DeclareSkill":
                raise InvalidInput("Some information is missing; reload the page.")
            return honest(command, *args)

        monkeypatch.setattr(views, "build_command", broken)
    coverage: Counter = Counter()
    for seed in range(3):
        cache.clear()
        table = Table(random.Random(seed), Typist(f"{next(_tags):05d}"), "A")
        async_to_sync(play)(table, FULL_TABLE, 2, story=True)
        coverage.update(coverage_of(table))
    assert coverage[("posted", "DeclareSkill")] >= 3
    missing = uncovered(coverage)
    if plant == "as built":
        assert coverage[("accepted", "DeclareSkill")] > 0
        assert not any(m.startswith("DeclareSkill") for m in missing), missing
    else:
        assert coverage[("accepted", "DeclareSkill")] == 0
        assert any(m.startswith("DeclareSkill: never accepted") for m in missing), missing


# ------------------------ a leak in another form, planted in the rendered blocks


def _closed(state, viewer):
    """Secrets and hidden troopers of the other seat(s), still closed."""
    secrets = [s for s in state.secrets.values() if s.seat != viewer and not s.revealed]
    hidden = [t for t in state.troopers.values() if t.seat != viewer and t.hidden]
    return secrets, hidden


def _say(blocks, text):
    blocks["header"] = blocks["header"].replace("</section>", f"<p>{text}</p></section>", 1)
    return blocks


def _say_positions(form):
    def leak(state, viewer, blocks):
        secrets, _hidden = _closed(state, viewer)
        for s in secrets:
            x, y = s.payload.get("x"), s.payload.get("y")
            if s.kind == "hd_position" and x not in (None, "") and y not in (None, ""):
                blocks = _say(blocks, form(float(x), float(y)))
        return blocks

    return leak


def _say_hidden(form):
    def leak(state, viewer, blocks):
        _secrets, hidden = _closed(state, viewer)
        for t in hidden:
            blocks = _say(blocks, form(t))
        return blocks

    return leak


def _mark_lieutenant(mark):
    def leak(state, viewer, blocks):
        secrets, _hidden = _closed(state, viewer)
        for s in secrets:
            if s.kind == "lieutenant":
                opening = f'" id="trooper-{s.payload["trooper_id"]}">'
                for name in ("seat_A", "seat_B"):
                    blocks[name] = mark(blocks[name], opening)
        return blocks

    return leak


FORM_PLANTS = {
    "hidden trooper's name uppercased": (
        _say_hidden(lambda t: t.name.upper()),
        "hidden trooper of",
    ),
    # (its id is also a canary of its sealed position, which may be named first)
    "hidden trooper's id uppercased": (_say_hidden(lambda t: t.id.upper()), "of A -> '"),
    "hidden trooper's name in base64": (
        _say_hidden(lambda t: f'<i data-k="{base64.b64encode(t.name.encode()).decode()}"></i>'),
        "hidden trooper of",
    ),
    "hidden trooper's name split by markup": (
        _say_hidden(lambda t: f"{t.name[:5]}<b></b>{t.name[5:]}"),
        "hidden trooper of",
    ),
    "position with swapped attributes": (
        _say_positions(lambda x, y: f'<circle cy="{y:g}" r="3" cx="{x:g}"/>'),
        "position of hd_position",
    ),
    "position as percentages": (
        _say_positions(lambda x, y: f'<i style="left:{x / 12:.2f}%;top:{y / 12:.2f}%"></i>'),
        "position of hd_position",
    ),
    "position as JSON": (
        _say_positions(lambda x, y: json.dumps({"y": y, "x": x})),
        "position of hd_position",
    ),
    "position as floats": (
        _say_positions(lambda x, y: f"({x:.3f}, {y:.1f})"),
        "position of hd_position",
    ),
    "Lieutenant as a class on its row": (
        _mark_lieutenant(lambda html, opening: html.replace(opening, f" lt{opening}")),
        "looks unlike any other row",
    ),
    "Lieutenant as a star on its row": (
        _mark_lieutenant(
            lambda html, opening: html.replace(opening, f'{opening}<span class="lt">★</span>')
        ),
        "looks unlike any other row",
    ),
}


@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("plant", list(FORM_PLANTS))
def test_the_harness_reports_a_leak_in_another_form(plant, settings, monkeypatch):
    """The canaries are matched after undoing what a page could do to them
    (case, markup, base64, notation) and the trooper rows are compared: a
    leak planted in each form in the rendered blocks (pages, partials and
    frames alike) is reported."""
    from tracker import rendering

    settings.PASSWORD_HASHERS = FAST_PINS
    leak, expected = FORM_PLANTS[plant]
    honest = rendering.render_some

    # Every block is rendered by render_some, whole or only those whose
    # input changed (issue 18): the plant goes into whichever it renders.
    def planted(seen, seat, names, context):
        blocks = dict.fromkeys(rendering.BLOCKS, "")
        blocks.update(honest(seen, seat, names, context))
        state = load_state(Match.objects.get(pk=seen.match.pk))
        return {n: h for n, h in leak(state, seen.view.viewer, blocks).items() if n in names}

    monkeypatch.setattr(rendering, "render_some", planted)
    found = []
    for seed in range(3):
        cache.clear()
        table = Table(random.Random(seed), Typist(f"{next(_tags):05d}"), "A")
        async_to_sync(play)(table, FULL_TABLE, 2, story=True)
        found += leaks_in(table)
    assert any(expected in f for f in found), (plant, found[:5])


# ------------------------- markers and HoloMask: the canaries can go off


def _tap(table: Table, seat: str, command: str, **values) -> None:
    """`seat` taps its first `command` form, filled at random but for `values`."""
    form = table.first_form(seat, command)
    assert form is not None, f"{seat}'s screen shows no {command} form"
    data = fill(form, table.rng, table.typist)
    data.update(values)
    table.tap(seat, form, data)


@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("plant", ["as built", "aliases off"])
def test_the_harness_sees_a_trooper_under_a_marker_or_a_mask_named_to_the_opponent(
    plant, settings, monkeypatch
):
    """HD-C3 + RT-5 and HE-9: Alice's hidden Camouflage trooper goes down as
    a marker and her HoloMask trooper shows a masked type. As built nobody
    else reads their names; with the aliases switched off in player_view and
    log_for the harness must report both."""
    from tracker.rules import visibility

    settings.PASSWORD_HASHERS = FAST_PINS
    if plant != "as built":
        monkeypatch.setattr(visibility, "aliases", lambda state, viewer: {})
        monkeypatch.setattr(visibility, "alias_for", lambda state, trooper, viewer: None)
    table = Table(random.Random(11), Typist(f"{next(_tags):05d}"), "A")
    lists = {"A": ["hd_camo", "mask", "lieutenant"], "B": ["plain", "lieutenant"]}

    async def scenario():
        run = sync_to_async(lambda fn, *args, **kw: fn(*args, **kw))
        await run(table.create)
        await table.connect()
        steps = [(table.add_trooper, seat, kind) for seat in "AB" for kind in lists[seat]]
        steps += [(table.tap_first, seat, "LockArmyList") for seat in "AB"]
        for step in steps:
            await run(*step)
            await table.settle()
        await run(_tap, table, "A", "SetInitiative", first_turn="A", deploys_first="A")
        await table.settle()
        for seat in "AB":
            await run(_tap, table, seat, "SealDeployment", reserve="")
            await table.settle()
        for _ in range(5):  # Order Count, TM-S2's moment, Tactical, Impetuous
            await run(table.to_orders)
            await table.settle()
        state = await run(lambda: load_state(Match.objects.get(pk=table.match.pk)))
        ninja = next(t for t in state.troopers.values() if t.hidden)
        await run(
            _tap, table, "A", "DeclareSkill", trooper_id=ninja.id, skill="move", as_marker="1"
        )
        await table.settle()
        await run(table.finale)
        await table.close()

    async_to_sync(scenario)()
    state = load_state(Match.objects.get(pk=table.match.pk))
    assert any(t.marker for t in state.troopers.values()), "the marker went down"
    assert any(s.kind == "holomask_type" for s in state.secrets.values()), "a mask was sealed"
    found = leaks_in(table)
    if plant == "as built":
        assert found == []
    else:
        assert any("trooper under a marker" in f for f in found), found[:3]
        assert any("renamed trooper's true name" in f for f in found), found[:3]
        assert any("(frame)" in f for f in found) and any("export.json" in f for f in found)


# ------------- every registered kind's trooper link, planted, is reported (#20)

# Kinds sealed with the deployment whose link to a trooper is itself secret,
# read from the registry: a kind added later is planted here without a line.
LINKED_KINDS = sorted(
    k.kind for k in SECRET_KINDS.values() if k.seal is not None and not k.trooper_public
)
LINK_TABLE = {"A": ["hd_he", "mask", "lieutenant"], "B": ["hd", "mask", "plain"]}


def _plant_link(monkeypatch, kind: str) -> None:
    """Every viewer receives the trooper id of every secret of `kind`,
    beside the secret, and the secret itself whatever its existence: the
    Data Tracker leak of issue 20, for any kind."""
    from tracker.rules import visibility

    trooper_of, visible = visibility._secret_trooper, visibility.secret_visible
    monkeypatch.setattr(
        visibility,
        "_secret_trooper",
        lambda s, open_, known: subject_of(s) if s.kind == kind else trooper_of(s, open_, known),
    )
    monkeypatch.setattr(visibility, "secret_visible", lambda s, v: s.kind == kind or visible(s, v))


@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("kind", [*LINKED_KINDS, TOY])
@pytest.mark.parametrize("planted", [False, True])
def test_the_harness_reports_the_trooper_of_any_registered_kind_named_to_the_opponent(
    kind, planted, settings, monkeypatch
):
    """With a kind's trooper link planted in the read path, the harness
    reports it for that kind, from the registry alone (TOY is registered by
    this test, as a new rule module would be); as built, nothing."""
    settings.PASSWORD_HASHERS = FAST_PINS
    with contextlib.ExitStack() as stack:
        if kind == TOY:
            stack.enter_context(toy_kind())
        if planted:
            _plant_link(monkeypatch, kind)
        found, sealed, public = [], 0, True
        for seed in range(8):  # until one match sealed the kind (a reserve is optional)
            cache.clear()
            table = Table(random.Random(seed), Typist(f"{next(_tags):05d}"), "A", classified=False)
            async_to_sync(play)(table, LINK_TABLE, 2)
            state = load_state(Match.objects.get(pk=table.match.pk))
            mine = [s for s in state.secrets.values() if s.kind == kind and not s.revealed]
            sealed += len(mine)
            public = public and all(s.existence_public for s in mine)
            found += leaks_in(table)
            if sealed:
                break
    assert sealed, f"no {kind} was sealed (and kept sealed) in these matches"
    if not planted:
        assert found == [], found[:5]
        return
    assert any(f"{kind} " in f for f in found), (kind, found[:5])
    if public:
        # Its existence is public (a fingerprint): no canary of it is
        # closed, only the structural check of its link can see the leak.
        assert any(f"the trooper of sealed {kind} " in f for f in found), (kind, found[:5])


# ---------- a player's own published words are not a leak (CL-5's proof)


def _proof_naming_the_mask(table: Table, writer: str) -> None:
    """Alice has a HoloMask trooper (HE-9), both players hold Classified
    Objectives (CL-3); in the Orders Phase `writer` accomplishes one with
    the id of Alice's HoloMask seal as its proof, all through the forms each
    phone shows."""

    async def scenario():
        run = sync_to_async(lambda fn, *args, **kw: fn(*args, **kw))
        await run(table.create)
        await table.connect()
        for step in table.set_up({"A": ["mask"], "B": ["plain"]}, to_orders=True):
            await run(*step)
            await table.settle()
        state = await run(lambda: load_state(Match.objects.get(pk=table.match.pk)))
        assert state.phase == "playing"
        mask = next(s for s in state.secrets.values() if s.kind == "holomask_type")
        await run(_tap, table, writer, "AccomplishClassified", proof=mask.id)
        await table.settle()
        await run(table.finale)
        await table.close()

    async_to_sync(scenario)()


@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("planted", [False, True])
@pytest.mark.parametrize("writer", ["A", "B"])
def test_a_secret_id_written_as_a_classified_proof_is_the_writer_speaking_not_a_leak(
    writer, planted, settings, monkeypatch
):
    """The rare failure of the random run: tamper() hands a player (with
    devtools) the id of Alice's HoloMask seal, whose very existence is
    private (HE-9), and the player posts it as the proof of a Classified
    Objective. CL-5 shows the proof on both phones as written, so the
    opponent and the spectator read the id: the player's words (its owner's
    choice, or what the harness told a player who could not know it), not
    anything the server let out of the seal. As built nothing is reported;
    with the owner's view of every secret planted in the read path, the
    seal still is, in the very frames that carry the proof."""
    from tracker.rules import visibility

    settings.PASSWORD_HASHERS = FAST_PINS
    if planted:
        plant_in_read_path(monkeypatch, "sealed payloads shown")
        monkeypatch.setattr(visibility, "secret_visible", lambda s, v: True)
    cache.clear()
    table = Table(random.Random(3), Typist(f"{next(_tags):05d}"), "A", classified=True)
    _proof_naming_the_mask(table, writer)
    state = load_state(Match.objects.get(pk=table.match.pk))
    mask = next(s for s in state.secrets.values() if s.kind == "holomask_type")
    events = MatchEvent.objects.filter(match=table.match, kind="ClassifiedAccomplished")
    assert [json.loads(d)["proof"] for d in events.values_list("data", flat=True)] == [mask.id]
    proof_seq = events.get().seq
    match = Match.objects.get(pk=table.match.pk)
    assert published_words(match, table.recorder.received) == {mask.id: proof_seq}
    found = leaks_in(table)
    if not planted:
        assert found == [], found[:3]
        return
    mine = [f for f in found if f"holomask_type {mask.id} of A" in f]
    assert any(f.startswith(f"B at seq {proof_seq} (frame)") for f in mine), found[:5]
