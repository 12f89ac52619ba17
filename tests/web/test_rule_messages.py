"""A refusal names its rule once, in the player's language (views.rule_message)."""

import pytest
from django.utils import translation

from tracker import rules
from tracker.views import rule_message


@pytest.mark.parametrize(
    ("message", "rule", "params", "expected"),
    [
        # The message cites the rule among others: no second suffix.
        (
            "A trooper in Hidden Deployment is not on the table (HD-2, %(use)s).",
            "TM-E2",
            {"use": "TM-E2"},
            "A trooper in Hidden Deployment is not on the table (HD-2, TM-E2).",
        ),
        (
            "The Executive Use step ended with your Order Count (%(use)s).",
            "TM-E1",
            {"use": "TM-E1"},
            "The Executive Use step ended with your Order Count (TM-E1).",
        ),
        # A message that does not cite it gets it once.
        ("Unknown action.", "HE-1", {}, "Unknown action. (HE-1)"),
        # HE-C1 is not HE-C10, nor HD-C1 HD-C1x: whole IDs only.
        ("First say whether it needs a roll (HE-1, HE-C1).", "HE-C", {}, None),
    ],
)
def test_a_refusal_cites_its_rule_once(message, rule, params, expected):
    with translation.override("en"):
        text = rule_message(rules.NotAllowed(message, rule=rule, **params))
    if expected is not None:
        assert text == expected
    else:
        assert text.endswith(f"({rule})")
    assert text.count(rule) == 1 or rule == "HE-C"


@pytest.mark.parametrize(
    ("count", "english"),
    [
        (1, "Bob cancelled 1 Regular Order of the opponent's Order Pool for this Turn (TM-S2)."),
        (2, "Bob cancelled 2 Regular Orders of the opponent's Order Pool for this Turn (TM-S2)."),
    ],
)
def test_a_log_line_with_a_number_takes_its_plural_from_ngettext(count, english):
    """TM-S2 may cancel one Order when only one is left: never "1 Regular Orders"."""
    from types import SimpleNamespace

    from tracker.rules.token_uses import OrdersCancelled
    from tracker.rules.visibility import redact_log
    from tracker.templatetags.tracker_tags import log_text

    event = OrdersCancelled(seat="B", cancelled={"1": count}, count=count, rule="TM-S2")
    [line] = redact_log([(1, event)], "A")
    view = SimpleNamespace(
        seats=[SimpleNamespace(seat="A", name="Alice"), SimpleNamespace(seat="B", name="Bob")]
    )
    with translation.override("en"):
        assert log_text(line, view) == english
    with translation.override("es"):
        spanish = log_text(line, view)
    assert ("1 Orden Regular " in spanish) is (count == 1), spanish
