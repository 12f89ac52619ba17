"""The render cache's bookkeeping where a whole match played through the
pages does not reach it (mutation testing of rendering.py's splice path and
tracker_tags' memos): a block showing a part its viewer can no longer have,
the shapes kept by digest for the pushes, and the rows' memos."""

from __future__ import annotations

from collections import OrderedDict

import pytest

from tracker import rendering
from tracker.templatetags.tracker_tags import Memo


def row(n: int, text: str) -> tuple[str, tuple, str]:
    return (f"trooper-{n}", ("row", n, text), f'<li class="trooper" id="trooper-{n}">{text}</li>')


def seat_block(rows) -> str:
    ul = rendering.PLACEHOLDER * len(rows)
    skeleton = f'<section id="blk-seat_A"><h2>Alice</h2><ul>{ul}</ul></section>'
    return rendering._finish(rendering.Shape(skeleton, tuple(rows)))


def fresh(rows) -> dict:
    return {ident: (inputs, lambda html=html: html) for ident, inputs, html in rows}


def test_a_seat_showing_a_trooper_its_viewer_no_longer_has_is_rendered_whole():
    """rendering._splice keeps a block whose skeleton input is unchanged and
    renders again only the rows whose input changed; a row the viewer can no
    longer have (a trooper gone from its view) has no place to be spliced
    out of a skeleton, so the block must be rendered whole (None). Kept, the
    opponent would go on reading a trooper that is no longer on the table,
    whether or not any other row changed."""
    kaplan, bolt = row(1, "Kaplan"), row(2, "Bolt")
    shown = seat_block([kaplan, bolt])
    shape = rendering.shape_of(shown)
    assert rendering._splice(shown, shape, fresh([kaplan])) is None
    assert rendering._splice(shown, shape, fresh([row(1, "Kaplan (Prone)")])) is None
    # Every row still there: the very block, or the changed row spliced in.
    assert rendering._splice(shown, shape, fresh([kaplan, bolt]))[0] is shown
    spliced, _shape = rendering._splice(shown, shape, fresh([row(1, "Kaplan (Prone)"), bolt]))
    assert '<li class="trooper" id="trooper-1">Kaplan (Prone)</li>' in spliced


def test_a_shape_a_push_asks_for_is_kept_as_the_newest(monkeypatch):
    """The shapes kept by digest (rendering._shapes) are what a push
    compares a phone's block with, to send only the trooper rows that
    changed rather than the whole block (which wipes what the player is
    typing in it). shape_of, the pushes' lookup, makes the shape it finds
    the newest again, so a block phones are shown outlives the other
    tables' renders; the shapes nobody asked for go first."""
    monkeypatch.setattr(rendering, "_shapes", OrderedDict())
    monkeypatch.setattr(rendering, "_SHAPES_SIZE", 4)
    shown = seat_block([row(1, "Kaplan")])
    for n in range(3):
        rendering._finish(rendering.Shape(f"<section>table {n}</section>", ()))
    assert rendering.shape_of(shown) is not None
    for n in range(3):
        rendering._finish(rendering.Shape(f"<section>later table {n}</section>", ()))
    assert rendering.shape_of(shown) is not None
    assert len(rendering._shapes) == 4


def test_a_row_memo_drops_the_rows_read_least_lately():
    """tracker_tags.Memo is bounded: when full it drops the row read least
    lately, not the oldest written. The rows of a match in play (its seat
    blocks' troopers, its log's lines) are read at every render of its
    viewers; dropped for being written first, they would be rendered again
    from their templates at every tap of a busy night (issue 9's cost)."""
    memo = Memo(2)
    memo.put(("kaplan",), "<li>Kaplan</li>")
    memo.put(("bolt",), "<li>Bolt</li>")
    assert memo.get(("kaplan",)) == "<li>Kaplan</li>"
    memo.put(("fusilier",), "<li>Fusilier</li>")
    assert memo.get(("kaplan",)) == "<li>Kaplan</li>"
    assert memo.get(("bolt",)) is None


def _table(first: str, second: str):
    """A table where `first` and `second` take the seats, lock the standard
    lists and `first` plays and deploys first: every table played so reads
    the same log lines, but for the players' names."""
    from .phone import Phone
    from .phone_flows import lists_locked, ok

    links = Phone().create_match(name="Twin")
    a, b = Phone(), Phone()
    a.claim(links["A"], first)
    b.claim(links["B"], second)
    lists_locked(a, b)
    ok(a, a.submit("SetInitiative", first_turn=first, deploys_first=first))
    return a, b


@pytest.mark.django_db
def test_two_tables_alike_each_read_their_own_players_names():
    """A log line's words are memoized by what they read (tracker_tags'
    line_reads: the players' names among it), and two tables that play the
    same steps have the same lines (the same seq, message and seats) but for
    those names. Carol, who plays first at the second table, must read her
    own name in its log and recent lines, not Alice's from the first."""
    _table("Alice", "Bob")
    carol, dave = _table("Carol", "Dave")
    for phone in (carol, dave):
        phone.open()
        for block in ("#blk-log", "#blk-recent"):
            words = phone.soup.select_one(block).get_text(" ", strip=True)
            assert "Initiative: Carol plays first, Carol deploys first." in words, words
            assert "Alice" not in words and "Bob" not in words, words
