"""Commands built from a POST honour each command's own defaults (issue 8):
"the page did not send it" and "it has a default" never disagree."""

import dataclasses
import typing

import pytest
from django.http import QueryDict

from tracker import rules
from tracker.forms import BUILDERS, INTERNAL, generic_command
from tracker.models import Match
from tracker.reading import load_state
from tracker.rules.orders import DeclareAro

from .phone_flows import lists_locked, ok, seated, to_orders

POSITION = "Bob's sniper nest: behind the water tower, prone"


def test_a_field_the_page_did_not_send_takes_the_commands_default():
    command = generic_command(DeclareAro, QueryDict("trooper_id=t1&skill=bs_attack&target_id=t2"))
    assert command == DeclareAro(trooper_id="t1", skill="bs_attack", target_id="t2")


def test_a_field_without_a_default_is_still_missing_information():
    with pytest.raises(rules.InvalidInput, match="Some information is missing"):
        generic_command(DeclareAro, QueryDict("skill=bs_attack"))


def test_an_unticked_checkbox_is_false_and_every_command_bool_defaults_to_false():
    command = generic_command(DeclareAro, QueryDict("trooper_id=t1&skill=dodge"))
    assert command.as_marker is False
    for name, command_type in rules.COMMAND_TYPES.items():
        hints = typing.get_type_hints(command_type)
        for field in dataclasses.fields(command_type):
            if hints[field.name] is bool:
                assert field.default is not True, (
                    f"{name}.{field.name}: an unticked checkbox sends nothing, read as False"
                )


def test_every_generic_command_builds_from_the_fields_it_cannot_default():
    """Each command with no builder of its own builds from its required
    fields alone."""
    for name, command_type in rules.COMMAND_TYPES.items():
        if name in BUILDERS or name in INTERNAL:
            continue
        hints = typing.get_type_hints(command_type)
        post = QueryDict(mutable=True)
        for field in dataclasses.fields(command_type):
            no_default = (
                field.default is dataclasses.MISSING
                and field.default_factory is dataclasses.MISSING
            )
            if field.init and no_default:
                post[field.name] = "1" if hints[field.name] is int else "x"
        assert isinstance(generic_command(command_type, post), command_type), name


@pytest.mark.django_db
def test_aro_against_an_ordinary_trooper_and_hd_c2_by_aro_from_the_rendered_form():
    """Bob's hidden sniper reacts to Kaplan (no Holoechoes): the ARO form
    renders no target_element, and the ARO is accepted; attacking from
    Hidden Deployment reveals the sniper (HD-C2)."""
    a, b = seated()
    lists_locked(
        a,
        b,
        alice_list=(("Kaplan", 20, 1, 2, ["lieutenant_candidate"]), ("Zhanshi", 10, 1, 2, [])),
        bob_list=(
            ("Fusilier", 10, 1, 2, ["lieutenant_candidate"]),
            ("Sniper", 30, 1, 2, ["hidden_deployment"]),
        ),
    )
    ok(a, a.submit("SetInitiative", first_turn="Alice", deploys_first="Alice"))
    ok(a, a.submit("SealDeployment", lieutenant="Kaplan"))
    b.open()
    sniper = b.trooper_id("Sniper")
    ok(b, b.submit("SealDeployment", lieutenant="Fusilier", **{f"hd_position_{sniper}": POSITION}))
    to_orders(a, b)
    ok(a, a.submit("DeclareSkill", trooper_id="Kaplan", skill="move"))

    b.open()
    aro = b.form("DeclareAro")
    assert "target_element" not in aro.names()
    ok(b, b.submit("DeclareAro", trooper_id="Fusilier", skill="dodge"))
    ok(b, b.submit("DeclareAro", trooper_id="Sniper", skill="bs_attack"))

    state = load_state(Match.objects.get())
    assert not state.troopers[sniper].hidden
    a.open()
    assert POSITION in a.text
    assert "HD-C2" in a.text
