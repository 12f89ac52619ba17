"""An organizer's ruling that the rules refuse (army points alive past the
match's own points limit: the form's fields stop at 1,000, the match's
limit is 300) is answered on the audit page with the rule's reason in the
organizer's language, and everything typed into the ruling stays in its
fields: it was redirected to an empty form, the reason and the four numbers
lost. Through the audit page's rendered form only."""

from __future__ import annotations

import pytest
from bs4 import BeautifulSoup

from tests.web.rendered_forms import fields_of, submit
from tests.web.test_settle_from_a_page_behind import disputed_table
from tests.web.test_table_without_result import audit_of, round_one_of_two_tables
from tracker.models import Match

pytestmark = pytest.mark.django_db

REFUSED = {
    "en": "Army points alive must be between 0 and 300.",
    "es": "Puntos de ejército supervivientes: debe estar entre 0 y 300.",
}
REASON = {"en": "No game: time called during set-up", "es": "No jugaron: se acabó el tiempo"}


def refused_keeping(carol, page: str, typed: dict, said: str) -> None:
    """The ruling `typed` sent from `page`: refused on the audit page with
    `said`, every field as it was typed."""
    response = submit(carol, page, "/settle/", **typed)
    assert response.status_code == 400
    settle = BeautifulSoup(response.content.decode(), "lxml").select_one("#settle")
    assert said in " ".join(settle.get_text(" ").split())
    form = settle.select_one("form.settle-form")
    assert {name: values for name, values in fields_of(form).items() if name in typed} == {
        name: [value] for name, value in typed.items()
    }


@pytest.mark.parametrize("lang", ["en", "es"])
def test_a_ruling_past_the_points_limit_is_refused_with_what_was_typed_kept(carol, lang):
    org, (first, _second) = round_one_of_two_tables(carol)
    assert org.submit("/clock/call/").status_code == 302
    carol.defaults["HTTP_ACCEPT_LANGUAGE"] = lang
    typed = {
        "objective_a": "3",
        "objective_b": "1",
        "army_a": "400",
        "army_b": "120",
        "reason": REASON[lang],
    }
    refused_keeping(carol, audit_of(org, first), typed, REFUSED[lang])
    first.refresh_from_db()
    assert first.status != Match.Status.FINISHED and not first.result


PAST_THE_LIST = {
    "en": "Army points alive of seat A must be between 0 and 25, its whole list.",
    "es": "Los puntos de ejército supervivientes del asiento A deben estar entre 0 y 25: "
    "toda su lista.",
}


@pytest.mark.parametrize("lang", ["en", "es"])
def test_a_ruling_past_a_seat_s_whole_list_is_refused_with_what_was_typed_kept(carol, lang):
    """The organizer typed 140 for 14 army points alive on a table whose lists
    are 25 points each: it went into the standings' VP. The rules refuse an
    army alive past its own list (the organizer reads both lists), in the
    organizer's language, everything typed kept; 14 then settles it."""
    org, match, _a, _b = disputed_table(carol)  # 25-point lists, disputed
    carol.defaults["HTTP_ACCEPT_LANGUAGE"] = lang
    typed = {
        "objective_a": "6",
        "objective_b": "2",
        "army_a": "140",
        "army_b": "6",
        "reason": REASON[lang],
    }
    refused_keeping(carol, audit_of(org, match), typed, PAST_THE_LIST[lang])
    match.refresh_from_db()
    assert match.result["status"] == "disputed"
    response = submit(carol, audit_of(org, match), "/settle/", **{**typed, "army_a": "14"})
    assert response.status_code == 302
    match.refresh_from_db()
    assert match.result["status"] == "settled"
    assert match.result["army_points"] == {"A": 14, "B": 6}
