"""The leak checker's readings, on bytes written out: a canary is found in
every form a page or frame could give it, a position in any notation, and a
row set apart from the others. The harness plants the same leaks through the
real views (test_leak_harness.py)."""

from __future__ import annotations

import base64

import pytest

from .leaks import Readings, Received, Sealed, leaks, position_in, row_structure

WORD = "Hiddencnry00042007"
ID = "a1b2c3d4e5f6"


@pytest.mark.parametrize(
    "page",
    [
        f"<p>{WORD}</p>",
        f"<p>{WORD.upper()}</p>",
        f"<p>{ID.upper()}</p>",
        f"<p>{WORD[:6]}<b></b>{WORD[6:]}</p>",
        f'<p>{WORD[:4]}<span class="x">{WORD[4:9]}</span>{WORD[9:]}</p>',
        "<p>" + "".join(f"&#{ord(c)};" for c in WORD) + "</p>",
        "<p>&lt;" + WORD + "&gt;</p>",
        '{"name": "' + WORD[:3] + f"\\u{ord(WORD[3]):04x}" + WORD[4:] + '"}',
        '<div data-x="' + base64.b64encode(f"name={WORD}".encode()).decode() + '"></div>',
        base64.urlsafe_b64encode(f"<p>{ID} {WORD}</p>".encode()).decode().rstrip("="),
    ],
    ids=[
        "plain",
        "uppercased word",
        "uppercased id",
        "split by markup",
        "split by a span",
        "HTML character references",
        "HTML escaped",
        "JSON escape",
        "base64 attribute",
        "base64 body",
    ],
)
def test_a_canary_is_found_however_the_page_carries_it(page):
    readings = Readings.of(page.encode())
    assert readings.find(WORD) is not None or readings.find(ID) is not None


def test_nothing_is_found_where_the_canary_is_not():
    page = f"<p>{WORD[:-1]}X and {ID[:-1]}0, " + base64.b64encode(b"nothing").decode() + "</p>"
    readings = Readings.of(page.encode())
    assert readings.find(WORD) is None and readings.find(ID) is None


@pytest.mark.parametrize(
    "notation",
    [
        '<circle cx="450" cy="1075" r="30"/>',
        '<circle cy="1075" r="30" cx="450"/>',
        '<div style="left: 37.5%; top: 89.58%"></div>',
        '{"x": 450, "y": 1075}',
        '{"y": 1075.0, "x": 450.00}',
        "at (4.5e2, 1.075e3)",
        "x=0.375 y=0.8958",
    ],
)
def test_a_position_is_found_in_any_notation(notation):
    assert position_in(Readings.of(notation.encode()).marked[0], (450.0, 1075.0))


@pytest.mark.parametrize(
    "page",
    [
        '<circle cx="450" cy="1074" r="30"/>',  # one off
        "Survivors: 450 of 900 points, event #1075",  # an event number is no coordinate
        "450 " + "x" * 100 + " 1075",  # too far apart
        '<rect x="0" y="0" width="1200" height="300"/>',
    ],
)
def test_numbers_that_are_not_the_position_are_not_reported(page):
    assert position_in(page, (450.0, 1075.0)) is None


def row(trooper_id, name, extra_class="", extra=""):
    return (
        f'<li class="trooper{extra_class}" id="trooper-{trooper_id}">'
        f'<button class="name">{name}</button>{extra} <small>20 G1</small></li>'
    )


def seat_block(*rows):
    return f'<section id="blk-seat_A" class="block seat"><ul class="troopers">{"".join(rows)}</ul></section>'


LIEUTENANT = Sealed(
    id="s1",
    seat="A",
    kind="lieutenant",
    revealed_at=None,
    revealed_rule=None,
    canaries=set(),
    subject="aaaaaaaaaaaa",
)


@pytest.mark.parametrize(
    ("lieutenant_row", "reported"),
    [
        (row("aaaaaaaaaaaa", "Kaplan"), False),
        (row("aaaaaaaaaaaa", "Kaplan", extra='<span class="badge">Prone</span>'), False),
        (row("aaaaaaaaaaaa", "Kaplan", extra_class=" lieutenant"), True),
        (row("aaaaaaaaaaaa", "Kaplan", extra="<span>★</span>"), True),
        (row("aaaaaaaaaaaa", "Kaplan", extra='<span class="badge">Lieutenant</span>'), True),
    ],
    ids=["as built", "a public token", "a class", "a star", "a badge"],
)
def test_the_lieutenants_row_must_look_like_any_other(lieutenant_row, reported):
    page = seat_block(row("bbbbbbbbbbbb", "Fusilier"), lieutenant_row)
    received = [Received("B", 9, "GET /m/x/", page.encode())]
    problems = row_structure(received, [LIEUTENANT])
    assert bool(problems) == reported, problems
    # Its owner may see it set apart; so may anyone once it is revealed.
    assert row_structure([Received("A", 9, "GET /m/x/", page.encode())], [LIEUTENANT]) == []


def test_leaks_reports_a_canary_in_a_transformed_form_and_spares_the_owner():
    secret = Sealed(
        id="s2",
        seat="A",
        kind="hd_position",
        revealed_at=20,
        revealed_rule="HD-C2",
        canaries={WORD},
        position=(450.0, 1075.0),
    )
    upper = f"<p>{WORD.upper()}</p>".encode()
    moved = b'<div style="left: 37.5%; top: 89.58%"></div>'
    received = [
        Received("B", 5, "frame", upper),
        Received("spectator", 6, "frame", moved),
        Received("A", 7, "frame", upper + moved),  # the owner
        Received("B", 21, "frame", upper + moved),  # after the reveal
    ]
    found = leaks(received, [secret], [])
    assert len(found) == 2, found
    assert found[0].startswith("B at seq 5 (frame): hd_position s2 of A")
    assert found[1].startswith("spectator at seq 6 (frame): position of hd_position s2")


def test_a_canary_inside_words_a_player_published_is_theirs_and_nothing_else_is_spared():
    """CL-5 shows a proof as its player wrote it: a secret id typed into it
    (tamper() hands players every id) reaches the opponent as the writer's
    words, from the proof's seq on. Only that text is taken out: the same id
    in markup, another canary beside it, the id before the proof was
    published, and the id when nothing was published are still reported."""
    mask = Sealed(
        id=ID,
        seat="A",
        kind="holomask_type",
        revealed_at=None,
        revealed_rule=None,
        canaries={ID, "f00dfeedf00dfeedf00dfeedf00dfeed"},
    )
    proof = f"Alice accomplished the Classified Objective Telemetry (1 OP): {ID.upper()}"
    line = f"<li>{proof} <span>CL-5</span></li>".encode()
    received = [
        Received("B", 8, "frame", line),
        Received("spectator", 9, "GET /m/x/export.json", f'{{"proof": "{ID}"}}'.encode()),
        Received("B", 8, "frame", line + f'<li id="secret-{ID}"></li>'.encode()),
        Received("B", 8, "frame", line + b"<code>f00dfeedf00dfeedf00dfeedf00dfeed</code>"),
        Received("B", 7, "frame", f"<p>{ID}</p>".encode()),
    ]
    found = leaks(received, [mask], [], published={ID: 8})
    assert [f.split(" -> ")[0] for f in found] == [
        f"B at seq 8 (frame): holomask_type {ID} of A",
        f"B at seq 8 (frame): holomask_type {ID} of A",
        f"B at seq 7 (frame): holomask_type {ID} of A",
    ], found
    assert "secret-" in found[0] and "f00dfeed" in found[1]
    assert len(leaks(received[:2], [mask], [])) == 2  # nothing published: both reported
