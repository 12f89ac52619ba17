"""A receipt line the event's audit cannot check says so, then why, each
in its own sentence: "Línea 1: Este código tiene 4 dígitos…" put a capital
after a colon, which Spanish does not write (organizer/refusals.py)."""

from __future__ import annotations

import pytest
from bs4 import BeautifulSoup

from tests.web.test_event_round_checks import event_of, paste_receipts, publish

pytestmark = pytest.mark.django_db

SAID = {
    "en": "Line 1: the code cannot be checked. This code has 4 digits: a receipt is checked on "
    "at least 32",
    "es": "Línea 1: no se puede comprobar el código. Este código tiene 4 dígitos: un recibo se "
    "comprueba con al menos 32",
}


@pytest.mark.parametrize("lang", ["en", "es"])
def test_a_receipt_code_too_short_is_refused_in_two_sentences(carol, lang):
    carol.cookies["django_language"] = lang
    event, org = event_of(carol, "Ana, PanOceania\nBea, Yu Jing")
    publish(org, seed=3)
    response = paste_receipts(carol, event, "1, 1, 5, ABCD")
    assert response.status_code == 400
    page = " ".join(BeautifulSoup(response.content, "lxml").get_text(" ").split())
    assert SAID[lang] in page
