"""Reading the army builder's copied text (tracker/army_text.py). The samples
are written here in the builder's shape; no database."""

from __future__ import annotations

from tracker.army_text import parse
from tracker.rules.state import (
    COURAGE,
    CUBE,
    DOCTOR,
    ENGINEER,
    FRENZY,
    HIDDEN_DEPLOYMENT,
    HOLOMASK,
    IMPETUOUS,
    IRREGULAR,
    LIEUTENANT_CANDIDATE,
    RELIGIOUS,
    REMOTE_PRESENCE,
    VETERAN,
)

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
    # The two heading lines and the builder's link are listed, not imported.
    assert [(p.line, p.reason) for p in parsed.skipped] == [
        (1, "A heading: the faction or the list's name."),
        (2, "A heading: the faction or the list's name."),
        (19, "The army builder's link or banner."),
    ]
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


def test_a_line_it_cannot_read_is_skipped_with_its_reason_and_the_rest_kept():
    text = TWO_GROUPS.replace(
        "FUSILIER Combi Rifle / Pistol, Knife. (0 | 10)",
        "FUSILIER Combi Rifle / Pistol, Knife. 0 10",
    ).replace("(0 | 14)", "(0 | 450)")
    parsed = parse(text)
    assert parsed.ok
    bad = {problem.line: problem for problem in parsed.skipped}
    assert set(bad) == {1, 2, 11, 15, 19}
    assert bad[11].text.startswith("FUSILIER") and "(SWC | points)" in bad[11].reason
    assert bad[15].params == {"low": 0, "high": 200}
    # Every other trooper line reads and is kept.
    assert len(parsed.rows) == 6


def test_a_list_over_the_limit_reads_and_says_its_total():
    text = "Ariadna\nToo big\nGROUP 1\n" + "".join(
        f"CHASSEUR {i} (Hidden Deployment) Rifle. (0 | 45)\n" for i in range(8)
    )
    parsed = parse(text)
    assert parsed.ok and parsed.points == 360  # the limit is checked by the match


def test_totals_lines_and_stray_lines_are_skipped_each_with_why():
    text = "Yu Jing\nImperial Service\n300 points | 6 SWC\nGROUP 1\nZHANSHI Rifle. (0 | 9)\nhello\n"
    parsed = parse(text)
    assert [(p.line, p.reason) for p in parsed.skipped][2:] == [
        (3, "A totals line."),
        (6, 'Not a trooper line: it should end with "(SWC | points)".'),
    ]
    assert [row.name for row in parsed.rows] == ["Zhanshi"]


def test_a_group_holds_at_most_ten():
    text = "PanOceania\nBig group\nGROUP 1\n" + "FUSILIER Rifle. (0 | 10)\n" * 11
    parsed = parse(text)
    assert len(parsed.rows) == 10
    assert [p.line for p in parsed.skipped][2:] == [14]
    assert parsed.skipped[2].params == {"group": 1, "max": 10}


def test_empty_or_foreign_text_imports_nothing():
    assert not parse("").ok
    assert not parse("just some words\nand more\n").ok
    assert not parse("x" * 30_000).ok


# Variants of what players paste from the builder's app and from chat
# messages, in both languages: the totals line in either order (and after
# the troopers), the app's "Open with Army" banner, bullets and emoji.
# (No public copy of a real export was found; these follow the builder's
# shape as TWO_GROUPS does, and one third-party reader's " SWC | 5.5" line.)
ENGLISH_FROM_THE_APP = """\
🛡️ Haqqislam
Hassassin Bahram – league
6 SWC | 272 Points
GROUP 1 8 1
• HASSASSIN AYYAR (Lieutenant, Holoprojector) Submachine Gun / Pistol. (0 | 40) 🔥
• FIDAI (Hidden Deployment) Boarding Shotgun / Pistol. (0 | 22) ✔️
GROUP 2
GHULAM Rifle + Light Shotgun / Pistol. (0 | 12) 💪
 SWC | 5.5
Open with Army…
https://infinitytheuniverse.com/army/list/xyz
"""

SPANISH_FROM_THE_APP = """\
Haqqislam ⭐
Lista de liga – Ronda 2
148 puntos | CAP 1
GRUPO 1
HASSASSIN AYYAR (Teniente, Holoproyector) Subfusil / Pistola. (0 | 40)
FIDAI (Despliegue Oculto) Escopeta de Abordaje / Pistola. (0 | 22) 🗡️
-- GHULAM Fusil / Pistola. (0 | 12) --
CAP 1 | 148 puntos
Abrir con Army
"""


def test_an_english_paste_keeps_every_trooper_and_lists_the_rest():
    parsed = parse(ENGLISH_FROM_THE_APP)
    assert parsed.ok
    assert parsed.faction == "Haqqislam" and parsed.name == "Hassassin Bahram – league"
    assert [(r.name, r.cost, r.combat_group) for r in parsed.rows] == [
        ("Hassassin Ayyar", 40, 1),
        ("Fidai", 22, 1),
        ("Ghulam", 12, 2),
    ]
    assert LIEUTENANT_CANDIDATE in parsed.rows[0].traits
    assert HIDDEN_DEPLOYMENT in parsed.rows[1].traits
    reasons = {p.text: p.reason for p in parsed.skipped}
    assert reasons["6 SWC | 272 Points"] == "A totals line."
    assert reasons["SWC | 5.5"] == "A totals line."
    assert reasons["Open with Army…"] == "The army builder's link or banner."
    assert reasons["https://infinitytheuniverse.com/army/list/xyz"].startswith("The army")


def test_a_spanish_paste_keeps_every_trooper_and_lists_the_rest():
    parsed = parse(SPANISH_FROM_THE_APP)
    assert [(r.name, r.cost) for r in parsed.rows] == [
        ("Hassassin Ayyar", 40),
        ("Fidai", 22),
        ("Ghulam", 12),
    ]
    assert parsed.faction == "Haqqislam"
    assert LIEUTENANT_CANDIDATE in parsed.rows[0].traits
    assert HIDDEN_DEPLOYMENT in parsed.rows[1].traits
    reasons = {p.text: p.reason for p in parsed.skipped}
    assert reasons["148 puntos | CAP 1"] == reasons["CAP 1 | 148 puntos"] == "A totals line."
    assert reasons["Abrir con Army"] == "The army builder's link or banner."
    assert parsed.points == 74


def test_a_paste_with_no_trooper_line_is_refused_whole_with_why():
    parsed = parse("Haqqislam\n6 SWC | 272 Points\nOpen with Army…\n")
    assert not parsed.ok
    assert parsed.skipped[-1].reason == "No trooper lines were found in the pasted text."


def test_holomask_in_either_language_is_the_holomask_trait():
    """HE-9: a pasted HoloMask trooper came in without the trait, so its
    deployment sealed no mask and the opponent read its true type."""
    english = parse("GROUP 1\nZHAYEDAN (HoloMask) Combi Rifle / Pistol. (0 | 25)\n")
    spanish = parse("GRUPO 1\nZHAYEDAN (Holomáscara) Fusil Combi / Pistola. (0 | 25)\n")
    assert english.rows[0].traits == (HOLOMASK,)
    assert spanish.rows[0].traits == (HOLOMASK,)


def test_the_traits_the_rules_read_come_in_with_the_paste_in_either_language():
    """RT-X1 (Courage, Religious Troop, Veteran ignore Retreat!), TM-T5 and
    TM-T6 (Doctor, Engineer), the Impetuous Phase, the Order Pool (Irregular):
    a paste that dropped them put a Courage trooper in Retreat! mid-game."""
    english = parse(
        "GROUP 1\n"
        "PEACEMAKER (Engineer) Combi Rifle / Pistol. (0 | 14)\n"
        "MÚLTIPLO ÁNGEL (Doctor Plus) Submachine Gun. (0,5 | 19)\n"
        "NAÏVE JEANNE D'ARC (Courage, Religious Troop) Spitfire / Pistol. (1 | 42)\n"
        "MORAT (Veteran L1, Frenzy) Combi Rifle. (0 | 20)\n"
        "DAKINI (Irregular, Extremely Impetuous) Combi Rifle. (0 | 12)\n"
        "FOXTROT (Cube 2.0, Remote Presence) Rifle. (0 | 21)\n"
    )
    spanish = parse(
        "GRUPO 1\n"
        "PEACEMAKER (Ingeniero) Fusil Combi / Pistola. (0 | 14)\n"
        "MÚLTIPLO ÁNGEL (Médico Plus) Subfusil. (0,5 | 19)\n"
        "NAÏVE JEANNE D'ARC (Coraje, Tropa Religiosa) Spitfire / Pistola. (1 | 42)\n"
        "MORAT (Veterano N1, Frenesí) Fusil Combi. (0 | 20)\n"
        "DAKINI (Irregular, Extremadamente Impetuoso) Fusil Combi. (0 | 12)\n"
        "FOXTROT (Petaca, Presencia Remota) Fusil. (0 | 21)\n"
    )
    expected = [
        (ENGINEER,),
        (DOCTOR,),
        tuple(sorted((COURAGE, RELIGIOUS))),
        tuple(sorted((VETERAN, FRENZY))),
        tuple(sorted((IRREGULAR, IMPETUOUS))),
        tuple(sorted((CUBE, REMOTE_PRESENCE))),
    ]
    assert [row.traits for row in english.rows] == expected
    assert [row.traits for row in spanish.rows] == expected


def test_a_word_that_only_begins_like_a_trait_is_not_that_trait():
    """A word that only begins like a trait is not it ("Doctorate", "Couraged"): a trait is the
    whole option or its first words (Veteran L1, Doctor Plus)."""
    parsed = parse("GROUP 1\nODD (Doctorate, Couraged) Rifle. (0 | 10)\n")
    assert parsed.rows[0].traits == ()
