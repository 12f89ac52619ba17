"""Issue 9: each viewer's blocks are rendered once per seq and language and
shared by the POST's answer and that viewer's sockets; every spectator shares
one render; a phone that has just loaded the page is not sent it again."""

from __future__ import annotations

import re
from collections import OrderedDict

import pytest
from asgiref.sync import sync_to_async
from channels.testing import WebsocketCommunicator

from tests.web.phone import Phone
from tracker import rendering
from tracker.asgi import application

pytestmark = pytest.mark.django_db(transaction=True)


def socket_of(phone: Phone, query: str = "") -> WebsocketCommunicator:
    headers = [
        (b"origin", b"http://localhost"),
        (b"host", b"localhost"),
        (b"cookie", f"sessionid={phone.app.cookies.get('sessionid', '')}".encode()),
    ]
    return WebsocketCommunicator(application, f"/ws/m/{phone.code}/{query}", headers=headers)


def shown(html: str) -> list[str]:
    return re.findall(r'<section data-h="([0-9a-f]{16})"', html)


async def drain(socket) -> list[str]:
    frames = []
    while not await socket.receive_nothing(timeout=0.3):
        frames.append(await socket.receive_from(timeout=3))
    return frames


def seated():
    links = Phone().create_match(name="Once")
    alice, bob = Phone(), Phone()
    alice.claim(links["A"], "Alice")
    bob.claim(links["B"], "Bob")
    watchers = [Phone(), Phone()]
    for watcher in watchers:
        watcher.open(alice.code)
    return alice, bob, watchers


async def test_one_render_per_viewer_for_the_answer_and_all_sockets():
    alice, bob, watchers = await sync_to_async(seated)()
    phones = [alice, bob, bob, *watchers]  # Bob has the match open twice
    sockets = [socket_of(p) for p in phones]
    for socket in sockets:
        assert (await socket.connect())[0]
        await socket.receive_from(timeout=3)
    before = dict(rendering.stats)
    await sync_to_async(alice.submit)("draft/add", name="Fusilier", cost="10")
    await sync_to_async(alice.submit)("LockArmyList")
    frames = [await drain(socket) for socket in sockets]
    assert all("Fusilier" in "".join(f) for f in frames[1:])
    renders = rendering.stats["renders"] - before["renders"]
    # Per seq: seat A (its answer, its page reload), seat B (two sockets) and
    # the spectators (two sockets) each rendered once. The draft edit is one
    # more render for A (the draft is outside the log, no seq), and
    # Phone.submit reloads the page, which must hit the cache.
    seqs = len({re.search(r'data-seq="(\d+)"', f).group(1) for got in frames for f in got})
    assert renders <= 3 * seqs + 1, (renders, seqs)
    for socket in sockets:
        await socket.disconnect()


async def test_a_push_reads_the_seats_once_for_all_the_sockets_of_its_match(monkeypatch):
    """Issue 18: the match's sockets in a process push the same seq at once;
    one read of its seats (and the match) serves them all, not one each.
    Four sockets (two seats, two spectators), two seqs (Alice locks her
    list, then Bob his). The read is made slow, so that the pushes' threads
    do overlap: one reads, the others wait for it and use it; the second
    seq's read replaces the first's."""
    import time

    from tracker import consumers
    from tracker.models import Match

    from .test_each_push_reaches_its_seq import _frames_until

    alice, bob, watchers = await sync_to_async(seated)()
    sockets = [socket_of(p) for p in (alice, bob, *watchers)]
    for socket in sockets:
        assert (await socket.connect())[0]
        await socket.receive_from(timeout=3)
    reads = []
    read = consumers._seat_rows

    def slow(match_id):
        reads.append(match_id)
        time.sleep(0.5)  # long enough for the other threads to ask meanwhile
        return read(match_id)

    monkeypatch.setattr(consumers, "_seat_rows", slow)
    for tapper, (phone, trooper) in enumerate(((alice, "Fusilier"), (bob, "Hassassin Ayyar"))):
        reads.clear()
        await sync_to_async(phone.submit)("draft/add", name=trooper, cost="10")
        await sync_to_async(phone.submit)("LockArmyList")
        newest = await sync_to_async(lambda: Match.objects.get().seq)()
        frames = [await _frames_until(socket, newest) for socket in sockets]
        others = [got for n, got in enumerate(frames) if n != tapper]
        assert all(trooper in "".join(got) for got in others)
        assert len(reads) == 1, reads
    for socket in sockets:
        await socket.disconnect()


async def test_the_first_frame_does_not_repeat_the_page_just_loaded():
    alice, _bob, _watchers = await sync_to_async(seated)()
    page = await sync_to_async(lambda: alice.open().text)()
    digests = shown(page)
    assert len(digests) == len(rendering.BLOCKS)
    socket = socket_of(alice, "?h=" + ".".join(digests))
    assert (await socket.connect())[0]
    first = await socket.receive_from(timeout=3)
    assert 'id="seq"' in first and "<section" not in first
    await socket.disconnect()
    # A page one block behind gets exactly that block.
    socket = socket_of(alice, "?h=" + ".".join(digests[1:]))
    assert (await socket.connect())[0]
    first = await socket.receive_from(timeout=3)
    assert first.count("<section ") == 1 and f'data-h="{digests[0]}"' in first
    await socket.disconnect()


async def test_a_claimed_digest_never_adds_anything_to_a_frame():
    """The digests only leave blocks out: a spectator naming Alice's digests
    still gets the spectator's blocks, never Alice's."""
    alice, _bob, watchers = await sync_to_async(seated)()
    await sync_to_async(alice.submit)("draft/add", name="Canary-draft-77", cost="10")
    alices = shown(alice.html)
    socket = socket_of(watchers[0], "?h=" + ".".join(alices))
    assert (await socket.connect())[0]
    first = await socket.receive_from(timeout=3)
    assert "Canary-draft-77" not in first and "<section" in first
    await socket.disconnect()


def test_a_block_goes_as_parts_only_when_nothing_but_parts_changed():
    """Issue 18: the parts to send are those that changed (each trooper row
    is rendered from its own input and compared as a whole), never found by
    parsing HTML; a change anywhere else sends the whole block."""

    def make(title, rows):
        parts = tuple(
            (f"trooper-{n}", ("row", text), f'<li class="trooper" id="trooper-{n}">{text}</li>')
            for n, text in enumerate(rows)
        )
        ul = rendering.PLACEHOLDER * len(parts)
        skeleton = f'<section id="blk-seat_A"><h2>{title}</h2><ul>{ul}</ul></section>'
        return rendering._finish(rendering.Shape(skeleton, parts))

    old = make("Alice", ["Fusilier", "Bolt"])
    assert '<li class="trooper" id="trooper-1">Bolt</li>' in old
    assert rendering.changed_parts(old, make("Alice", ["Fusilier", "Bolt (Prone)"])) == [
        '<li class="trooper" id="trooper-1">Bolt (Prone)</li>'
    ]
    assert rendering.changed_parts(old, make("Alice", ["Fusilier", "Bolt"])) == []
    assert rendering.changed_parts(old, make("Alice, active", ["Fusilier", "Bolt"])) is None
    assert rendering.changed_parts(old, make("Alice", ["Fusilier"])) is None
    frame = rendering.oob_frame(
        {"seat_A": make("Alice", ["Fusilier", "Bolt (Prone)"])},
        7,
        {"seat_A": ['<li class="trooper" id="trooper-1">Bolt (Prone)</li>']},
    )
    assert '<li hx-swap-oob="true" class="trooper" id="trooper-1">Bolt (Prone)</li>' in frame
    assert "<section" not in frame and 'data-blocks="seat_A:' in frame


def test_a_list_block_goes_as_its_new_lines_and_the_ids_of_those_gone():
    """The log holds the newest events only (reading.RECENT): a new line
    comes in at the top and the oldest drops off. The phone is sent the new
    line, added at the top of the list, and the id of the one to delete; a
    line kept whose input changed (a marker's name now known) is swapped; a
    list whose kept lines moved goes whole."""

    def make(lines):
        parts = tuple(
            (f"log-{n}", ("log", n, text), f'<li id="log-{n}">{text}</li>') for n, text in lines
        )
        skeleton = f'<section id="blk-log"><ol id="log-list">{rendering.PLACEHOLDER}</ol></section>'
        return rendering._finish(rendering.Shape(skeleton, parts, listed="log-list"))

    old = make([(3, "c"), (2, "b"), (1, "a")])
    assert '<ol id="log-list"><li id="log-3">c</li><li id="log-2">b</li>' in old
    assert rendering.changed_parts(old, make([(4, "d"), (3, "c"), (2, "B")])) == [
        '<li id="log-1" hx-swap-oob="delete"></li>',
        '<li hx-swap-oob="true" id="log-2">B</li>',
        '<ol hx-swap-oob="afterbegin:#log-list"><li id="log-4">d</li></ol>',
    ]
    assert rendering.changed_parts(old, make([(3, "c"), (2, "b"), (1, "a")])) == []
    assert rendering.changed_parts(old, make([(3, "c"), (4, "d"), (2, "b")])) is None
    assert rendering.changed_parts(old, make([(2, "b"), (3, "c")])) is None


def test_a_new_line_renders_one_part_not_the_log():
    """Issue 18: a State tap adds one line to the log and the recent lines:
    that line is rendered (twice: once for each block), not the blocks."""
    from tests.web.phone_flows import started

    a, _b, _ids = started()
    kaplan = a.trooper_id("Kaplan")
    a.open()
    before = dict(rendering.stats)
    _tap_unreloaded(a, "SetTrooperState", trooper_id=kaplan, condition="normal", tokens=["prone"])
    assert a.error is None
    # Seat A's row, the Undo part, the new line in the log and in recent,
    # and the log's line it pushes down if of the same minute (which then
    # leaves its time to the new line: tracker_tags.log_lines).
    assert rendering.stats["blocks"] - before["blocks"] == 0
    assert rendering.stats["parts"] - before["parts"] <= 5


def test_an_answer_carries_only_what_changed_for_a_phone_that_names_its_blocks():
    """A tap names the blocks the page shows (X-Tracker-Shown, as app.js
    sends it): the answer leaves out those that did not change and sends a
    seat where only a trooper's row changed as that row, with the block's
    new digest noted on the seq marker. The same tap from a page that names
    nothing (an older app.js) gets every block."""
    from tests.web.phone_flows import started

    a, _b, _ids = started()
    digests = shown(a.open().text)
    assert len(digests) == len(rendering.BLOCKS)
    kaplan = a.trooper_id("Kaplan")  # Alice's own trooper, in seat A's block
    answer = a.submit("SetTrooperState", trooper_id=kaplan, condition="normal", tokens=["prone"])
    assert sorted(answer.request.headers["X-Tracker-Shown"].split(".")) == sorted(digests)
    body = answer.text
    assert body.count('<li hx-swap-oob="true" class="trooper') == 1
    assert f'id="trooper-{kaplan}"' in body
    assert 'id="blk-seat_A"' not in body and 'id="blk-header"' not in body
    note = re.search(r'data-blocks="([^"]*)"', body).group(1)
    noted = dict(pair.split(":") for pair in note.split(","))
    # Alice may undo now: the controls go as their Undo part only; the log
    # and the recent lines as their new line, added at the top.
    assert set(noted) <= {"seat_A", "controls", "log", "recent"} and "seat_A" in noted
    assert 'id="blk-log"' not in body and 'id="blk-recent"' not in body
    assert body.count('<ol hx-swap-oob="afterbegin:#log-list">') == 1
    assert body.count('<ol hx-swap-oob="afterbegin:#recent">') == 1
    digest = noted["seat_A"]
    # The page after the tap shows the seat block with the digest noted.
    assert f'<section data-h="{digest}" id="blk-seat_A"' in a.html

    a.names_blocks = False
    answer = a.submit("SetTrooperState", trooper_id=kaplan, condition="normal", tokens=[])
    assert "X-Tracker-Shown" not in answer.request.headers
    assert all(f'id="blk-{name}"' in answer.text for name in rendering.BLOCKS)


def _tap_unreloaded(phone: Phone, command: str, **values):
    """Tap a rendered form without reloading the page after (a reload is a
    render of its own)."""
    rendered = phone.form(command, **values)
    rendered.fill(values)
    return phone.send(rendered, reload=False)


def test_a_tap_refused_as_late_renders_nothing_and_reads_no_log():
    """Issue 18: a tap past its deadline (tracker/taps.py) is answered with
    its refusal alone: no block of the viewer rendered, no event read. A
    process behind on its work must not spend a render on every tap nobody
    waits for any more."""
    import time

    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    from tests.web.phone_flows import started

    a, _b, _ids = started()
    kaplan = a.trooper_id("Kaplan")
    a.open()
    a.tap_deadline_ms = int(time.time() * 1000) - 1
    before = dict(rendering.stats)
    with CaptureQueriesContext(connection) as queries:
        answer = _tap_unreloaded(
            a, "SetTrooperState", trooper_id=kaplan, condition="normal", tokens=["prone"]
        )
    assert a.error is not None and a.error.startswith("Not saved"), a.error
    assert "<section" not in answer.text
    assert rendering.stats["renders"] == before["renders"]
    assert rendering.stats["blocks"] == before["blocks"]
    reads = [q["sql"] for q in queries.captured_queries if '"data"' in q["sql"]]
    assert not reads, reads


def test_a_state_tap_renders_only_the_blocks_it_touches():
    """Issue 18 (LiveView's change tracking): a trooper's State tap changes
    that trooper's row and adds a log line; the controls (the costliest
    block), the header (its banners and rulings read no such line) and the
    other seat keep the HTML of the last render, since their inputs did not
    change."""
    from tests.web.phone_flows import started

    a, _b, _ids = started()
    kaplan = a.trooper_id("Kaplan")
    a.open()
    controls = re.search(r'<section data-h="([0-9a-f]{16})" id="blk-controls"', a.html).group(1)
    seat_b = re.search(r'<section data-h="([0-9a-f]{16})" id="blk-seat_B"', a.html).group(1)
    before = dict(rendering.stats)
    answer = _tap_unreloaded(
        a, "SetTrooperState", trooper_id=kaplan, condition="normal", tokens=["prone"]
    )
    assert a.error is None
    assert rendering.stats["renders"] - before["renders"] == 1
    assert rendering.stats["blocks"] - before["blocks"] <= 4
    assert rendering.stats["reused"] - before["reused"] >= 2
    a.open()
    assert "Prone" in [el.get_text() for el in a.soup.select(f"#trooper-{kaplan} > .badge")]
    assert f'<section data-h="{controls}" id="blk-controls"' in a.html or "undo" in answer.text
    assert f'<section data-h="{seat_b}" id="blk-seat_B"' in a.html


def test_a_state_tap_s_tokens_ask_the_rules_for_no_offer_again(monkeypatch):
    """Issue 18 (tracker/rules/kept_offers.py): the state a Prone tap
    leaves steps from the cached one, sharing every part it did not change,
    so both players' offers are found kept rather than asked of the
    handlers again, but for the Command Token uses that read tokens (TM-E2,
    TM-T3); a tap that changes what the offers read (a trooper falls
    Unconscious) asks them again. Through the views and the render cache
    (the test client, not `serve`), each tap from a form the phone was sent."""
    from tests.web.phone_flows import started
    from tracker import reading
    from tracker.models import Match
    from tracker.rules import kept_offers, token_offers
    from tracker.rules.twins import named_elsewhere

    asked: list[str] = []
    kept_answer = kept_offers.kept_answer

    def recorded(state, seat, question, fields, ask):
        def counted():
            asked.append(question)
            return ask()

        return kept_answer(state, seat, question, fields, counted)

    monkeypatch.setattr(kept_offers, "kept_answer", recorded)
    monkeypatch.setattr(token_offers, "kept_answer", recorded)
    a, b, _ids = started()
    # A trooper no secret or Order names (a named one is compared whole).
    state = reading.load_state(Match.objects.get(code=a.code))
    named = named_elsewhere(state)
    tapper, other, trooper = next(
        (phone, watcher, t.id)
        for phone, watcher, letter in ((a, b, "A"), (b, a, "B"))
        for t in state.troopers_of(letter)
        if not named(t.id)
    )
    tapper.open()
    other.open()
    asked.clear()
    _tap_unreloaded(
        tapper, "SetTrooperState", trooper_id=trooper, condition="normal", tokens=["prone"]
    )
    assert tapper.error is None
    other.open()
    assert set(asked) <= {"TM-E2", "TM-T3"}, asked
    tapper.open()
    _tap_unreloaded(tapper, "SetTrooperState", trooper_id=trooper, condition="unconscious")
    assert tapper.error is None
    assert "declarations" in asked


def test_undo_moving_to_the_other_player_sends_its_own_part_not_the_controls():
    """ "Undo my last change" moves to whoever changed something last: that
    player's answer carries the Undo form as a part of its own, swapped by
    its id, and the controls around it are not sent again; the form is one
    the phone can tap."""
    from tests.web.phone_flows import ok, started

    a, b, _ids = started()
    bolt = b.trooper_id("Bolt")
    b.open()
    assert not b.can("UndoLastStep")
    answer = _tap_unreloaded(
        b, "SetTrooperState", trooper_id=bolt, condition="normal", tokens=["prone"]
    )
    assert b.error is None
    assert '<div hx-swap-oob="true" id="undo"' in answer.text
    assert 'id="blk-controls"' not in answer.text
    note = re.search(r'data-blocks="([^"]*)"', answer.text).group(1)
    assert "controls:" in note
    b.open()
    assert b.can("UndoLastStep")
    ok(b, b.submit("UndoLastStep"))
    badges = [el.get_text() for el in b.soup.select(f"#trooper-{bolt} > .badge")]
    assert "Prone" not in badges, badges


def test_a_tap_costs_a_bounded_number_of_queries():
    """Issue 18: the queries of one State tap, answer included, are counted
    (a count, never a time): the session, the match with its seats, the
    write path's lock, dedup check and writes; nothing read back after."""
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    from tests.web.phone_flows import started

    a, _b, _ids = started()
    kaplan = a.trooper_id("Kaplan")
    a.open()
    with CaptureQueriesContext(connection) as queries:
        _tap_unreloaded(
            a, "SetTrooperState", trooper_id=kaplan, condition="normal", tokens=["prone"]
        )
    assert a.error is None
    assert len(queries.captured_queries) <= MAX_QUERIES_PER_TAP, [
        q["sql"][:120] for q in queries.captured_queries
    ]


# The match (by code) with its seats, the session; the write path's
# transaction (BEGIN, lock the match, the action id's repeat check, the
# events, the match row, COMMIT). Not the match row again nor the events
# just written: the write path hands both on (actions.Outcome.row,
# reading.written).
MAX_QUERIES_PER_TAP = 8


@pytest.mark.parametrize("language", ["en", "es"])
def test_a_whole_match_shows_what_a_render_from_scratch_would(language, monkeypatch):
    """Issue 18's safety net for the input views (tracker/block_inputs.py):
    through a whole match (every phase, Command Tokens, markers, Holoechoes,
    Retreat!, Classified Objectives, the result), every render that kept a
    block or spliced a part is compared, block by block, with a whole render
    from scratch (rendering.CHECK raises StaleBlock on any difference), and
    blocks were kept and parts spliced along the way."""
    from tests.web.full_match import FullMatch

    monkeypatch.setattr(rendering, "CHECK", True)
    before = dict(rendering.stats)
    FullMatch(language=language).play()
    assert rendering.stats["reused"] > before["reused"]
    assert rendering.stats["parts"] > before["parts"]


def test_the_render_check_renders_rows_from_their_templates_not_their_memos(monkeypatch):
    """The check above is the safety net for the rows' memo keys too: were
    its render from scratch to read the memos, a key missing a value would
    hand it the very stale row it checks. Here every memoized log line is
    made wrong, as such a key would leave it; the check's own render must
    not show them (it compares the true blocks with a true render)."""
    from tests.web.phone_flows import started
    from tracker.models import Match, Seat
    from tracker.reading import seen_by
    from tracker.templatetags import tracker_tags

    a, _b, _ids = started()
    match = Match.objects.get(code=a.code)
    seat = Seat.objects.get(match=match, letter="A")
    seen = seen_by(match, "A")
    blocks = rendering.render_blocks(seen, seat)
    # A wrong copy, put back after the test: the memos outlive it, and a
    # later test's line under one of these keys (the first lines of a
    # match read alike at every table) was shown this text, which a test
    # checking its renders caught when pytest-xdist ran it later.
    memo = tracker_tags._log_rows
    with memo._lock:
        wrong = OrderedDict((key, "<li>not what this line says</li>") for key in memo._rows)
    monkeypatch.setattr(memo, "_rows", wrong)
    rendering._check(seen, seat, blocks)


async def test_a_block_in_use_keeps_its_shape_while_other_tables_render(monkeypatch):
    """Issue 18: a push sends a changed block as its changed parts when the
    shape of the block the socket sent is still kept (rendering._shapes, by
    digest). A block that does not change for a while (the controls through
    a run of State taps: the Undo form stays its player's) is still in use:
    each render of its viewer keeps it. Kept by when it was first rendered,
    the other tables' renders pushed it out (by arithmetic, after about a
    minute of a 150-table night; not measured), and when it did change (the
    opponent's tap takes the Undo form) the whole block went. Kept by when
    a render last kept it, it goes as the part that changed. The cache is
    made small here so that a few renders stand for a venue's."""
    from tests.web.phone_flows import started

    a, b, _ids = await sync_to_async(started)()
    socket = socket_of(a)
    assert (await socket.connect())[0]
    await drain(socket)
    monkeypatch.setattr(rendering, "_SHAPES_SIZE", 40)
    kaplan = await sync_to_async(a.trooper_id)("Kaplan")
    for n in range(5):
        # Other tables' renders between two of this table's taps.
        for other in range(28):
            rendering._finish(rendering.Shape(f"<section>table {n}-{other}</section>", ()))
        tokens = ["prone"] if n % 2 == 0 else []
        await sync_to_async(a.submit)(
            "SetTrooperState", trooper_id=kaplan, condition="normal", tokens=tokens
        )
        assert a.error is None
    await drain(socket)
    bolt = await sync_to_async(b.trooper_id)("Bolt")
    await sync_to_async(b.submit)(
        "SetTrooperState", trooper_id=bolt, condition="normal", tokens=["prone"]
    )
    assert b.error is None
    frames = "".join(await drain(socket))
    assert '<div hx-swap-oob="true" id="undo"' in frames, frames[:500]
    assert 'id="blk-controls"' not in frames


def _twin_tables(monkeypatch) -> tuple[Phone, Phone]:
    """Two tables alike (the same lists, the same State taps, every event in
    one minute): seat A's phone of each, after four taps at each."""
    from django.utils import timezone

    from tests.web.phone_flows import started
    from tracker import actions

    # Every event of both tables in one minute, no two at the same instant.
    minute = timezone.now().replace(second=1, microsecond=0)
    ticks = iter(range(1, 10**6))

    class Clock:
        @staticmethod
        def now():
            return minute + timezone.timedelta(milliseconds=97 * next(ticks))

    monkeypatch.setattr(actions, "timezone", Clock)
    tables = [started(), started()]
    for n in range(4):
        for a, _b, _ids in tables:
            tokens = ["prone"] if n % 2 == 0 else []
            kaplan = a.trooper_id("Kaplan")
            a.submit("SetTrooperState", trooper_id=kaplan, condition="normal", tokens=tokens)
            assert a.error is None
    first, twin = (a for a, _b, _ids in tables)
    return first, twin


def test_twin_tables_send_a_new_line_not_the_lines_they_both_show(monkeypatch):
    """Issue 18: two tables whose log blocks read alike (the same lists, the
    same taps, in the same minute: a venue's demo tables, make bench's
    copies of one match) render the same HTML, and one kept shape (by its
    digest) serves both. The lines' inputs differ (each table's own event
    times and trooper ids) where their HTML does not: compared by input, a
    tap at one table found every line the twin had rendered "changed" and
    sent them all again, so answers and pushes grew with the log (make
    bench: 0.8 KB an answer at first, 3 KB after 40 s)."""
    first, twin = _twin_tables(monkeypatch)
    log_of = re.compile(r'<section data-h="([0-9a-f]{16})" id="blk-log"')
    assert log_of.search(first.html).group(1) == log_of.search(twin.html).group(1)
    top = first.soup.select_one("#log-list > li")
    assert top.time is not None  # the newest line shows the minute
    answer = first.submit(
        "SetTrooperState",
        trooper_id=first.trooper_id("Kaplan"),
        condition="normal",
        tokens=["prone"],
    ).text
    assert answer.count('<ol hx-swap-oob="afterbegin:#log-list">') == 1
    # No line both tables showed is sent again (nor the block), but the one
    # the new line pushes down: of the same minute, it leaves its time to
    # the new line (tracker_tags.log_lines).
    again = re.findall(r'<li hx-swap-oob="true" id="(log-\d+)">([^<]*)', answer)
    assert again == [(top["id"], top.get_text().removeprefix(top.time.get_text() + " "))]
    assert 'id="blk-log"' not in answer
    new_top, pushed_down = first.soup.select("#log-list > li")[:2]
    assert new_top.time.get_text() == top.time.get_text() and pushed_down.time is None


def test_a_tap_at_one_of_twin_tables_renders_only_its_own_changed_parts(monkeypatch):
    """Issue 18: a render splices the previous render of its own key with the
    shapes that render kept, whose part inputs are this table's. The shape
    kept by digest (shape_of) is the last table's to render that HTML: a
    twin's, whose log lines' inputs (its own event times) differ from this
    table's everywhere, so every line it showed was rendered again (from
    its memo) on every tap."""
    first, twin = _twin_tables(monkeypatch)
    log_of = re.compile(r'<section data-h="([0-9a-f]{16})" id="blk-log"')
    assert log_of.search(first.html).group(1) == log_of.search(twin.html).group(1)
    lines = len(first.soup.select("#log-list > li"))
    assert lines >= 8
    before = rendering.stats["parts"]
    first.submit(
        "SetTrooperState",
        trooper_id=first.trooper_id("Kaplan"),
        condition="normal",
        tokens=["prone"],
    )
    assert first.error is None
    # The trooper's row, the Undo form, the new line in the log and in the
    # recent lines, and the line the new one pushes down (its time goes):
    # nothing the twin rendered in between.
    assert rendering.stats["parts"] - before <= 5, rendering.stats["parts"] - before


def test_the_log_shows_each_minute_once_on_its_newest_line():
    """tracker_tags.log_lines: reading down from the newest line, a time is
    shown where a minute starts; a line of no known time shows none."""
    from collections import namedtuple
    from datetime import UTC, datetime, timedelta

    from tracker.templatetags.tracker_tags import log_lines

    line = namedtuple("Line", "seq")
    start = datetime(2026, 12, 4, 17, 43, 5, tzinfo=UTC)
    seconds = {1: 0, 2: 20, 3: 54, 4: 70, 5: 80, 7: 200}  # 6: no time known
    times = {seq: start + timedelta(seconds=s) for seq, s in seconds.items()}
    shown = log_lines([line(seq) for seq in range(1, 8)], times)
    assert [ln.seq for ln, _when in shown] == [7, 6, 5, 4, 3, 2, 1]
    # 17:46 (7), then 17:44 (5 over 4), then 17:43 (3 over 2 and 1).
    assert {ln.seq: when for ln, when in shown if when} == {7: times[7], 5: times[5], 3: times[3]}
