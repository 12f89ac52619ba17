"""Issue 18: a phone that misses a push catches up by itself.

Pushes are at most once (a channel layer drops a message past its expiry or
capacity; a Redis restart drops them all). Here a real lost push: Bob's tap
is written by another process (`manage.py shell` on the server's database),
whose in-memory channel layer never reaches the server's sockets, so Alice's
phone hears nothing of it. Each pong says the match's newest seq
(tracker/match_seqs.py); app.js, behind it for a couple of seconds, asks for
what it lacks over its socket, and Alice's page shows Bob's trooper Prone,
at the newest seq, still Live. One phone in Spanish and one in English.
"""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from tests.scale.servers import make_matches

pytestmark = pytest.mark.browser

LIVE = {"en": "Live", "es": "En directo"}
LOCALE = {"en": "en-GB", "es": "es-ES"}
# A tap written outside the server: its push goes nowhere.
ELSEWHERE = """
from tracker import actions
from tracker.models import Match
from tracker.rules.conditions import SetTrooperState
match = Match.objects.get(code={code!r})
actions.perform(match, "B", SetTrooperState(trooper_id={trooper!r}, condition="normal", tokens=["prone"]))
print(Match.objects.get(code={code!r}).seq)
"""


@pytest.fixture(scope="module")
def matches(server):
    return make_matches(server.env, 2)


@pytest.mark.parametrize("lang", ["en", "es"])
def test_a_phone_whose_push_was_lost_shows_the_newest_seq_by_itself(server, matches, phone, lang):
    n = lang == "es"
    match = matches[n]
    trooper = "b0000000"  # Bob's first trooper (bench/setup_matches.army)
    page = phone(LOCALE[lang])
    page.context.add_cookies([{"name": "sessionid", "value": match["A"], "url": server.url}])
    page.goto(f"{server.url}/m/{match['code']}/")
    expect(page.locator("#connection")).to_have_text(LIVE[lang])
    row = page.locator(f"#trooper-{trooper}")
    before = row.inner_html()
    seq = int(page.locator("#seq").get_attribute("data-seq"))

    newest = int(server.shell(ELSEWHERE.format(code=match["code"], trooper=trooper)).split()[-1])
    assert newest > seq

    # No push comes; the pongs say the newer seq and the phone asks for it.
    expect(page.locator("#seq")).to_have_attribute("data-seq", str(newest), timeout=10_000)
    assert row.inner_html() != before
    expect(page.locator("#connection")).to_have_text(LIVE[lang])
