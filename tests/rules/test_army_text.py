"""Reading the army builder's copied text (tracker/army_text.py). The samples
are written here in the builder's shape; no database."""

from __future__ import annotations

from tracker.army_text import parse
from tracker.rules.state import HIDDEN_DEPLOYMENT, LIEUTENANT_CANDIDATE

TWO_GROUPS = """\
Military Orders
Montesa Tournament – Ronda 1
──────────────────────────────────────────────────

GROUP 1 10 1

KNIGHT OF MONTESA (Lieutenant) Spitfire / Pistol, CCW. (1 | 37)
FATHER-KNIGHT (Fireteam: Haris, Holoprojector, Lt. Order) Combi Rifle, Light Shotgun / Pistol. (0 | 44)
TRINITARIAN (Hacker, Killer Hacking Device) Submachine Gun / Pistol, Knife. (0 | 27)
CROC MEN (Hidden Deployment, Camouflage) Sniper Rifle / Pistol, Knife. (1.5 | 30)
FUSILIER Combi Rifle / Pistol, Knife. (0 | 10)

GROUP 2 3

PEACEMAKER (Engineer) Combi Rifle + Flammenspeer / Pistol. (0 | 14)
MÚLTIPLO ÁNGEL (Doctor) Submachine Gun, Zapper. (0,5 | 19)
NAÏVE JEANNE D'ARC (Courage) Spitfire / Pistol, AP CCW. (1 | 42)

https://infinitythegame.com/army/list/abc123
"""


def test_two_groups_with_options_and_accents():
    parsed = parse(TWO_GROUPS)
    assert parsed.problems == ()
    assert parsed.faction == "Military Orders"
    assert parsed.name == "Montesa Tournament – Ronda 1"
    names = [row.name for row in parsed.rows]
    assert names == [
        "Knight Of Montesa",
        "Father-Knight",
        "Trinitarian",
        "Croc Men",
        "Fusilier",
        "Peacemaker",
        "Múltiplo Ángel",
        "Naïve Jeanne D'arc",
    ]
    assert [row.cost for row in parsed.rows] == [37, 44, 27, 30, 10, 14, 19, 42]
    assert [row.combat_group for row in parsed.rows] == [1, 1, 1, 1, 1, 2, 2, 2]
    assert parsed.points == 223
    assert parsed.rows[0].traits == (LIEUTENANT_CANDIDATE,)
    assert parsed.rows[1].options == (
        "Fireteam: Haris",
        "Holoprojector",
        "Lt. Order",
    )
    assert HIDDEN_DEPLOYMENT in parsed.rows[3].traits
    assert parsed.rows[3].swc == "1.5" and parsed.rows[6].swc == "0.5"
    assert parsed.ok


def test_a_line_it_cannot_read_is_given_back_with_its_reason():
    text = TWO_GROUPS.replace(
        "FUSILIER Combi Rifle / Pistol, Knife. (0 | 10)",
        "FUSILIER Combi Rifle / Pistol, Knife. 0 10",
    ).replace("(0 | 14)", "(0 | 450)")
    parsed = parse(text)
    assert not parsed.ok
    bad = {problem.line: problem for problem in parsed.problems}
    assert set(bad) == {11, 15}
    assert bad[11].text.startswith("FUSILIER") and "(SWC | points)" in bad[11].reason
    assert bad[15].params == {"low": 0, "high": 200}
    # Everything else still reads: the caller decides to import nothing.
    assert len(parsed.rows) == 6


def test_a_list_over_the_limit_reads_and_says_its_total():
    text = "Ariadna\nToo big\nGROUP 1\n" + "".join(
        f"CHASSEUR {i} (Hidden Deployment) Rifle. (0 | 45)\n" for i in range(8)
    )
    parsed = parse(text)
    assert parsed.ok and parsed.points == 360  # the limit is checked by the match


def test_totals_lines_are_skipped_and_stray_lines_are_problems():
    text = "Yu Jing\nImperial Service\n300 points | 6 SWC\nGROUP 1\nZHANSHI Rifle. (0 | 9)\nhello\n"
    parsed = parse(text)
    assert [p.line for p in parsed.problems] == [6]
    assert [row.name for row in parsed.rows] == ["Zhanshi"]


def test_a_group_holds_at_most_ten():
    text = "PanOceania\nBig group\nGROUP 1\n" + "FUSILIER Rifle. (0 | 10)\n" * 11
    parsed = parse(text)
    assert len(parsed.rows) == 10
    assert [p.line for p in parsed.problems] == [14]


def test_empty_or_foreign_text_imports_nothing():
    assert not parse("").ok
    assert not parse("just some words\nand more\n").ok
    assert not parse("x" * 30_000).ok
