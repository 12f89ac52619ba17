"""A phone keeps the receipts of its match (issue 11, finding 9)."""

from __future__ import annotations

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
    short = f"{head[:4]}-{head[4:8]}-{head[8:12]}".upper()
    page.wait_for_function("() => document.querySelector('#receipt .kept').textContent.length > 0")
    assert f"#{seq} {short}" in page.locator("#receipt .kept").inner_text()
    kept = page.evaluate(f"() => JSON.parse(localStorage.getItem('tracker-receipts:{code}'))")
    assert [(r["seq"], r["hash"]) for r in kept] == [(int(seq), head)]
    # Reloading keeps one copy; the receipt survives the page.
    page.reload()
    page.wait_for_function("() => document.querySelector('#receipt .kept').textContent.length > 0")
    kept = page.evaluate(f"() => JSON.parse(localStorage.getItem('tracker-receipts:{code}'))")
    assert len(kept) == 1
