"""A phone keeps the receipts of its match (issue 11, finding 9)."""

from __future__ import annotations

import gettext
from pathlib import Path

import pytest

# ------------------------------------------ receipts kept on the phone


FINISH_A_MATCH = """
from django.conf import settings
from django.test import Client
from tests.web.organizer_table import finished
settings.ALLOWED_HOSTS.append("testserver")  # the rendered-form phones' host
alice, bob = Client(HTTP_HOST="127.0.0.1"), Client(HTTP_HOST="127.0.0.1")
a, b = finished(alice, bob)
print(a.match.code, alice.cookies["sessionid"].value)
"""


def test_a_phone_keeps_its_receipt_in_local_storage_and_shows_it(server, phone):
    """Issue 11, finding 9: the receipt lives on the phone, outside the
    server's reach, and the page lists the receipts this phone kept."""
    code, session = server.shell(FINISH_A_MATCH).split()[-2:]
    page = phone()
    page.context.add_cookies([{"name": "sessionid", "value": session, "url": server.url}])
    page.goto(f"{server.url}/m/{code}/")
    receipt = page.locator("#receipt")
    seq, head = receipt.get_attribute("data-seq"), receipt.get_attribute("data-hash")
    # The code shown is 128 bits, what the audit accepts (issue 22).
    short = "-".join(head[i : i + 4] for i in range(0, 32, 4)).upper()
    page.wait_for_function("() => document.querySelector('#receipt .kept').textContent.length > 0")
    assert f"#{seq} {short}" in page.locator("#receipt .kept").inner_text()
    kept = page.evaluate(f"() => JSON.parse(localStorage.getItem('tracker-receipts:{code}'))")
    assert [(r["seq"], r["hash"]) for r in kept] == [(int(seq), head)]
    # Reloading keeps one copy; the receipt survives the page.
    page.reload()
    page.wait_for_function("() => document.querySelector('#receipt .kept').textContent.length > 0")
    kept = page.evaluate(f"() => JSON.parse(localStorage.getItem('tracker-receipts:{code}'))")
    assert len(kept) == 1


# ------------------------------------ a rewritten history (issue 22)

REWRITE_THE_RESULT = """
from tests.web.organizer_table import rewrite_log
from tracker.models import Match
match = Match.objects.get(code=%r)
confirmed = match.events.get(kind="ResultConfirmed").seq
rewrite_log(match, confirmed, edit=lambda row: row.data.replace('"A":7', '"A":2'))
match.refresh_from_db()
print(match.seq, match.last_hash)
"""
LOCALE = Path(__file__).resolve().parents[2] / "locale" / "es" / "LC_MESSAGES" / "django.mo"


def in_language(msgid: str, language: str) -> str:
    if language == "en":
        return msgid
    with open(LOCALE, "rb") as handle:
        return gettext.GNUTranslations(handle).gettext(msgid)


def code_of(head: str) -> str:
    return "-".join(head[i : i + 4] for i in range(0, 32, 4)).upper()


@pytest.mark.parametrize(("language", "locale"), [("en", "en-GB"), ("es", "es-ES")])
def test_a_phone_shown_a_rewritten_history_warns_and_keeps_both_receipts(
    server, phone, language, locale
):
    """Issue 22: a phone that reopened a match rewritten by someone holding
    the database (every hash after the edit recomputed, so the chain
    verifies) quietly kept a second hash for the same seq and showed the new
    code. Now it says the history changed, in its language, and keeps both."""
    code, session = server.shell(FINISH_A_MATCH).split()[-2:]
    page = phone(locale)
    page.context.add_cookies(
        [
            {"name": "sessionid", "value": session, "url": server.url},
            {"name": "django_language", "value": language, "url": server.url},
        ]
    )
    page.goto(f"{server.url}/m/{code}/")
    receipt = page.locator("#receipt")
    seq, head = receipt.get_attribute("data-seq"), receipt.get_attribute("data-hash")
    page.wait_for_function("() => document.querySelector('#receipt .kept').textContent.length > 0")
    warning = page.locator("#receipt .receipt-changed")
    assert warning.is_hidden()  # nothing changed yet: no alarm

    new_seq, new_head = server.shell(REWRITE_THE_RESULT % code).split()[-2:]
    assert new_seq == seq and new_head != head  # the same seq, another history

    page.goto(f"{server.url}/m/{code}/")
    assert page.locator("#receipt").get_attribute("data-hash") == new_head
    warning.wait_for(state="visible", timeout=10_000)
    assert warning.get_attribute("role") == "alert"
    said = warning.locator("strong").inner_text()
    assert said == in_language("The history of this match changed since you kept it.", language)
    if language == "es":
        assert said != "The history of this match changed since you kept it."
    codes = warning.locator(".codes").inner_text()
    assert f"#{seq} {code_of(head)}" in codes and f"#{seq} {code_of(new_head)}" in codes
    assert codes.startswith(in_language("Kept on this phone:", language))
    kept = page.evaluate(f"() => JSON.parse(localStorage.getItem('tracker-receipts:{code}'))")
    assert [(r["seq"], r["hash"]) for r in kept] == [(int(seq), head), (int(seq), new_head)]
    listed = page.locator("#receipt .kept").inner_text()
    assert code_of(head) in listed and code_of(new_head) in listed
    # Reopened again: still warns, still two receipts, not three.
    page.reload()
    warning.wait_for(state="visible", timeout=10_000)
    kept = page.evaluate(f"() => JSON.parse(localStorage.getItem('tracker-receipts:{code}'))")
    assert len(kept) == 2
