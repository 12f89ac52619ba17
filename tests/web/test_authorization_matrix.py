"""Who may do what: every URL and websocket route x {seat A, seat B,
spectator, anonymous, organizer, a player of another match}, in one table.

The routes come from the URL resolver and tracker.routing, so a route added
without a row here fails `test_every_route_has_a_row`. The admin is Django's
and staff-only: one row covers every admin route (each is still requested).

A cell is the status code expected, or "302 <prefix>" for a redirect whose
Location starts with <prefix>. POST cells are given where a route takes a
POST; the other routes must refuse it.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

import pytest
from asgiref.sync import sync_to_async
from channels.testing import WebsocketCommunicator
from django.core.cache import cache
from django.test import Client
from django.urls import URLPattern, URLResolver, get_resolver

from tracker.asgi import application
from tracker.models import Match, MatchEvent, Seat, TournamentEvent
from tracker.reading import load_state
from tracker.routing import websocket_urlpatterns

from .flows import seal_both, set_up
from .table import claim, create_match

ROLES = ("A", "B", "spectator", "anonymous", "organizer", "other")
FAST_PINS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
LOGIN = "302 /organizer/login/?next="
ADMIN_LOGIN = "302 /admin/login/?next="


def every(cell) -> dict:
    return dict.fromkeys(ROLES, cell)


def players(cell, others) -> dict:
    return {role: cell if role in ("A", "B") else others for role in ROLES}


def organizer(cell, others=LOGIN) -> dict:
    return {role: cell if role == "organizer" else others for role in ROLES}


@dataclass(frozen=True)
class Row:
    get: dict
    post: dict = field(default_factory=lambda: every(405))
    data: dict = field(default_factory=dict)  # what a POST sends
    htmx: bool = False  # sent as htmx does (HX-Request)


MATCH = "/m/{code}/"
ROWS: dict[str, Row] = {
    # Anyone may open the home page and create a match.
    "": Row(get=every(200)),
    # The service worker script: public, like the static files it caches.
    "sw.js": Row(get=every(200), post=every(405)),
    # The installed app's start page lists this browser's own matches only;
    # the offline page is the same for everyone (issue 17).
    "start/": Row(get=every(200), post=every(405)),
    "offline/": Row(get=every(200), post=every(405)),
    # This browser's own CSRF token (app.js renews an expired one with it).
    "csrf/": Row(get=every(200), post=every(405)),
    "new/": Row(
        get=every(405),
        post=every("302 /m/"),
        data={"name": "Probe", "points_limit": 300, "rounds": 3},
    ),
    # The match page is for everyone with its link; non-players see the
    # spectator's view (what that view holds is the leak harness's business).
    "m/<slug:code>/": Row(get=every(200)),
    # Seat links and QR codes: only the browser that created the match.
    "m/<slug:code>/host/": Row(get={**every(404), "A": 200}),
    # Handing seat B to a new phone: an organizer, or a host seated nowhere in
    # the match. Its host here is Alice, who plays A: refused (issue 22).
    "m/<slug:code>/hand-off/<slug:letter>/": Row(
        get=every(405),
        post={**every(404), "A": 403, "organizer": "302 /organizer/matches/"},
    ),
    # Seat A's link once claimed: its holder goes to the match; the holder of
    # the other seat is refused (issue 22); anyone else gets the PIN form,
    # and a wrong PIN is refused.
    "m/<slug:code>/s/<slug:token>/": Row(
        get={**every(200), "A": "302 /m/", "B": 403},
        post={**every(403), "A": "302 /m/"},
        data={"pin": "0000"},
    ),
    # Acting, the private draft and the player export: the two players only.
    "m/<slug:code>/act/<slug:command>/": Row(get=every(405), post=players(200, 403), htmx=True),
    "m/<slug:code>/draft/add/": Row(get=every(405), post=players(200, 403), htmx=True),
    "m/<slug:code>/draft/remove/": Row(get=every(405), post=players(200, 403), htmx=True),
    "m/<slug:code>/draft/import/": Row(get=every(405), post=players(200, 403), htmx=True),
    "m/<slug:code>/draft/edit/": Row(get=every(405), post=players(200, 403), htmx=True),
    "m/<slug:code>/draft/hand/": Row(get=every(405), post=players(200, 403), htmx=True),
    "m/<slug:code>/blocks/": Row(get=every(200), htmx=True),
    # Whether a tap of one's own seat landed (app.js, after a one-way stall):
    # the two players only, each of their own seat's taps.
    "m/<slug:code>/tap/<slug:action_id>/": Row(get=players(200, 403), post=every(405)),
    "m/<slug:code>/export.json": Row(get=players(200, 403)),
    # Organizers: anyone else is sent to the login page (a logged-in account
    # that is not an organizer gets 403: tests/web/test_organizer_access.py).
    "organizer/login/": Row(
        get={**every(200), "organizer": "302 /organizer/"},
        post={**every(200), "organizer": "302 /organizer/"},
        data={"username": "carol", "password": "wrong"},
    ),
    "organizer/logout/": Row(get=every(405), post=every("302 /organizer/login/")),
    "organizer/": Row(get=organizer(200)),
    "organizer/events/": Row(get=organizer(200), post=organizer(400)),
    "organizer/events/<int:pk>/": Row(get=organizer(200), post=organizer(400)),
    "organizer/events/<int:pk>/sheets/": Row(get=organizer(200)),
    "organizer/events/<int:pk>/export.json": Row(get=organizer(200)),
    "organizer/events/<int:pk>/export.csv": Row(get=organizer(200)),
    # Running an event (issue 21): organizers only; the probe's empty forms
    # are 400, and the scene's event has no roster and no round (404, or
    # back to the event's page when there is no drawn round).
    "organizer/events/<int:pk>/run/": Row(get=organizer(200)),
    "organizer/events/<int:pk>/run/live/": Row(get=organizer(200)),
    "organizer/events/<int:pk>/roster/": Row(get=every(405), post=organizer(400)),
    "organizer/events/<int:pk>/roster/paste/": Row(get=every(405), post=organizer(400)),
    "organizer/events/<int:pk>/roster/<int:player>/drop/": Row(get=every(405), post=organizer(404)),
    "organizer/events/<int:pk>/roster/<int:player>/late-list/": Row(
        get=every(405), post=organizer(404)
    ),
    "organizer/events/<int:pk>/scoring/": Row(get=every(405), post=organizer(400)),
    "organizer/events/<int:pk>/lists/": Row(get=every(405), post=organizer(400)),
    "organizer/events/<int:pk>/rounds/draw/": Row(get=every(405), post=organizer(400)),
    "organizer/events/<int:pk>/rounds/swap/": Row(
        get=every(405), post=organizer("302 /organizer/events/")
    ),
    "organizer/events/<int:pk>/rounds/publish/": Row(get=every(405), post=organizer(400)),
    "organizer/events/<int:pk>/rounds/<int:number>/clock/<slug:action>/": Row(
        get=every(405), post=organizer(404)
    ),
    "organizer/events/<int:pk>/audit/": Row(get=organizer(200)),
    "organizer/events/<int:pk>/audit/receipts/": Row(get=every(405), post=organizer(400)),
    "organizer/events/<int:pk>/standings.csv": Row(get=organizer(200)),
    "organizer/events/<int:pk>/results.csv": Row(get=organizer(200)),
    # The event's public page (standings, pairings) is anyone's; a list link
    # is a private token: the scene's seat token is no list link.
    "e/<int:pk>/": Row(get=every(200)),
    "e/list/<slug:token>/": Row(get=every(404), post=every(404)),
    "organizer/matches/<slug:code>/": Row(get=organizer(200)),
    "organizer/matches/<slug:code>/open/": Row(
        get=every(405), post=organizer("302 /organizer/matches/")
    ),
    "organizer/matches/<slug:code>/sheet/": Row(get=organizer(200)),
    # Settling a dispute: organizers only (the probe's empty form is a 400).
    "organizer/matches/<slug:code>/settle/": Row(get=every(405), post=organizer(400)),
    # In play: the organizer must open the sealed information first (recorded
    # in the match's log), so the JSON export sends them to the audit page.
    "organizer/matches/<slug:code>/export.json": Row(get=organizer("302 /organizer/matches/")),
    "organizer/matches/<slug:code>/export.csv": Row(get=organizer(200)),
    # Language switch: anyone; a GET changes nothing and goes back.
    "i18n/setlang/": Row(get=every("302 /"), post=every("302 /"), data={"language": "en"}),
    # Django's admin: staff only, and none of these roles is staff.
    "admin/login/": Row(
        get=every(200), post=every(200), data={"username": "carol", "password": "wrong"}
    ),
    # Logging out of an admin one is not logged into goes back to its index.
    "admin/logout/": Row(get=every("302 /admin/"), post=every("302 /admin/")),
}
# Every other route under admin/ (changelists, change forms, history...).
ADMIN_ROW = Row(get=every(ADMIN_LOGIN), post=every(ADMIN_LOGIN))

# Websockets: everyone with the match link may watch; a socket shows the
# view of the seat its session holds, whatever it asks for.
WS_ROWS = {
    "ws/m/<slug:code>/": {
        "A": "You: Alice",
        "B": "You: Bob",
        "spectator": "You are watching as a spectator.",
        "anonymous": "You are watching as a spectator.",
        "organizer": "You are watching as a spectator.",
        "other": "You are watching as a spectator.",
    },
    # Every other websocket path: refused (None), for everyone.
    "": dict.fromkeys(("A", "B", "spectator", "anonymous", "organizer", "other")),
}


def routes(resolvers=None, prefix=""):
    for entry in get_resolver().url_patterns if resolvers is None else resolvers:
        if isinstance(entry, URLResolver):
            yield from routes(entry.url_patterns, prefix + str(entry.pattern))
        elif isinstance(entry, URLPattern):
            yield prefix + str(entry.pattern)


def row_for(route: str) -> Row | None:
    if route in ROWS:
        return ROWS[route]
    if route.startswith("admin/"):
        return ADMIN_ROW
    return None


def test_every_route_has_a_row():
    missing = [route for route in routes() if row_for(route) is None]
    assert missing == [], f"routes without a row in the authorization matrix: {missing}"
    stale = sorted(set(ROWS) - set(routes()))
    assert stale == [], f"rows for routes that no longer exist: {stale}"
    ws = [str(pattern.pattern) for pattern in websocket_urlpatterns]
    assert sorted(ws) == sorted(WS_ROWS), "websocket routes and WS_ROWS differ"


# ------------------------------------------------------------------ the scene


@dataclass
class Scene:
    match: Match
    token: str  # seat A's link
    event: TournamentEvent
    clients: dict

    def client(self, role: str) -> Client:
        return self.clients.get(role) or Client()  # anonymous: no cookie, ever

    def path(self, route: str) -> str:
        values = {
            "code": self.match.code,
            "token": self.token,
            "command": "UndoLastStep",  # refused: nothing to undo
            "pk": str(self.event.pk),
            "object_id": str(self.match.pk),
            "content_type_id": "1",
            "id": "1",
            "letter": "B",
            "app_label": "tracker",
            "url": "no-such-page/",
            "player": "999999",
            "number": "1",
            "action": "start",
            "action_id": "probe-tap-00000001",
        }
        path = re.sub(r"<(?:\w+:)?(\w+)>", lambda m: values[m.group(1)], route)
        path = re.sub(r"\(\?P<(\w+)>[^)]*\)", lambda m: values[m.group(1)], path)
        return "/" + path.replace("^", "").replace("$", "")


def build_scene(alice, bob, carol, mallory) -> Scene:
    """Alice created the match and holds seat A, Bob seat B, both deployments
    sealed (Round 1); a spectator has opened the match page; Carol organizes;
    Mallory plays another match."""
    a, b = set_up(alice, bob)
    seal_both(a, b, load_state(Match.objects.get(pk=a.match.pk)))
    match = Match.objects.get(pk=a.match.pk)
    elsewhere = create_match(Client(), name="Another table")
    claim(mallory, elsewhere, "A", "Mallory")
    event = TournamentEvent.objects.create(name="Spring Open")
    Match.objects.filter(pk=match.pk).update(event=event, table_number=3)
    spectator = Client()
    spectator.get(f"/m/{match.code}/")
    return Scene(
        match=match,
        token=match.seats.get(letter="A").token,
        event=event,
        clients={
            "A": alice,
            "B": bob,
            "spectator": spectator,
            "organizer": carol,
            "other": mallory,
        },
    )


@pytest.fixture
def scene(alice, bob, carol, mallory, settings):
    settings.PASSWORD_HASHERS = FAST_PINS
    return build_scene(alice, bob, carol, mallory)


def outcome(response) -> str | int:
    if response.status_code in (301, 302):
        return f"{response.status_code} {response['Location']}"
    return response.status_code


def matches(cell, got) -> bool:
    if isinstance(cell, int):
        return got == cell
    return isinstance(got, str) and got.startswith(cell)


def _last(route: str) -> tuple:
    """Requests that change what later cells see go last: the organizer
    opening the sealed information (the JSON export then opens up), and
    logging out (it flushes the session, and the seat it holds)."""
    return (route.endswith("logout/"), route.endswith("/open/"), "hand-off" in route)


@pytest.mark.django_db
def test_every_route_answers_each_role_as_the_matrix_says_and_changes_nothing(scene):
    """Each cell, then: no request of the matrix is an accepted player action
    (every GET and every refused POST leave the match's log and seats as they
    were); the one change is by design, the organizer opening the sealed
    information, which is recorded in the log."""
    before = list(MatchEvent.objects.filter(match=scene.match).values_list("seq", "hash"))
    seats = list(
        Seat.objects.filter(match=scene.match)
        .order_by("letter")
        .values_list("holder_hash", "pin_hash")
    )
    checked, wrong = 0, []
    for route in sorted(routes(), key=_last):
        row = row_for(route)
        path = scene.path(route)
        extra = {"HTTP_HX_REQUEST": "true"} if row.htmx else {}
        for method, cells in (("GET", row.get), ("POST", row.post)):
            for role in ROLES:
                cache.clear()  # guess limits are per address: keep cells independent
                client = scene.client(role)
                if method == "GET":
                    response = client.get(path, **extra)
                else:
                    response = client.post(path, {"action_id": "matrix-probe", **row.data}, **extra)
                got = outcome(response)
                checked += 1
                if not matches(cells[role], got):
                    wrong.append(f"{method} {path} as {role}: expected {cells[role]}, got {got}")
    assert wrong == [], "\n".join(wrong)
    assert checked == len(list(routes())) * len(ROLES) * 2
    after = MatchEvent.objects.filter(match=scene.match).order_by("seq")
    assert list(after.values_list("seq", "hash")[: len(before)]) == before
    assert [(e.kind, e.actor) for e in after[len(before) :]] == [
        ("SeatMoved", "organizer"),  # the hand-off of B, logged as the organizer's
        ("OrganizerViewedSecrets", "organizer"),
    ]
    now = list(
        Seat.objects.filter(match=scene.match)
        .order_by("letter")
        .values_list("holder_hash", "pin_hash")
    )
    # The other by design: seat B was handed to a new phone (its holder left).
    assert now[0] == seats[0] and now[1] == ("", "")


# --------------------------------------------------------------- websockets


def _ws_headers(client: Client | None) -> list:
    headers = [(b"origin", b"http://localhost"), (b"host", b"localhost")]
    if client is not None and "sessionid" in client.cookies:
        headers.append((b"cookie", f"sessionid={client.cookies['sessionid'].value}".encode()))
    return headers


@pytest.mark.django_db(transaction=True)
async def test_every_websocket_route_shows_each_role_the_view_the_matrix_says(
    alice, bob, carol, mallory, settings
):
    settings.PASSWORD_HASHERS = FAST_PINS
    scene = await sync_to_async(build_scene)(alice, bob, carol, mallory)
    for pattern in websocket_urlpatterns:
        route = str(pattern.pattern)
        path = scene.path(route)
        for role, expected in WS_ROWS[route].items():
            socket = WebsocketCommunicator(
                application, path, headers=_ws_headers(scene.clients.get(role))
            )
            connected, _ = await socket.connect(timeout=5)
            if expected is None:
                assert not connected, (route, role)
                continue
            assert connected, (route, role)
            frame = await socket.receive_from(timeout=5)
            assert expected in frame, (route, role)
            others = {"You: Alice", "You: Bob"} - {expected}
            assert not any(text in frame for text in others), (route, role)
            await socket.disconnect()
        if route == "":
            continue
        # An unknown match: the socket is closed, nothing is sent.
        socket = WebsocketCommunicator(
            application, path.replace(scene.match.code, "no-such-match"), headers=_ws_headers(alice)
        )
        connected, _ = await socket.connect(timeout=5)
        assert not connected
