"""Issue 17: seat links, their QR codes and the printed sheets carry an
address phones reach (PUBLIC_URL, else the LAN address when the page was
opened at localhost, else the address it was opened at), the host page says
which when opened on the server's own computer, and the installed app opens
on this phone's matches.

A QR code is checked against the URL printed beside it: the <img> must be
segno's encoding of exactly that text (segno cannot decode, and no decoder
ships offline), and that text must be the address phones reach."""

from __future__ import annotations

import json
from pathlib import Path
from urllib.parse import urlparse

import pytest
from bs4 import BeautifulSoup
from django.conf import settings as django_settings

from tracker.links import qr_code
from tracker.models import Match

from .phone import Phone, phone_app
from .rendered_forms import submit_on

pytestmark = pytest.mark.django_db

LAN = "192.168.1.20"


def host_on(host_header: str, language: str | None = None) -> Phone:
    environ = {"HTTP_HOST": host_header}
    if language:
        environ["HTTP_ACCEPT_LANGUAGE"] = language
    return Phone(language, app=phone_app(environ))


def printed(html: str) -> list[tuple[str, str | None]]:
    """(URL text shown, QR image) of each seat card."""
    soup = BeautifulSoup(html, "lxml")
    cards = []
    for card in soup.select(".seatlink"):
        url = card.select_one(".seaturl")
        img = card.select_one("img.qr")
        cards.append((url.get_text(strip=True), img["src"] if img else None))
    return cards


def assert_codes_carry(html: str, base: str) -> None:
    cards = printed(html)
    assert len(cards) == 2
    for url, image in cards:
        assert url.startswith(base + "/m/") and "/s/" in url, url
        assert image == qr_code(url)  # the code is that very URL
    assert "localhost" not in " ".join(url for url, _ in cards) or base.startswith(
        "http://localhost"
    )


def notice(html: str) -> str:
    node = BeautifulSoup(html, "lxml").select_one(".phone-address")
    return node.get_text(" ", strip=True) if node else ""


def test_opened_at_localhost_the_codes_use_the_lan_address_and_the_page_says_so(settings):
    settings.PUBLIC_URL = ""
    settings.PHONE_ADDRESSES = [LAN]
    host = host_on("localhost:8000")
    host.create_match()
    assert_codes_carry(host.html, f"http://{LAN}:8000")
    said = notice(host.html)
    assert "You opened this page on this computer" in said
    assert f"http://{LAN}:8000/" in said
    # The same for the spectators' link.
    soup = BeautifulSoup(host.html, "lxml")
    watch = [a["href"] for a in soup.select("a") if a.get("href", "").endswith(f"/m/{host.code}/")]
    assert watch and all(w.startswith(f"http://{LAN}:8000/") for w in watch)
    # A phone opening that link takes the seat (the path is the same).
    alice = Phone()
    alice.claim(printed(host.html)[0][0], "Alice")
    assert Match.objects.get().seats.get(letter="A").claimed


def test_the_notice_is_in_spanish_for_a_spanish_organizer(settings):
    settings.PUBLIC_URL = ""
    settings.PHONE_ADDRESSES = [LAN]
    host = host_on("127.0.0.1:8000", "es")
    host.create_match(name="Viernes")
    said = notice(host.html)
    assert "Has abierto esta página en este ordenador" in said and f"http://{LAN}:8000/" in said


def spring_open_paired(carol) -> str:
    """Carol creates an event and pastes one pairing, from the forms her
    pages render; the event page's path."""
    response = submit_on(carol, "/organizer/events/", "card", name="Spring Open", date="2026-04-18")
    event = response["Location"]
    submit_on(carol, event, "card", pairings="1, Ana Arroyo, Bea Bravo", points_limit=300, rounds=3)
    return event


def test_public_url_wins_everywhere(settings, carol):
    settings.PUBLIC_URL = "https://tracker.example.org"
    settings.PHONE_ADDRESSES = [LAN]
    for header in ("localhost:8000", "testserver"):
        host = host_on(header)
        host.create_match()
        assert_codes_carry(host.html, "https://tracker.example.org")
    # The organizer's printed sheets: an event's, and one match's.
    event = spring_open_paired(carol)
    made = Match.objects.get(event__isnull=False)
    for path in (f"{event}sheets/", f"/organizer/matches/{made.code}/sheet/"):
        html = carol.get(path, HTTP_HOST="localhost:8000").content.decode()
        assert_codes_carry(html, "https://tracker.example.org")
        assert "https://tracker.example.org/" in notice(html)


def test_printed_sheets_opened_at_localhost_use_the_lan_address(settings, carol):
    settings.PUBLIC_URL = ""
    settings.PHONE_ADDRESSES = [LAN]
    event = spring_open_paired(carol)
    html = carol.get(f"{event}sheets/", HTTP_HOST="localhost:8000").content.decode()
    assert_codes_carry(html, f"http://{LAN}:8000")
    assert "You opened this page on this computer" in notice(html)
    assert f"Spectators: http://{LAN}:8000/m/" in BeautifulSoup(html, "lxml").get_text()


def test_without_a_lan_address_the_page_says_phones_cannot_reach_it(settings):
    settings.PUBLIC_URL = ""
    settings.PHONE_ADDRESSES = []
    host = host_on("localhost:8000")
    host.create_match()
    assert_codes_carry(host.html, "http://localhost:8000")
    said = notice(host.html)
    assert "no network address phones can reach" in said and "PUBLIC_URL" in said


def test_opened_over_the_network_the_codes_use_that_address_and_say_nothing(settings):
    settings.PUBLIC_URL = ""
    settings.PHONE_ADDRESSES = [LAN]
    host = host_on("testserver")  # a test client: no LAN; the request's own host
    host.create_match()
    assert_codes_carry(host.html, "http://testserver")
    assert notice(host.html) == ""


def test_the_installed_app_opens_on_this_phones_matches():
    manifest = json.loads(
        (Path(django_settings.BASE_DIR) / "static/tracker/manifest.webmanifest").read_text()
    )
    start = manifest["start_url"]
    assert start == "/start/"
    host = Phone()
    first = host.create_match(name="First match")
    first_code = host.code
    second = host.create_match(name="Second match")
    second_code = host.code
    alice, bob = Phone(), Phone("es")
    alice.claim(first["A"], "Alice")
    alice.claim(second["B"], "Alice")
    bob.claim(first["B"], "Bob")

    def listed(phone: Phone) -> list[str]:
        phone.visit(start)
        return [a.get_text(strip=True) for a in phone.soup.select("a.start-match")]

    # Alice opened the second match last: it comes first; then the first again.
    assert listed(alice) == ["Second match", "First match"]
    alice.open(first_code)
    assert listed(alice) == ["First match", "Second match"]
    links = [a["href"] for a in alice.soup.select("a.start-match")]
    assert links == [f"/m/{first_code}/", f"/m/{second_code}/"]
    assert "Your seat: A" in alice.text
    # Bob, in Spanish, sees only his match; the host sees what she created.
    assert listed(bob) == ["First match"]
    # The seat is "asiento" on every Spanish page (its link, its host page,
    # its log lines), not "puesto" here alone.
    assert "Tu asiento: B" in bob.text
    # (Never opened as match pages: the newest first.)
    assert listed(host) == ["Second match", "First match"]
    assert "You created it" in host.text
    # A stranger's start page lists nothing and says how to get a seat.
    stranger = Phone()
    assert listed(stranger) == []
    assert "holds no seat in any match yet" in stranger.text
    stranger_es = Phone("es")
    assert listed(stranger_es) == []
    assert "aún no tiene asiento en ninguna partida" in stranger_es.text
    assert "puesto" not in stranger_es.text
    # Alice's seat of the first match moves to a new phone: no longer hers.
    new_phone = Phone()
    new_phone.visit(urlparse(first["A"]).path)
    [move] = [f for f in new_phone.forms() if "pin" in f.names()]
    move.fill({"pin": "739164"})  # the PIN Phone.claim set
    new_phone.send(move)
    assert listed(alice) == ["Second match"]
    assert listed(new_phone) == ["First match"]


def _printed_by_serve(monkeypatch) -> str:
    """What `manage.py serve` prints before daphne takes over (not started)."""
    from io import StringIO

    from django.core.management import call_command

    from tracker.management.commands import serve

    monkeypatch.setattr(serve.CommandLineInterface, "run", lambda self, args: None)
    out = StringIO()
    call_command("serve", "--port", "8123", stdout=out)
    return out.getvalue()


def test_serve_prints_the_addresses_the_links_use(settings, monkeypatch):
    settings.PUBLIC_URL = ""
    settings.PHONE_ADDRESSES = [LAN]
    printed = _printed_by_serve(monkeypatch)
    assert f"open: http://{LAN}:8123/" in printed and "http://localhost:8123/" in printed
    settings.PUBLIC_URL = "https://tracker.example.org"
    assert "Phones open: https://tracker.example.org/ (PUBLIC_URL)" in _printed_by_serve(
        monkeypatch
    )
    settings.PUBLIC_URL = ""
    settings.PHONE_ADDRESSES = []
    assert "No network address found" in _printed_by_serve(monkeypatch)


def roster_list_links(carol, host_header: str) -> list[str]:
    """Carol creates an event and adds a player from the forms her pages
    render; the private list links her run page shows, opened at `host_header`."""
    event = submit_on(carol, "/organizer/events/", "card", name="Spring Open", date="2026-04-18")
    run = f"{event['Location']}run/"
    submit_on(carol, run, "/roster/", name="Ana Arroyo", faction="PanOceania")
    html = carol.get(run, HTTP_HOST=host_header).content.decode()
    return [code.get_text() for code in BeautifulSoup(html, "lxml").select("code.list-link")]


def test_the_rosters_list_links_opened_at_localhost_use_the_lan_address(settings, carol):
    """A list link is handed to a phone like a seat link (issue 21)."""
    settings.PUBLIC_URL = ""
    settings.PHONE_ADDRESSES = [LAN]
    [url] = roster_list_links(carol, "localhost:8000")
    assert url.startswith(f"http://{LAN}:8000/e/list/"), url
    # The link opens the player's list form.
    assert "army list" in Phone().visit(urlparse(url).path).text


def test_the_rosters_list_links_use_public_url(settings, carol):
    settings.PUBLIC_URL = "https://tracker.example.org"
    [url] = roster_list_links(carol, "testserver")
    assert url.startswith("https://tracker.example.org/e/list/"), url


@pytest.mark.parametrize(
    "host_header, environ, base",
    [
        # The scheme's default port: none in the Host header, none printed.
        ("localhost", {}, f"http://{LAN}"),
        # IPv6 loopback: its port is after the bracket, not inside it.
        ("[::1]:8000", {}, f"http://{LAN}:8000"),
        ("[::1]", {}, f"http://{LAN}"),
        # Browsers take every *.localhost name for this computer.
        ("tracker.localhost:8000", {}, f"http://{LAN}:8000"),
        # Opened over HTTPS on this computer: phones get HTTPS too.
        (
            "localhost:8443",
            {"wsgi.url_scheme": "https", "HTTP_ORIGIN": "https://localhost:8443"},
            f"https://{LAN}:8443",
        ),
    ],
)
def test_opened_on_this_computer_the_codes_keep_the_pages_scheme_and_port(
    settings, host_header, environ, base
):
    """Issue 17: however the organizer's browser named this computer, the
    codes carry the LAN address with the scheme and port of the page."""
    settings.PUBLIC_URL = ""
    settings.PHONE_ADDRESSES = [LAN]
    settings.ALLOWED_HOSTS = ["localhost", "[::1]", ".localhost"]
    host = Phone(app=phone_app({"HTTP_HOST": host_header, **environ}))
    host.create_match()
    assert_codes_carry(host.html, base)
    assert f"{base}/" in notice(host.html)


def test_with_two_lan_addresses_the_codes_use_the_first_the_server_prints(settings):
    """A computer on the venue's Wi-Fi and on a second network (a cable, a
    VPN) has two addresses: the codes carry the first, the one `manage.py
    serve` prints first, never a mix of the two."""
    settings.PUBLIC_URL = ""
    settings.PHONE_ADDRESSES = [LAN, "10.8.0.2"]
    host = host_on("localhost:8000")
    host.create_match()
    assert_codes_carry(host.html, f"http://{LAN}:8000")
    assert f"http://{LAN}:8000/" in notice(host.html)
    assert "10.8.0.2" not in host.html
