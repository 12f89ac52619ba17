"""The deployment's report card ("Report a failed Infiltration roll (HD-4)
or Coherency check (HE-2)") offered both outcomes on every trooper of the
list, whatever it had: a player with neither an infiltrating hidden trooper
nor a Holoprojector saw the card once sealed, and every tap on it was
refused. It now offers only what the server takes (view.report_offers): an
Infiltration roll on a hidden trooper with Infiltration, a Coherency check
on a Holoecho with its elements, and no card for a list with neither. In
Spanish and English; every tap is a form the page rendered."""

import pytest

from .phone_flows import ok
from .test_rules_on_phones import custom_match

pytestmark = pytest.mark.django_db

CARD = {
    "en": "Report a failed Infiltration roll (HD-4) or Coherency check (HE-2)",
    "es": "Anotar una Tirada de Infiltración fallida (HD-4) o una Comprobación de Coherencia "
    "fallida (HE-2)",
}
PLAIN = (("Kaplan", 20, 1, 2, ["lieutenant_candidate"]), ("Zhanshi", 10, 1, 2, []))
BOB = (("Fusilier", 10, 1, 2, ["lieutenant_candidate"]),)


def sealed_first(alice_list, language):
    """Alice deploys first and seals; Bob has not sealed yet."""
    a, b = custom_match(alice_list, BOB)
    a.app.set_cookie("django_language", language)
    a.open()
    ok(a, a.submit("SealDeployment", lieutenant="Kaplan"))
    a.open()
    return a


@pytest.mark.parametrize("language", ["en", "es"])
def test_a_list_with_nothing_to_report_shows_no_report_card(language):
    a = sealed_first(PLAIN, language)
    assert CARD[language] not in a.text
    assert not a.can("ReportOutcome")


@pytest.mark.parametrize("language", ["en", "es"])
def test_the_card_offers_each_outcome_only_where_the_server_takes_it(language):
    alice_list = (
        *PLAIN,
        ("Hassassin Ayyar", 40, 1, 2, ["holoprojector"]),
        ("Fidai", 22, 1, 2, ["hidden_deployment", "infiltration"]),
    )
    a = custom_match(alice_list, BOB)[0]
    a.app.set_cookie("django_language", language)
    a.open()
    [seal] = a.forms("SealDeployment")
    fields = {
        name: value
        for name, value in (
            (next(n for n in seal.names() if n.startswith("hd_position_")), "Roof"),
            (next(n for n in seal.names() if n.startswith("holoecho_")), "marker1"),
        )
    }
    ok(a, a.submit("SealDeployment", lieutenant="Kaplan", **fields))
    a.open()
    assert CARD[language] in a.text
    offered = {
        (option.get_text(strip=True).split(" —")[0], outcome["value"])
        for form in a.forms("ReportOutcome")
        for option in form.node.select("select[name=trooper_id] option")
        for outcome in form.node.select("select[name=outcome] option")
    }
    assert offered == {("Hassassin Ayyar", "coherency"), ("Fidai", "infiltration_failed")}
    # Each offered report is taken.
    ok(a, a.submit("ReportOutcome", trooper_id="Hassassin Ayyar", element="marker2"))
    a.open()
    ok(a, a.submit("ReportOutcome", outcome="infiltration_failed"))
