"""An organizer form's errors look and are announced as the player pages'
are: a `ul.error` (or `.error`) with role="alert", never Django's bare
`ul.errorlist`. Each form is the one the organizer's page rendered."""

from __future__ import annotations

import pytest
from bs4 import BeautifulSoup

from tests.web.rendered_forms import fields_of, submit
from tests.web.test_table_without_result import audit_of, round_one_of_two_tables

pytestmark = pytest.mark.django_db

REQUIRED = {"en": "This field is required.", "es": "Este campo es obligatorio."}
PAST_THE_LIMIT = {
    "en": "Army points alive must be between 0 and 300.",
    "es": "Puntos de ejército supervivientes: debe estar entre 0 y 300.",
}
DATES_BACKWARDS = {
    "en": "The end date is before the start date.",
    "es": "La fecha de fin es anterior a la de inicio.",
}


def announced_errors(html: str, scope: str, fields_in_error: int = 0) -> list[str]:
    """The error texts shown in `scope`, after checking none is unstyled,
    unannounced or not the one its field points at (`fields_in_error` of
    them point at one)."""
    found = BeautifulSoup(html, "lxml").select_one(scope)
    assert found is not None, scope
    assert not found.select(".errorlist")
    errors = found.select(".error")
    assert all(error.get("role") == "alert" for error in errors)
    # Each field in error names its message (Django's aria-describedby).
    described = {
        ident
        for field in found.select("[aria-invalid]")
        for ident in field["aria-describedby"].split()
    }
    assert len(described) == fields_in_error
    assert described <= {error.get("id") for error in errors}
    return [" ".join(error.get_text(" ").split()) for error in errors]


@pytest.mark.parametrize("lang", ["en", "es"])
def test_a_new_event_without_a_name_shows_a_styled_alert(carol, lang):
    carol.defaults["HTTP_ACCEPT_LANGUAGE"] = lang
    page = carol.get("/organizer/events/").content.decode()
    # Spaces pass the browser's `required`; the server strips them.
    response = submit(carol, page, "/organizer/events/", at="/organizer/events/", name="   ")
    assert response.status_code == 400
    assert REQUIRED[lang] in announced_errors(response.content.decode(), "form.card", 1)


@pytest.mark.parametrize("lang", ["en", "es"])
def test_a_refused_ruling_shows_a_styled_alert(carol, lang):
    org, (first, _second) = round_one_of_two_tables(carol)
    assert org.submit("/clock/call/").status_code == 302
    carol.defaults["HTTP_ACCEPT_LANGUAGE"] = lang
    response = submit(
        carol,
        audit_of(org, first),
        "/settle/",
        objective_a="3",
        objective_b="1",
        army_a="400",
        army_b="120",
        reason="Checked",
    )
    assert response.status_code == 400
    assert PAST_THE_LIMIT[lang] in announced_errors(response.content.decode(), "#settle")


@pytest.mark.parametrize("lang", ["en", "es"])
def test_backwards_history_filters_show_a_styled_alert(carol, lang):
    carol.defaults["HTTP_ACCEPT_LANGUAGE"] = lang
    page = BeautifulSoup(carol.get("/organizer/").content.decode(), "lxml")
    values = fields_of(page.select_one("form.filters"))  # a GET form: the browser sends its fields
    values.update(date_from=["2026-05-02"], date_to=["2026-05-01"])
    response = carol.get("/organizer/", values)
    assert response.status_code == 200
    assert announced_errors(response.content.decode(), "form.filters", 1) == [DATES_BACKWARDS[lang]]
