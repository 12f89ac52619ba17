"""Twins that touch the secret they are about (the twins of
test_indirect_leaks.py never did):

- Holoecho: Bob declares AROs against each of Alice's Holoecho elements and
  reports a Discover on one of them; the twins differ only in which of the
  *other two* elements is real, so whatever the rules answer (a decoy
  removed, HE-D1) must be the same bytes in both (HE-3, HE-5, HE-D1).
- Hidden Deployment: Alice's hidden Ninja reacts to Bob's Order, acts in her
  turn and is Discovered as a Camouflage marker; the twins differ only in
  its sealed position, so once the position text and coordinates (what the
  reveal discloses, HD-C1..C3) are named alike, Bob and a spectator receive
  the same bytes, seq numbers included.

Every player action taps a form found in the page that player was just sent,
filling only fields (and options) it renders.
"""

from __future__ import annotations

import re

import pytest
from asgiref.sync import sync_to_async

from tracker.models import Match
from tracker.reading import load_state
from tracker.rules.identity import marker_ref

from .leaks import forms_in
from .table import claim, create_match, error_of, next_action_id
from .test_indirect_leaks import FAST_PINS, Twin, events_in_one_minute, first_difference, streams

pytestmark = [
    pytest.mark.django_db(transaction=True),
    pytest.mark.usefixtures(events_in_one_minute.__name__),
]

NINJA = "Ninja-inplay-3d9a"
ELEMENTS = ("model", "marker1", "marker2")


class FormTwin(Twin):
    """A twin whose players tap the forms their pages render."""

    # The two twins' positions have the same length (and so do their
    # coordinates): a page's size may follow what the reveal shows.
    position: str = "behind the grey container"
    xy: tuple[int, int] = (455, 1080)

    def tap(self, who: str, command: str, refused: bool | None = False, **values):
        client = {"alice": self.alice, "bob": self.bob}[who]
        page = client.get(f"/m/{self.match.code}/")
        if who == "bob":
            self.keep("bob", "page", page)
        form = next(
            (
                f
                for f in forms_in(page.content.decode())
                if f.command == command and fits(f, values)
            ),
            None,
        )
        assert form is not None, f"{who}'s page offers no {command} form for {values}"
        data = {f.name: f.value for f in form.fields if f.kind == "hidden"}
        for f in form.fields:  # what a browser sends untouched: a select's first option
            if f.kind == "select" and f.options:
                data.setdefault(f.name, f.options[0])
        data.update(values)
        data["action_id"] = next_action_id()
        extra = {"HTTP_HX_REQUEST": "true"} if form.action.startswith("/m/") else {}
        response = client.post(form.action, data, **extra)
        if who == "bob":
            self.keep("bob", f"POST {command}", response)
        if refused is not None:
            assert (error_of(response) is not None) == refused, (who, command, error_of(response))
        return response


def first_tactical_phase(twin: FormTwin) -> None:
    """Alice's first Tactical Phase: her Order Count, Bob lets TM-S2 pass
    (its moment is the end of that count), then she ends the phase."""
    twin.tap("alice", "AdvancePhase", expected="tactical")
    twin.tap("bob", "DeclineStrategicUse")
    twin.tap("alice", "AdvancePhase", expected="tactical")


def fits(form, values: dict) -> bool:
    """The form renders every field given, and offers each value given."""
    fields = {f.name: f for f in form.fields}
    for name, value in values.items():
        f = fields.get(name)
        if f is None:
            return False
        if f.kind in ("select", "radio", "checkbox"):
            wanted = value if isinstance(value, list) else [value]
            if not all(v in f.options for v in wanted):
                return False
    return True


def set_up_steps(twin: FormTwin, alice_rows, bob_rows, seal_alice) -> list:
    def start():
        twin.match = create_match(twin.alice, name="Twin in play")
        claim(twin.alice, twin.match, "A", "Alice")
        claim(twin.bob, twin.match, "B", "Bob")
        twin.spectator.get(f"/m/{twin.match.code}/")

    def draft(who, rows):
        def step():
            for name, cost, traits in rows:
                twin.tap(
                    who,
                    "add",
                    name=name,
                    cost=str(cost),
                    combat_group="1",
                    silhouette="2",
                    traits=list(traits),
                )

        return step

    def lock(who):
        return lambda: twin.tap(who, "LockArmyList")

    def initiative():
        twin.tap("alice", "SetInitiative", first_turn="A", deploys_first="A")

    def seal_bob():
        twin.tap("bob", "SealDeployment", lieutenant=twin.ids()["Fusilier"])
        twin.look()

    steps = [
        draft("alice", alice_rows),
        draft("bob", bob_rows),
        lock("alice"),
        lock("bob"),
        initiative,
        seal_alice,
        seal_bob,
    ]
    return start, steps


async def run(twin: FormTwin, start, steps) -> FormTwin:
    await sync_to_async(start)()
    await twin.connect()
    for step in steps:
        await sync_to_async(step)()
        await twin.settle()
    await twin.close()
    return twin


# ------------------------------------------------------------------ Holoecho


def holoecho_script(twin: FormTwin, reported: str):
    alice_rows = [
        ("Hassassin Ayyar", 40, ["holoprojector"]),
        ("Kaplan", 20, ["lieutenant_candidate"]),
    ]
    bob_rows = [("Fusilier", 10, ["lieutenant_candidate"]), ("Bolt", 15, [])]

    def seal_alice():
        ids = twin.ids()
        twin.tap(
            "alice",
            "SealDeployment",
            lieutenant=ids["Kaplan"],
            **{f"holoecho_{ids['Hassassin Ayyar']}": twin.real},
        )

    def to_orders():
        first_tactical_phase(twin)
        twin.tap("alice", "AdvancePhase", expected="impetuous")

    def hassassin_moves():
        twin.tap("alice", "DeclareSkill", trooper_id=twin.ids()["Hassassin Ayyar"], skill="move")
        twin.look()

    others = [e for e in ELEMENTS if e != reported]

    def aros():
        # Each reactive trooper picks one Holoecho as its target (HE-3):
        # between them, Bob's AROs target every element.
        ids = twin.ids()
        twin.tap(
            "bob",
            "DeclareAro",
            trooper_id=ids["Fusilier"],
            skill="discover",
            target_element=reported,
        )
        twin.tap(
            "bob",
            "DeclareAro",
            trooper_id=ids["Bolt"],
            skill="bs_attack",
            target_element=others[0],
        )
        twin.look()

    def reports():
        # The Discover succeeded on the reported element (HE-5): a decoy in
        # both twins, so it leaves the table (HE-D1), in the same words.
        twin.tap(
            "bob",
            "ReportOutcome",
            outcome="discovered",
            trooper_id=twin.ids()["Hassassin Ayyar"],
            element=reported,
        )
        twin.look()

    def end():
        twin.tap("alice", "EndOrder")
        twin.keep("bob", "export", twin.bob.get(f"/m/{twin.match.code}/export.json"))
        twin.look()

    start, steps = set_up_steps(twin, alice_rows, bob_rows, seal_alice)
    return start, [*steps, to_orders, hassassin_moves, aros, reports, end]


@pytest.mark.parametrize("reported", ELEMENTS)
async def test_bob_targets_and_reports_on_each_holoecho_element_and_learns_only_the_rule(
    reported, settings
):
    settings.PASSWORD_HASHERS = FAST_PINS
    real_one, real_other = (e for e in ELEMENTS if e != reported)
    twins = []
    for real in (real_one, real_other):
        twin = FormTwin(real=real)
        twins.append(await run(twin, *holoecho_script(twin, reported)))
    left, right = streams(twins[0]), streams(twins[1])
    assert left == right, first_difference(left, right)
    # The steps did what they say: AROs against the Holoecho, the reported
    # decoy gone, the real one still sealed.
    state = await sync_to_async(lambda: load_state(Match.objects.get(pk=twins[0].match.pk)))()
    hassassin = next(t for t in state.troopers.values() if t.name == "Hassassin Ayyar")
    assert reported not in hassassin.holoechoes and real_one in hassassin.holoechoes
    holoecho = next(s for s in state.secrets.values() if s.kind == "holoecho")
    assert not holoecho.revealed
    aros = [w for w in left if w[1] == "POST DeclareAro"]
    assert len(aros) == 2 and all("Holoecho" in text or "ARO" in text for _w, _x, text in aros)


def test_the_holoecho_twins_differ_when_the_reported_element_is_the_real_one():
    """The comparison can fail: report on the real element in one twin and a
    decoy in the other, and the bytes differ (the rule reveals it)."""
    from asgiref.sync import async_to_sync

    twins = []
    for real in ("marker1", "marker2"):
        twin = FormTwin(real=real)
        twins.append(async_to_sync(run)(twin, *holoecho_script(twin, "marker1")))
    assert streams(twins[0]) != streams(twins[1])


# --------------------------------------------------------- Hidden Deployment


def hidden_script(twin: FormTwin):
    alice_rows = [
        ("Kaplan", 20, ["lieutenant_candidate"]),
        (NINJA, 30, ["hidden_deployment", "camouflage"]),
        ("Zhanshi", 10, []),
    ]
    bob_rows = [("Fusilier", 10, ["lieutenant_candidate"]), ("Bolt", 15, [])]

    def seal_alice():
        ids = twin.ids()
        ninja = ids[NINJA]
        twin.tap(
            "alice",
            "SealDeployment",
            lieutenant=ids["Kaplan"],
            **{
                f"hd_position_{ninja}": twin.position,
                f"hd_x_{ninja}": str(twin.xy[0]),
                f"hd_y_{ninja}": str(twin.xy[1]),
            },
        )

    def the_ninja_acts_as_a_marker():
        # HD-C3: Cautious Movement places a Camouflaged hidden trooper as its
        # marker: its Hidden Deployment ends, its position is revealed.
        first_tactical_phase(twin)
        twin.tap("alice", "AdvancePhase", expected="impetuous")
        twin.tap(
            "alice",
            "DeclareSkill",
            trooper_id=twin.ids()[NINJA],
            skill="cautious_move",
            as_marker=["1"],
        )
        twin.tap("alice", "EndOrder")
        for phase in ("orders", "states"):
            twin.tap("alice", "AdvancePhase", expected=phase)
        twin.look()

    def bob_discovers_it():
        for phase in ("tactical", "impetuous"):
            twin.tap("bob", "AdvancePhase", expected=phase)
        twin.tap("bob", "DeclareSkill", trooper_id=twin.ids()["Bolt"], skill="discover")
        # Bob knows the Ninja only as Alice's Camouflage marker 1 (HD-C3).
        twin.tap("bob", "ReportOutcome", outcome="discovered", trooper_id=marker_ref("A", 1))
        twin.look()

    def the_ninja_reacts():
        twin.tap("alice", "DeclareAro", trooper_id=twin.ids()[NINJA], skill="dodge")
        twin.tap("bob", "EndOrder")
        twin.keep("bob", "export", twin.bob.get(f"/m/{twin.match.code}/export.json"))
        twin.look()

    start, steps = set_up_steps(twin, alice_rows, bob_rows, seal_alice)
    return start, [
        *steps,
        the_ninja_acts_as_a_marker,
        bob_discovers_it,
        the_ninja_reacts,
    ]


def revealed_alike(twin: FormTwin) -> list:
    """The twin's streams with what the reveal discloses (the position text
    and its coordinates) named alike."""
    renamed = []
    for who, what, text in streams(twin):
        text = text.replace(twin.position, "POSITION")
        # The coordinates, in whatever notation the page shows them.
        text = re.sub(rf"(?<![\w.]){twin.xy[0]}(?![\w.])", "X", text)
        text = re.sub(rf"(?<![\w.]){twin.xy[1]}(?![\w.])", "Y", text)
        renamed.append((who, what, text))
    return renamed


async def test_the_hidden_trooper_reacts_is_discovered_and_acts_and_only_the_reveal_differs(
    settings,
):
    settings.PASSWORD_HASHERS = FAST_PINS
    one, other = FormTwin(), FormTwin()
    other.position, other.xy = "beside the tall blue silo", (702, 1111)
    for twin in (one, other):
        await run(twin, *hidden_script(twin))
    left, right = revealed_alike(one), revealed_alike(other)
    assert left == right, first_difference(left, right)
    # It did react, was placed, was discovered and acted: its HD ended by a
    # rule, and its name reached Bob only from then on.
    state = await sync_to_async(lambda: load_state(Match.objects.get(pk=one.match.pk)))()
    hd = next(s for s in state.secrets.values() if s.kind == "hd_position")
    assert hd.revealed and hd.revealed_rule != "owner"
    seen = [text for _who, what, text in left if NINJA in text]
    assert seen, "Bob saw the Ninja once it was revealed"
    before = [
        text for _who, what, text in left[: left.index(next(x for x in left if NINJA in x[2]))]
    ]
    assert all("POSITION" not in text for text in before)
