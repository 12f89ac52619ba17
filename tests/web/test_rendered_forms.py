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
from django.db import transaction

from tracker import reading, rules, views
from tracker.forms import INTERNAL
from tracker.rules.i18n import _ as mark

from .full_match import FullMatch
from .phone import Checkbox, Hidden, Phone, Radio, RenderedForm, Select

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
                self.tap(checkpoint, seat, phone, rendered)

    def tap(self, checkpoint: str, seat: str, phone: Phone, rendered: RenderedForm) -> None:
        fill_as_a_player_must(rendered)
        self.last_violation = None
        where = (checkpoint, seat, rendered.command)
        try:
            with transaction.atomic():
                try:
                    phone.send(rendered, reload=False)
                finally:
                    transaction.set_rollback(True)
        except AssertionError as failure:  # PhoneError: a status other than 200
            self.broken.append((*where, str(failure)))
            return
        finally:
            reading.forget()  # the cache saw the rolled-back events
        error = phone.error
        if error is None:
            return
        violation = self.last_violation
        if violation is not None and violation.message in MALFORMED:
            self.broken.append((*where, error))
        elif violation is None:
            self.broken.append((*where, f"refused outside the rules: {error}"))
        else:
            self.refused.append((*where, error))


def test_every_rendered_form_is_accepted_and_every_command_has_a_form(monkeypatch):
    walker = Walker(monkeypatch)
    FullMatch(walker).play()

    assert walker.broken == [], "\n".join(" | ".join(row) for row in walker.broken)

    by_command = defaultdict(set)
    for _checkpoint, _seat, command, message in walker.refused:
        by_command[command].add(message)
    print("\nRule refusals of rendered forms (legitimate table situations):")
    for command, messages in sorted(by_command.items()):
        for message in sorted(messages):
            print(f"  {command}: {message}")

    player_commands = set(rules.COMMAND_TYPES) - set(NOT_PLAYER_COMMANDS)
    assert set(NOT_PLAYER_COMMANDS) == INTERNAL
    missing = player_commands - walker.rendered
    assert missing == set(), f"no page of the match rendered a form for {sorted(missing)}"
    assert {"draft/add", "draft/remove"} <= walker.rendered


def test_the_walker_fails_a_form_the_server_cannot_build(monkeypatch):
    """Not vacuous: a page whose ARO form lost a field the command needs
    (its trooper) is caught."""
    walker = Walker(monkeypatch)
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
    aro.node.select_one("select[name=trooper_id]").decompose()
    walker.tap("broken page", "Bob", b, RenderedForm(aro.url, True, aro.node, _reparse(aro)))
    assert [row[2] for row in walker.broken] == ["DeclareAro"]
    assert "Some information is missing" in walker.broken[0][3]


def _reparse(rendered: RenderedForm):
    from .phone import _parse

    return _parse(rendered.node)
