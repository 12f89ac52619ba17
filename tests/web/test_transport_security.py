"""Transport-level security: who may open a socket, CSRF on every POST,
cookies, response headers, guessing seat links and PINs, and how seats and
PINs are stored. The in-process checks use Django's test client and Channels'
communicator; a few repeat against a real daphne process, which is what a
phone actually talks to."""

from __future__ import annotations

import re

import pytest
from asgiref.sync import sync_to_async
from asgiref.testing import ApplicationCommunicator
from channels.testing import WebsocketCommunicator
from django.apps import apps
from django.contrib.sessions.models import Session
from django.core import serializers
from django.test import Client
from django.urls import URLPattern, URLResolver, get_resolver

from tests.scale.servers import (
    Browser,
    LiveServer,
    manage,
    open_socket,
    seat_players,
    server_env,
)
from tracker.asgi import application
from tracker.models import Seat
from tracker.ws_security import SameOriginValidator

from .table import claim, create_match, seated
from .test_live import socket_for

FOREIGN_ORIGINS = [
    "http://evil.example",
    "http://localhost.evil.example",
    "http://evil.example/localhost",
    # Our host but not our origin: another web app on another port, or
    # another scheme (ws_security: scheme, host and port must all match).
    "http://localhost:9999",
    "https://localhost",
    "null",
    "file://",
]


@pytest.fixture(scope="module")
def live(tmp_path_factory):
    tmp = tmp_path_factory.mktemp("transport")
    env = server_env(tmp)
    manage(env, "migrate", "--noinput", "-v0")
    server = LiveServer(env, tmp / "daphne.log")
    server.start()
    yield server
    server.stop()


# ------------------------------------------------------------------ origin


@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("origin", FOREIGN_ORIGINS)
async def test_a_socket_from_a_foreign_origin_is_refused_even_with_the_players_cookie(
    alice, bob, origin
):
    a, _b = await sync_to_async(seated)(alice, bob)
    socket = socket_for(alice, a.match, origin=origin)
    connected, _ = await socket.connect()
    assert not connected


@pytest.mark.django_db(transaction=True)
async def test_a_socket_without_an_origin_is_refused(alice, bob):
    a, _b = await sync_to_async(seated)(alice, bob)
    cookie = f"sessionid={alice.cookies['sessionid'].value}".encode()
    socket = WebsocketCommunicator(
        application,
        f"/ws/m/{a.match.code}/",
        headers=[(b"host", b"localhost"), (b"cookie", cookie)],
    )
    connected, _ = await socket.connect()
    assert not connected


async def _origin_check_lets_in(scheme: str, host: str, origin: str | None) -> bool:
    """One handshake through our origin check alone, with the scheme the
    server saw (daphne serving TLS itself says "wss"): whether it reached
    the app behind."""
    reached = []

    async def app(scope, receive, send):
        reached.append(scope)
        await send({"type": "websocket.accept"})

    headers = [(b"host", host.encode())]
    if origin is not None:
        headers.append((b"origin", origin.encode()))
    scope = {"type": "websocket", "path": "/ws/m/ABCDEF/", "scheme": scheme, "headers": headers}
    communicator = ApplicationCommunicator(SameOriginValidator(app), scope)
    await communicator.send_input({"type": "websocket.connect"})
    answer = await communicator.receive_output(10)
    return answer["type"] == "websocket.accept" and bool(reached)


# The denier is a Channels consumer: it closes old database connections.
@pytest.mark.django_db(transaction=True)
async def test_our_own_origin_check_refuses_a_handshake_without_an_origin_by_itself():
    """Channels' host check in front refuses a handshake without an Origin,
    but not where ALLOWED_HOSTS is "*" (a deployment may set it so): ours
    must refuse it on its own, before the app is reached."""
    assert not await _origin_check_lets_in("ws", "localhost", None)
    assert await _origin_check_lets_in("ws", "localhost", "http://localhost")


# The denier is a Channels consumer: it closes old database connections.
@pytest.mark.django_db(transaction=True)
async def test_a_socket_served_over_tls_takes_only_its_https_origin():
    """Served over TLS by the server itself (wss://, no proxy), the socket's
    origin is the https page on that host: its plain-HTTP twin is another
    site."""
    host = "tracker.example.org"
    assert await _origin_check_lets_in("wss", host, f"https://{host}")
    assert not await _origin_check_lets_in("wss", host, f"http://{host}")


@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("origin", ["http://localhost"])
async def test_a_socket_from_our_own_pages_is_accepted(alice, bob, origin):
    # Exactly the origin the socket is opened on (Host: localhost); other
    # ports and schemes: test_security_findings.py, finding 5.
    a, _b = await sync_to_async(seated)(alice, bob)
    socket = socket_for(alice, a.match, origin=origin)
    connected, _ = await socket.connect()
    assert connected
    assert "You: Alice" in await socket.receive_from(timeout=3)
    await socket.disconnect()


def test_the_real_server_refuses_a_foreign_origin_handshake(live):
    from websockets.exceptions import InvalidStatus

    alice, _bob = seat_players(live.url)
    with open_socket(live, alice.code, alice.browser, origin=live.url) as socket:
        assert "You: Alice" in socket.recv(timeout=5)
    for origin in ("http://evil.example", None):
        with pytest.raises(InvalidStatus) as refused:
            open_socket(live, alice.code, alice.browser, origin=origin)
        assert refused.value.response.status_code == 403


# -------------------------------------------------------------------- CSRF


def _patterns(resolvers, prefix=""):
    for entry in resolvers:
        if isinstance(entry, URLResolver):
            yield from _patterns(entry.url_patterns, prefix + str(entry.pattern))
        elif isinstance(entry, URLPattern):
            yield prefix + str(entry.pattern), entry.callback


SAMPLE = {"command": "SealNote"}


def _fill(route: str, match, seat) -> str:
    """A concrete path for a URL pattern (path converters or admin regexes)."""
    values = {"code": match.code, "token": seat.token, **SAMPLE}

    def converter(found):
        if found.group(1) == "uuid":
            return "00000000-0000-0000-0000-000000000000"
        return values.get(found.group(2), "1")

    path = re.sub(r"\(\?P<(\w+)>[^)]*\)", lambda m: values.get(m.group(1), "1"), route)
    path = re.sub(r"<(?:(\w+):)?(\w+)>", converter, path)
    path = path.replace("^", "").replace("$", "").replace("\\Z", "").replace("\\", "")
    return "/" + path.lstrip("/")


def _strict(client: Client) -> Client:
    """The same browser (its cookies), with CSRF checks on as in production."""
    strict = Client(enforce_csrf_checks=True)
    strict.cookies = client.cookies
    return strict


def test_no_view_is_exempt_from_csrf():
    exempt = [
        route
        for route, view in _patterns(get_resolver().url_patterns)
        if getattr(view, "csrf_exempt", False)
    ]
    assert exempt == []


@pytest.mark.django_db
def test_every_post_without_the_csrf_token_is_refused():
    match = create_match(Client())
    alice = _strict(claim(Client(), match, "A", "Alice").client)
    seat = match.seats.get(letter="B")
    routes = sorted({route for route, _view in _patterns(get_resolver().url_patterns)})
    assert any("act/" in route for route in routes)
    for route in routes:
        path = _fill(route, match, seat)
        response = alice.post(path, {"action_id": "csrf-probe-0001", "name": "x", "pin": "1234"})
        assert response.status_code == 403, (route, path, response.status_code)
        # Our CSRF page (tracker/errors.py), not another 403 of the view's.
        assert b"This form has expired" in response.content, (route, path)
    assert not match.seats.get(letter="B").claimed
    assert match.events.count() == 2  # created, Alice's claim: nothing from the probes


@pytest.mark.django_db
def test_a_post_with_the_token_but_a_foreign_origin_is_refused():
    match = create_match(Client())
    alice = _strict(claim(Client(), match, "A", "Alice").client)
    alice.get(f"/m/{match.code}/")
    token = alice.cookies["csrftoken"].value
    path = f"/m/{match.code}/act/SealNote/"
    data = {"action_id": "csrf-probe-0002", "label": "x", "text": "y"}
    refused = alice.post(
        path,
        data,
        HTTP_X_CSRFTOKEN=token,
        HTTP_ORIGIN="http://evil.example",
        HTTP_HX_REQUEST="true",
    )
    assert refused.status_code == 403
    # The same request from our own origin is accepted (the probe is not broken).
    accepted = alice.post(
        path, data, HTTP_X_CSRFTOKEN=token, HTTP_ORIGIN="http://testserver", HTTP_HX_REQUEST="true"
    )
    assert accepted.status_code == 200


def test_the_real_server_refuses_a_post_without_the_csrf_token(live):
    alice, _bob = seat_players(live.url)
    path = f"/m/{alice.code}/act/SealNote/"
    bare = alice.browser.request(
        "POST", path, data={"action_id": "csrf-live-0001", "label": "x", "text": "y"}
    )
    assert bare.status == 403 and "This form has expired" in bare.body


# ----------------------------------------------------------------- cookies


@pytest.mark.django_db
def test_session_and_csrf_cookies_are_httponly_and_samesite(alice):
    match = create_match(alice)
    seat = match.seats.get(letter="A")
    alice.get(f"/m/{match.code}/s/{seat.token}/")
    response = alice.post(f"/m/{match.code}/s/{seat.token}/", {"name": "Alice", "pin": "739164"})
    session = response.cookies["sessionid"]
    assert session["httponly"] is True
    assert session["samesite"] == "Lax"
    csrf = alice.cookies["csrftoken"]
    assert csrf["samesite"] == "Lax"


def test_the_real_server_sets_httponly_samesite_cookies(live):
    browser = Browser(live.url)
    reply = browser.post(
        "/new/",
        {"name": "Cookies", "points_limit": 300, "rounds": 3, "mission": "", "table": ""},
        htmx=False,
    )
    assert reply.status == 302
    cookies = {c.split("=", 1)[0]: c for c in reply.headers.get_all("Set-Cookie")}
    assert "HttpOnly" in cookies["sessionid"] and "SameSite=Lax" in cookies["sessionid"]
    first_visit = Browser(live.url).get("/")
    csrf = next(c for c in first_visit.headers.get_all("Set-Cookie") if c.startswith("csrftoken="))
    assert "HttpOnly" in csrf and "SameSite=Lax" in csrf


def test_cookies_are_secure_behind_https(tmp_path):
    env = server_env(tmp_path, HTTPS="1")
    shown = manage(
        env,
        "shell",
        "-c",
        "from django.conf import settings as s; "
        "print(s.SESSION_COOKIE_SECURE, s.CSRF_COOKIE_SECURE, s.SESSION_COOKIE_HTTPONLY)",
    )
    assert shown.strip().splitlines()[-1].split() == ["True", "True", "True"]


# ----------------------------------------------------------------- headers


def _assert_secure_headers(headers, where):
    csp = headers.get("Content-Security-Policy", "")
    directives = dict(
        (part.strip().split(" ", 1) + [""])[:2] for part in csp.split(";") if part.strip()
    )
    assert directives.get("default-src") == "'self'", where
    script = directives.get("script-src", directives.get("default-src", ""))
    assert "'unsafe-inline'" not in script and "'unsafe-eval'" not in script, where
    assert "data:" not in script and "*" not in script, where
    assert directives.get("frame-ancestors") == "'none'", where
    assert directives.get("object-src") == "'none'", where
    # Whatever slipped into a page could neither send what it read to
    # another site (fetch, websocket, form) nor re-point its relative links.
    assert directives.get("connect-src") == "'self'", where
    assert directives.get("form-action") == "'self'", where
    assert directives.get("base-uri") == "'none'", where
    assert directives.get("img-src") == "'self' data:", where
    assert directives.get("style-src") == "'self'", where
    features = {p.strip() for p in headers.get("Permissions-Policy", "").split(",")}
    assert {"camera=()", "microphone=()", "geolocation=()"} <= features, where
    assert headers.get("X-Frame-Options") == "DENY", where
    assert headers.get("Referrer-Policy") == "same-origin", where
    assert headers.get("X-Content-Type-Options") == "nosniff", where


def _assert_no_inline_script(html, where):
    for tag in re.findall(r"<script\b[^>]*>", html, re.I):
        assert re.search(r"\ssrc=", tag), (where, tag)
    assert not re.search(r"<script\b[^>]*>\s*[^<\s]", html, re.I), where
    assert not re.search(r"\son[a-z]+\s*=", html, re.I), where
    assert not re.search(r"\s(?:hx|data-hx)-on", html, re.I), where
    assert "javascript:" not in html.lower(), where


@pytest.mark.django_db
def test_every_kind_of_page_carries_the_security_headers_and_no_inline_script(alice, bob, mallory):
    a, _b = seated(alice, bob)
    code = a.match.code
    token = a.match.seats.get(letter="A").token
    fresh = create_match(Client())
    responses = {
        "home": mallory.get("/"),
        "player page": alice.get(f"/m/{code}/"),
        "spectator page": mallory.get(f"/m/{code}/"),
        "host page": alice.get(f"/m/{code}/host/"),
        "claim page": mallory.get(f"/m/{fresh.code}/s/{fresh.seats.get(letter='A').token}/"),
        "move page": mallory.get(f"/m/{code}/s/{token}/"),
        "wrong PIN": mallory.post(f"/m/{code}/s/{token}/", {"pin": "0000"}),
        "htmx action": a.raw_post("SealNote", label="x", text="y"),
        "htmx partial": alice.get(f"/m/{code}/blocks/", HTTP_HX_REQUEST="true"),
        "spectator act": mallory.post(f"/m/{code}/act/SealNote/", {"action_id": "abcdefgh"}),
        "unknown match": mallory.get("/m/no-such-match/"),
        "wrong method": mallory.get(f"/m/{code}/act/SealNote/"),
        "admin login": mallory.get("/admin/login/"),
    }
    assert responses["wrong PIN"].status_code == 403
    assert responses["unknown match"].status_code == 404
    assert responses["wrong method"].status_code == 405
    for where, response in responses.items():
        _assert_secure_headers(response.headers, where)
        if response.get("Content-Type", "").startswith("text/html"):
            _assert_no_inline_script(response.content.decode(), where)
    page = responses["player page"].content.decode()
    assert '"allowEval": false' in page and '"allowScriptTags": false' in page


def test_the_real_server_sends_the_security_headers_on_pages_and_static_files(live):
    alice, _bob = seat_players(live.url)
    page = alice.browser.get(f"/m/{alice.code}/")
    _assert_secure_headers(page.headers, "match page")
    _assert_no_inline_script(page.body, "match page")
    scripts = re.findall(r'<script src="([^"]+)"', page.body)
    assert scripts
    for src in scripts:
        static = alice.browser.get(src)
        assert static.status == 200, src
        # Served by WhiteNoise before the clickjacking middleware: no
        # X-Frame-Options on a script, which nothing frames anyway.
        assert static.headers.get("X-Content-Type-Options") == "nosniff", src
        assert "script-src 'self'" in static.headers.get("Content-Security-Policy", ""), src
        assert "javascript" in static.headers.get("Content-Type", ""), src


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("host", "secure", "sent"),
    [
        ("localhost:8000", False, True),
        ("127.0.0.1:8000", False, True),
        ("[::1]:8000", False, True),
        ("192.168.1.20:8000", False, False),  # the venue's LAN address
        ("tracker.example.org", True, True),
        ("tracker.example.org", False, False),
        # Only "localhost" and names under it are this computer: a LAN name
        # that merely contains the word is plain HTTP like any other.
        ("localhost.venue.example", False, False),
        ("club-localhost:8000", False, False),
    ],
)
def test_the_opener_policy_is_sent_where_browsers_honour_it(settings, host, secure, sent):
    """Cross-Origin-Opener-Policy only on HTTPS and localhost: on the venue's
    plain-HTTP LAN address browsers ignore it, and Chromium logged so on
    every page (tests/browser/test_venue_address_console.py)."""
    settings.ALLOWED_HOSTS = [host.rsplit(":", 1)[0] if not host.startswith("[") else "[::1]"]
    response = Client().get("/", HTTP_HOST=host, secure=secure)
    assert response.status_code == 200
    assert response.headers.get("Cross-Origin-Opener-Policy") == ("same-origin" if sent else None)
    _assert_secure_headers(response.headers, host)


# ---------------------------------------------------------------- guessing


def _seat_url(match, letter):
    return f"/m/{match.code}/s/{match.seats.get(letter=letter).token}/"


@pytest.fixture
def quick_pins(settings):
    """The limits do not depend on the hasher; spare the slow one here."""
    settings.GUESS_LIMIT = 3
    settings.SEAT_PIN_BUDGET = 3
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]


@pytest.mark.django_db
@pytest.mark.usefixtures("quick_pins")
def test_pin_guessing_is_limited_per_seat_whatever_the_session_or_address(alice):
    # Issue 22: each guess from a brand-new browser at a new address (no
    # cookie, no address to count): the seat's budget still counts it.
    match = create_match(alice)
    claim(alice, match, "A", "Alice", pin="582914")
    statuses = [
        Client(REMOTE_ADDR=f"10.0.3.{n}").post(_seat_url(match, "A"), {"pin": f"{n:06d}"})
        for n in range(5)
    ]
    assert [r.status_code for r in statuses] == [403, 403, 403, 429, 429]
    # Spent: the right PIN is not checked either, or the budget would stop no one.
    assert Client().post(_seat_url(match, "A"), {"pin": "582914"}).status_code == 429
    assert "You: Alice" in alice.get(f"/m/{match.code}/").content.decode()


@pytest.mark.django_db
@pytest.mark.usefixtures("quick_pins")
def test_wrong_pins_within_the_budget_never_refuse_the_right_pin(alice, bob):
    # Issue 11, finding 1, and issue 22: guesses cost the owner nothing
    # until the seat's budget is spent, from whatever address they come.
    match = create_match(alice)
    claim(alice, match, "A", "Alice", pin="582914")
    claim(bob, match, "B", "Bob", pin="580417")
    for n in range(2):
        guesser = Client()  # the same test address as Alice's new phone
        assert guesser.post(_seat_url(match, "A"), {"pin": f"{n:06d}"}).status_code == 403
    fresh = Client()
    assert fresh.post(_seat_url(match, "A"), {"pin": "582914"}).status_code == 302
    assert "You: Alice" in fresh.get(f"/m/{match.code}/").content.decode()


def test_a_forged_x_forwarded_for_does_not_reset_the_wrong_link_limit_on_the_make_run_server(
    tmp_path,
):
    # Without BEHIND_PROXY, X-Forwarded-For is never read: a forged address
    # does not reset the per-address limit on wrong seat links.
    env = server_env(tmp_path, GUESS_LIMIT="3")
    manage(env, "migrate", "--noinput", "-v0")
    server = LiveServer(env, tmp_path / "serve.log", make_run=True).start()
    try:
        alice, _bob = seat_players(server.url, pin="582914")
        statuses = []
        for n in range(5):
            mallory = Browser(server.url)
            forged = {"X-Forwarded-For": f"203.0.113.{n + 1}"}
            path = f"/m/{alice.code}/s/guess{n:040d}/"
            statuses.append(mallory.request("GET", path, headers=forged).status)
        assert statuses == [404, 404, 404, 429, 429]
        # A right link is still answered (a venue is one address, issue 22).
        right = Browser(server.url).get(f"/m/{alice.code}/s/{alice.seat_token}/")
        assert right.status == 200 and "Seat A is taken" in right.body
    finally:
        server.stop()


@pytest.mark.django_db
@pytest.mark.usefixtures("quick_pins")
def test_each_seat_has_its_own_pin_budget(alice):
    match = create_match(alice)
    claim(alice, match, "A", "Alice", pin="582914")
    claim(Client(), match, "B", "Bob", pin="580417")
    mallory = Client()
    statuses = [
        mallory.post(_seat_url(match, "A"), {"pin": "000001"}).status_code for _ in range(4)
    ]
    assert statuses == [403, 403, 403, 429]
    # B's budget is B's own: spending A's costs B nothing.
    assert mallory.post(_seat_url(match, "B"), {"pin": "000001"}).status_code == 403
    assert Client().post(_seat_url(match, "B"), {"pin": "580417"}).status_code == 302


@pytest.mark.django_db
def test_seat_link_guessing_is_rate_limited(alice, mallory, settings):
    settings.GUESS_LIMIT = 3
    match = create_match(alice)
    guesses = [mallory.get(f"/m/{match.code}/s/guess{n:040d}/").status_code for n in range(5)]
    assert guesses == [404, 404, 404, 429, 429]
    # A right link is still answered: only wrong ones are refused (issue 22).
    assert mallory.get(_seat_url(match, "B")).status_code == 200


# ----------------------------------------------------------- seats and PINs


@pytest.mark.django_db
def test_seat_links_are_unguessable_and_belong_to_one_match():
    matches = [create_match(Client(), name=f"Table {n}") for n in range(10)]
    tokens = [seat.token for m in matches for seat in m.seats.all()]
    assert len(set(tokens)) == len(tokens) == 20
    # secrets.token_urlsafe(32): 43 URL-safe characters, 256 bits.
    assert all(re.fullmatch(r"[A-Za-z0-9_-]{43,}", token) for token in tokens)
    assert len({t[:8] for t in tokens}) == 20  # no shared prefix or counter
    first, second = matches[0], matches[1]
    borrowed = f"/m/{second.code}/s/{first.seats.get(letter='A').token}/"
    assert Client().get(borrowed).status_code == 404


@pytest.mark.django_db
def test_a_pin_is_stored_only_as_a_salted_slow_hash(alice, bob):
    match = create_match(alice)
    claim(alice, match, "A", "Alice", pin="739164")
    claim(bob, match, "B", "Bob", pin="739164")
    a, b = Seat.objects.filter(match=match).order_by("letter")
    assert a.pin_hash != b.pin_hash  # salted: the same PIN does not show
    assert a.pin_hash.split("$")[0] in ("pbkdf2_sha256", "argon2", "bcrypt_sha256", "scrypt")
    # Nowhere in the database: not in any model's rows, not in any session.
    for model in apps.get_models():
        dumped = serializers.serialize("json", model.objects.all())
        assert "739164" not in dumped, model
    for session in Session.objects.all():
        assert "739164" not in str(session.get_decoded())
    for client in (alice, bob):
        assert "739164" not in client.get(f"/m/{match.code}/").content.decode()
