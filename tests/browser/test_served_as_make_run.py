"""Issue 17: every page, the service worker, the manifest and its icons work
as `make run` serves them (collected static files, the manifest storage,
DEBUG off, the `serve` command), and the service worker registers and
activates in Chromium. Before, /sw.js was a 500 there ("Missing staticfiles
manifest entry for ''") and no test ran that configuration."""

from __future__ import annotations

import json
import re
import urllib.parse
from urllib.parse import urlparse

import pytest

from .make_run import HASHED_STATIC, Visitor, start_as_make_run

CREATE_CAROL = """
from django.contrib.auth.models import Group, User
carol = User.objects.create_user("carol", password="carol-organizes-2026")
carol.groups.add(Group.objects.get(name="organizers"))
"""


@pytest.fixture(scope="module")
def served(tmp_path_factory):
    live = start_as_make_run(tmp_path_factory.mktemp("make-run"))
    live.manage("shell", "-c", CREATE_CAROL)
    yield live
    live.stop()


def static_urls(page) -> set[str]:
    """Every static file a page names (stylesheets, scripts, icons, images)."""
    found = set()
    for node in page.soup.select("link[href], script[src], img[src]"):
        url = node.get("href") or node.get("src")
        if url.startswith("/static/"):
            found.add(url)
    return found


def test_every_page_the_worker_the_manifest_and_the_icons_answer(served):
    assert f"On this computer: http://localhost:{served.port}/" in served.printed
    wifi = re.findall(r"same Wi-Fi, open: (http://[^/\s]+)/", served.printed)
    seen: dict[str, int] = {}
    statics: set[str] = set()

    def visit(who: Visitor, path: str, expected: int = 200):
        answer = who.get(path)
        seen[path] = answer.status
        assert answer.status == expected, (path, answer.status, answer.text[:300])
        if "text/html" in answer.headers.get("Content-Type", ""):
            statics.update(static_urls(answer))
        return answer

    host, alice, spectator, carol = (Visitor(served.url) for _ in range(4))
    home = visit(host, "/")
    # The manifest storage is on: the pages name hashed, collected files.
    assert HASHED_STATIC.search(home.text), "the pages do not use the collected static files"
    start = visit(host, "/start/")
    assert "Your matches" in start.text
    visit(host, "/offline/")

    # The manifest as the page links it, every icon it names, its start_url.
    manifest_url = home.soup.select_one("link[rel=manifest]")["href"]
    manifest = visit(host, manifest_url)
    data = json.loads(manifest.body)
    for icon in data["icons"]:
        answer = visit(host, urllib.parse.urljoin(manifest_url, icon["src"]))
        assert answer.headers["Content-Type"].startswith(icon["type"])
    assert urllib.parse.urljoin(manifest_url, data["start_url"]) == "/start/"

    # The service worker and everything it precaches.
    worker = visit(host, "/sw.js")
    assert worker.headers["Content-Type"].startswith("text/javascript")
    precache = json.loads(re.search(r"var PRECACHE = (\[.*?\]);", worker.text).group(1))
    offline_url = json.loads(re.search(r"var OFFLINE_URL = (\"[^\"]*\");", worker.text).group(1))
    assert offline_url == "/offline/"
    assert any(HASHED_STATIC.fullmatch(url) for url in precache)
    for url in precache:
        visit(host, url)

    # A match, its host page, both seat links, a player's and a spectator's page.
    created = host.submit(home, "form[action='/new/']", name="Served night")
    assert created.status == 200 and created.url.endswith("/host/"), created.url
    host_page = visit(host, urllib.parse.urlsplit(created.url).path)
    code = host_page.url.rstrip("/").split("/")[-2]
    links = [a.text for a in host_page.soup.select("a.seaturl")]
    assert len(links) == 2
    # Opened at 127.0.0.1: the links use the address `serve` printed for
    # phones (this machine's LAN address), or this one where it has none.
    expected_base = wifi[0] if wifi else served.url
    assert all(link.startswith(expected_base + "/m/") for link in links), (links, wifi)
    assert host_page.soup.select_one(".phone-address") is not None
    claim_page = visit(alice, urlparse(links[0]).path)
    played = alice.submit(claim_page, "form:has(input[name=pin])", name="Alice", pin="246813")
    assert played.status == 200 and played.url.endswith(f"/m/{code}/"), played.url
    statics.update(static_urls(played))
    assert played.headers["X-Tracker-Viewer"] == "A"
    assert played.headers["X-Tracker-Copy"] == alice.cookie("tracker_copy") != ""
    # Seat A's link on another phone: the form that moves it with its PIN.
    moving = visit(spectator, urlparse(links[0]).path)
    assert moving.soup.select_one("input[name=pin]") is not None
    watched = visit(spectator, f"/m/{code}/")
    assert "You are watching as a spectator." in watched.text
    assert watched.headers["X-Tracker-Viewer"] == ""
    assert "Served night" in visit(alice, "/start/").text
    visit(spectator, f"/m/{code}/blocks/")

    # The organizer: login, the lists, an event with pairings and its sheets,
    # the audit, the exports, logout.
    login = visit(carol, "/organizer/login/")
    answer = carol.submit(
        login, "form:has(input[name=password])", username="carol", password="carol-organizes-2026"
    )
    assert answer.status == 200 and "Match history" in answer.text
    events = visit(carol, "/organizer/events/")
    answer = carol.submit(
        events, "form:has(input[name=date])", name="Spring Open", date="2026-04-18"
    )
    assert answer.status == 200, answer.text[:300]
    event_path = urllib.parse.urlsplit(answer.url).path
    assert re.fullmatch(r"/organizer/events/\d+/", event_path), answer.url
    answer = carol.submit(
        answer, "form:has(textarea[name=pairings])", pairings="1, Ana Arroyo, Bea Bravo"
    )
    assert answer.status == 200 and "1 match created" in answer.text, answer.text[:500]
    sheets = visit(carol, event_path + "sheets/")
    assert len(sheets.soup.select("article.sheet img.qr")) == 2
    for path in (
        "/organizer/",
        event_path,
        event_path + "export.json",
        event_path + "export.csv",
        f"/organizer/matches/{code}/",
        f"/organizer/matches/{code}/sheet/",
        f"/organizer/matches/{code}/export.json",
        f"/organizer/matches/{code}/export.csv",
        f"/m/{code}/host/",
    ):
        visit(carol, path, 404 if path.endswith("/host/") else 200)
    visit(alice, f"/m/{code}/export.json")

    visit(spectator, "/admin/login/")
    assert "Served night" in visit(host, "/start/").text

    # Error pages: answered, never a 500.
    visit(spectator, "/m/no-such-match/", 404)
    visit(spectator, "/no/such/page/", 404)
    visit(spectator, f"/m/{code}/s/not-a-token/", 404)
    visit(spectator, f"/m/{code}/host/", 404)
    visit(spectator, "/organizer/matches/no-such-match/", 200)  # the login page
    refused = spectator.post(f"/m/{code}/act/AdvancePhase/", {"action_id": "x" * 12})
    assert refused.status == 403  # no CSRF token: refused, not a 500
    assert spectator.get("/sw.js").status == 200

    # Every static file any of these pages named.
    assert statics, "no static files were named"
    for url in sorted(statics):
        visit(host, url)
    assert served.errors_logged() == []
    assert 500 not in seen.values()


@pytest.mark.browser
def test_the_service_worker_registers_and_activates_in_chromium(served, phone):
    page = phone()
    console_errors: list[str] = []
    page.on("console", lambda m: console_errors.append(m.text) if m.type == "error" else None)
    page.goto(served.url + "/")
    state = page.evaluate(
        """() => navigator.serviceWorker.ready.then(r => new Promise(resolve => {
             const worker = r.active;
             if (worker.state === "activated") { resolve(worker.state); return; }
             worker.addEventListener("statechange", () => {
               if (worker.state === "activated") { resolve(worker.state); }
             });
           }))"""
    )
    assert state == "activated"
    page.reload()
    page.wait_for_function("() => navigator.serviceWorker.controller !== null")
    # What Chromium itself says of the manifest and of installing the app.
    cdp = page.context.new_cdp_session(page)
    manifest = cdp.send("Page.getAppManifest")
    assert manifest["errors"] == [], manifest["errors"]
    assert json.loads(manifest["data"])["start_url"] == "/start/"
    assert console_errors == []
