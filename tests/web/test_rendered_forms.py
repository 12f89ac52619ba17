"""Every form the page renders is one the server accepts, and every command
the server accepts has a form on some page (issue 8).

The full scripted match (tests/web/full_match.py) stops at each checkpoint;
there, on both phones, every htmx form on the page is tapped as rendered
(choices left as the page offers them first; required inputs a browser would
insist on are typed in), inside a savepoint that is rolled back, so the match
goes on as scripted. A refusal that says the page sent too little or
something ill-formed fails the test. A rule's refusal is a legitimate table
situation (a form offered for a choice the rules then weigh); those are
allowed, and listed with -s.
"""

from __future__ import annotations

from collections import defaultdict

import pytest
from bs4 import BeautifulSoup
from django.db import transaction
from webtest.forms import MultipleSelect, Submit

from tracker import reading, rules, views
from tracker.forms import INTERNAL
from tracker.rules.i18n import _ as mark

from .full_match import FullMatch
from .phone import Checkbox, Hidden, Phone, Radio, RenderedForm, Select
from .test_retreat_on_phones import bob_takes_alice_s_last_troopers

pytestmark = pytest.mark.django_db

# Refusals that can only mean the page sent too little or something
# ill-formed: never a table situation.
MALFORMED = {
    mark("Some information is missing; reload the page."),
    mark("%(field)s must be a whole number."),
    mark("Unknown action."),
    mark("Unknown skill."),
    mark("Unknown phase."),
    mark("Unknown outcome."),
    mark("Unknown state."),
    mark("Unknown Command Token use."),
    mark("Unknown trait in the army list."),
    mark("The seal is malformed; reload the page."),
    mark("Two troopers share an id; reload the page."),
    "Malformed command data.",
}

# Commands the server accepts that no page offers a player, and why.
NOT_PLAYER_COMMANDS = {
    "ClaimSeat": "issued by the seat link view after its own form (claim.html)",
    "MoveSeat": "issued by the seat link view after the PIN check (move.html)",
}


def fill_as_a_player_must(rendered: RenderedForm) -> None:
    """Type what the browser would insist on: required text and numbers,
    one choice of a required radio group. Everything else as rendered."""
    for name, fields in rendered.form.fields.items():
        if not name:
            continue
        field = fields[0]
        if isinstance(field, Radio):
            if field.value is None and field.options and "required" in field.attrs:
                field.value = field.options[0][0]
            continue
        if isinstance(field, MultipleSelect):
            if "required" in field.attrs and not field.value and field.options:
                field.value = [value for value, _on, _text in field.options[:2]]
            continue
        if isinstance(field, Hidden | Select | Checkbox) or "required" not in field.attrs:
            continue
        if not field.value:
            kind = field.attrs.get("type", "text")
            field.value = field.attrs.get("min", "1") if kind == "number" else "walked"
            if rendered.command == "draft/import":
                # What a player pastes there: the army builder's copied text.
                field.value = "GROUP 1\nFUSILIER Combi Rifle / Pistol, Knife. (0 | 10)"


class Walker:
    def __init__(self, monkeypatch):
        self.refused: list[tuple[str, str, str, str]] = []  # checkpoint, seat, command, message
        self.broken: list[tuple[str, str, str, str]] = []
        self.refused_options: list[tuple[str, str, str, str]] = []
        self.option_taps = 0
        self.options_tried: set[tuple[str, str, str, str]] = set()
        self.rendered: set[str] = set()
        self.last_violation: rules.RuleViolation | None = None
        honest = views.rule_message

        def recording(error):
            self.last_violation = error
            return honest(error)

        monkeypatch.setattr(views, "rule_message", recording)

    def __call__(self, checkpoint: str, a: Phone, b: Phone) -> None:
        for seat, phone in (("Alice", a), ("Bob", b)):
            for rendered in phone.forms():
                if not rendered.htmx:
                    continue  # the language switcher: a plain Django view
                self.rendered.add(rendered.command)
                if rendered.node.has_attr("data-state-form"):
                    # Issue 18: the page's one State form is opened from a
                    # row (app.js), so it is tapped as each row opens it.
                    for row in phone.soup.select("li.trooper:has(> button.name)"):
                        opened = phone.form("SetTrooperState", trooper_id=row["id"][8:])
                        self.tap(checkpoint, seat, phone, opened)
                    continue
                self.tap(checkpoint, seat, phone, rendered)

    def tap(self, checkpoint: str, seat: str, phone: Phone, rendered: RenderedForm) -> None:
        fill_as_a_player_must(rendered)
        where = (checkpoint, seat, rendered.command)
        as_rendered = self.send(where, phone, rendered)
        if as_rendered is _BROKEN:
            return
        if as_rendered is not None:
            self.refused.append((*where, as_rendered[1]))
        for name, value, label in options_of(rendered):
            # The same form, drawn the same way for the same seat, is asked
            # once: each option taps the server, and the match has ~20
            # checkpoints of mostly unchanged forms.
            key = (seat, str(rendered.node), name, value)
            if key in self.options_tried:
                continue
            self.options_tried.add(key)
            probe = _copy(rendered)
            _first_field(probe, name).value = value
            self.option_taps += 1
            where_option = (checkpoint, seat, f"{rendered.command} {name}={label!r}")
            answer = self.send(where_option, phone, probe)
            if answer is _BROKEN or answer is None:
                continue
            # An option is refused when it, not the form as rendered, is what
            # the rules refuse: the page offered a choice the server turns down.
            if as_rendered is None or answer[0] != as_rendered[0]:
                self.refused_options.append((*where_option, answer[1]))

    def send(self, where, phone: Phone, rendered: RenderedForm):
        """None if accepted, (rule message, shown refusal) if a rule refused
        it, _BROKEN (recorded) if the page's form was at fault."""
        self.last_violation = None
        try:
            with transaction.atomic():
                try:
                    phone.send(rendered, reload=False)
                finally:
                    transaction.set_rollback(True)
        except AssertionError as failure:  # PhoneError: a status other than 200
            self.broken.append((*where, str(failure)))
            return _BROKEN
        finally:
            reading.forget()  # the cache saw the rolled-back events
        error = phone.error
        if error is None:
            return None
        violation = self.last_violation
        if violation is not None and violation.message in MALFORMED:
            self.broken.append((*where, error))
            return _BROKEN
        if violation is None:
            self.broken.append((*where, f"refused outside the rules: {error}"))
            return _BROKEN
        return (violation.message, error)


_BROKEN = object()


def options_of(rendered: RenderedForm):
    """Each option of each single select other than the one the page chose:
    (field name, value, label)."""
    for name, fields in rendered.form.fields.items():
        field = fields[0] if fields else None
        if not name or type(field) is not Select or "disabled" in field.attrs:
            continue
        for value, _selected, label in field.options:
            # A disabled option is one a player cannot pick (the State
            # form's out-of-action conditions for a row in Holoecho, HE-C4).
            disabled = rendered.node.select_one(
                f'select[name="{name}"] option[value="{value}"][disabled]'
            )
            if value != field.value and disabled is None:
                yield name, value, label


def _copy(rendered: RenderedForm) -> RenderedForm:
    """The same form with its fields as they stand now (filled included)."""
    from .phone import _parse

    probe = RenderedForm(rendered.url, rendered.htmx, rendered.node, _parse(rendered.node))
    for name, fields in rendered.form.fields.items():
        for original, copied in zip(fields, probe.form.fields.get(name, []), strict=False):
            if isinstance(original, Checkbox):
                copied.checked = original.checked
            elif not isinstance(original, Hidden | Submit) and original.value is not None:
                copied.value = original.value
    return probe


def _first_field(rendered: RenderedForm, name: str):
    return rendered.form.fields[name][0]


def test_every_rendered_form_is_accepted_and_every_command_has_a_form(monkeypatch):
    walker = Walker(monkeypatch)
    FullMatch(walker).play()
    # RT-7 after a loss (retreat.EndBattle): the scripted match's Retreat!
    # ends with survivors, so a short match of its own loses the whole army,
    # and the card's form is tapped on both phones.
    for seat, phone in zip(("Alice", "Bob"), bob_takes_alice_s_last_troopers("en"), strict=True):
        phone.open()
        [end_battle] = phone.forms("EndBattle")
        walker.rendered.add(end_battle.command)
        walker.tap("RT-7: the army in Retreat! lost", seat, phone, end_battle)

    assert walker.broken == [], "\n".join(" | ".join(row) for row in walker.broken)
    assert walker.refused_options == [], "\n".join(
        " | ".join(row) for row in walker.refused_options
    )

    by_command = defaultdict(set)
    for _checkpoint, _seat, command, message in walker.refused:
        by_command[command].add(message)
    print(f"\n{walker.option_taps} options of selects tapped")
    print("Rule refusals of rendered forms (legitimate table situations):")
    for command, messages in sorted(by_command.items()):
        for message in sorted(messages):
            print(f"  {command}: {message}")

    player_commands = set(rules.COMMAND_TYPES) - set(NOT_PLAYER_COMMANDS)
    assert set(NOT_PLAYER_COMMANDS) == INTERNAL
    missing = player_commands - walker.rendered
    assert missing == set(), f"no page of the match rendered a form for {sorted(missing)}"
    assert {"draft/add", "draft/remove"} <= walker.rendered


def bobs_aro_card():
    """Bob's phone and its ARO form, once Alice's Kaplan declares a Move:
    the scripted match through its first Order Count and TM-S2."""
    match = FullMatch()
    match.set_up()
    match.deploy()
    a, b = match.a, match.b
    a.open()
    a.submit("AdvancePhase", expected="tactical")  # the Order Count
    b.open()
    b.submit("DeclineStrategicUse")  # TM-S2 passes
    a.open()
    a.submit("AdvancePhase", expected="tactical")
    a.submit("AdvancePhase", expected="impetuous")
    a.submit("DeclareSkill", trooper_id="Kaplan", skill="move")
    b.open()
    [aro] = b.forms("DeclareAro")
    return b, aro


def test_the_walker_fails_a_form_the_server_cannot_build(monkeypatch):
    """Not vacuous: a page whose ARO form lost a field the command needs
    (its trooper) is caught."""
    walker = Walker(monkeypatch)
    b, aro = bobs_aro_card()
    aro.node.select_one("select[name=trooper_id]").decompose()
    walker.tap("broken page", "Bob", b, RenderedForm(aro.url, True, aro.node, _reparse(aro)))
    assert {row[2].split()[0] for row in walker.broken} == {"DeclareAro"}
    assert "Some information is missing" in walker.broken[0][3]


def _reparse(rendered: RenderedForm):
    from .phone import _parse

    return _parse(rendered.node)


def test_the_walker_fails_an_option_the_server_refuses(monkeypatch):
    """Not vacuous either: an ARO form offering "Delay the ARO" against a
    trooper that is neither a Holoecho nor a marker (HE-8) is caught, though
    the form as rendered (its first option) is accepted."""
    walker = Walker(monkeypatch)
    b, aro = bobs_aro_card()
    skills = aro.node.select_one("select[name=skill]")
    assert skills.find("option", attrs={"value": "delay_aro"}) is None  # as rendered
    skills.append(BeautifulSoup('<option value="delay_aro">Delay</option>', "html.parser"))
    walker.tap("planted option", "Bob", b, RenderedForm(aro.url, True, aro.node, _reparse(aro)))
    assert walker.broken == []
    assert [row[2] for row in walker.refused_options] == ["DeclareAro skill='Delay'"]
    assert "HE-8" in walker.refused_options[0][3]
