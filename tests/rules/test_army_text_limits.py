"""The army reader's own limits (tracker/army_text.py): a line past one is
skipped with why, never read in, so the draft never holds what the list
lock then refuses without saying which line did it."""

from __future__ import annotations

from tracker.army_text import parse
from tracker.rules.setup import MAX_TROOPERS


def test_a_trooper_with_negative_points_is_skipped_not_read_as_a_discount():
    # "-10" matches the points pattern: read in, it would take ten points off
    # the total the import announces.
    text = "PanOceania\nCheap\nGROUP 1\nFUSILIER Rifle. (0 | 10)\nBOLT Rifle. (0 | -10)\n"
    parsed = parse(text)
    assert [row.name for row in parsed.rows] == ["Fusilier"] and parsed.points == 10
    (skipped,) = [p for p in parsed.skipped if p.line == 5]
    assert skipped.reason == "Cost must be between %(low)s and %(high)s."
    assert skipped.params == {"low": 0, "high": 200}


def test_the_trooper_past_the_most_a_list_holds_is_skipped_with_why():
    groups = "".join(
        f"GROUP {group}\n" + "".join(f"FUSILIER {group}{i} Rifle. (0 | 1)\n" for i in range(8))
        for group in (1, 2, 3, 4)
    )
    parsed = parse("PanOceania\nCrowd\n" + groups)
    assert len(parsed.rows) == MAX_TROOPERS == 30
    past = [p for p in parsed.skipped if p.line > 2]
    assert [p.text for p in past] == ["FUSILIER 46 Rifle. (0 | 1)", "FUSILIER 47 Rifle. (0 | 1)"]
    assert {p.reason for p in past} == {"An army list holds at most %(max)s troopers."}
    assert past[0].params == {"max": 30}


def test_a_group_heading_past_the_last_group_is_named_and_its_troopers_skipped():
    text = (
        "PanOceania\nSix groups\nGROUP 1\nFUSILIER Rifle. (0 | 10)\nGROUP 6\nBOLT Rifle. (0 | 15)\n"
    )
    parsed = parse(text)
    assert [row.name for row in parsed.rows] == ["Fusilier"]
    heading, trooper = [p for p in parsed.skipped if p.line > 2]
    assert (heading.line, heading.text) == (5, "GROUP 6")
    assert heading.reason == "Combat group must be between %(low)s and %(high)s."
    assert heading.params == {"low": 1, "high": 5}
    assert (trooper.line, trooper.reason) == (
        6,
        "This trooper is in a Combat Group the tracker cannot take.",
    )
