"""Issue 10 on the server side: reveal banners built from the viewer's own
view, the installable app's files, the live host page, the organizer's
messages inside <main> with plural forms, and model names in the admin."""

import json
import re
from pathlib import Path
from types import SimpleNamespace

import pytest
from django.conf import settings
from django.utils import translation

from tracker.models import Match, MatchEvent, Seat
from tracker.reading import load_state
from tracker.rules.visibility import LogLine
from tracker.templatetags.phone_tags import banners_for

from .flows import CANARY_NINJA, CANARY_POSITION, seal_both, set_up
from .phone_flows import to_orders
from .rendered_forms import submit_on
from .table import error_of

pytestmark = pytest.mark.django_db

BANNER = re.compile(r'<div class="banner [^"]*" data-banner=.*?</div>\s*</div>', re.S)


def banners(html: str) -> list[str]:
    return BANNER.findall(html)


def test_a_reveal_is_a_banner_on_both_phones_and_for_spectators(alice, bob, mallory):
    a, b = set_up(alice, bob)
    seal_both(a, b, load_state(Match.objects.get()))
    assert banners(b.page()) == []
    lieutenant = next(
        s for s in load_state(Match.objects.get()).secrets.values() if s.kind == "lieutenant"
    )
    assert error_of(a.submit("RevealSecret", secret_id=lieutenant.id)) is None
    match = Match.objects.get()
    for html in (a.page(), b.page(), mallory.get(f"/m/{match.code}/").content.decode()):
        [banner] = banners(html)
        assert "Kaplan" in banner
        assert 'class="proof ok"' in banner
        assert f'data-commitment="{lieutenant.commitment}"' in banner
        # One "Got it" for the whole strip (issue 19), not one per banner.
        assert "data-ack" not in banner
        assert html.count("data-ack") == 1 and "data-banner-count" in html
        assert f'data-banner="{match.code}:' in banner


def test_banners_never_carry_the_other_seats_secrets(alice, bob):
    a, b = set_up(alice, bob)
    seal_both(a, b, load_state(Match.objects.get()))
    for secret in load_state(Match.objects.get()).secrets.values():
        if secret.kind == "lieutenant" and secret.seat == "A":
            assert error_of(a.submit("RevealSecret", secret_id=secret.id)) is None
    for banner in banners(b.page()):
        assert CANARY_NINJA not in banner and CANARY_POSITION not in banner


def _view(viewer, secrets=(), phase="play", troopers=()):
    seat = SimpleNamespace(seat="A", secrets=tuple(secrets), troopers=tuple(troopers))
    other = SimpleNamespace(seat="B", secrets=(), troopers=())
    return SimpleNamespace(viewer=viewer, seats=(seat, other), phase=phase)


def test_retreat_an_organizer_peek_and_a_ruling_for_this_player_are_banners():
    log = [
        LogLine(3, "RetreatDeclared", "m", {"seat": "B"}, "RT-A"),
        LogLine(4, "OrganizerViewedSecrets", "m", {}, None),
        LogLine(5, "ElementReplaced", "m", {"seat": "A", "trooper_id": "t1"}, "RP-2"),
        LogLine(6, "TurnPhaseChanged", "m", {}, None),
        LogLine(7, "RetreatEnded", "m", {"seat": "B"}, "RT-X2"),
    ]
    for_a = banners_for(_view("A"), log)
    # "is in Retreat!" (3) goes by itself once "no longer in Retreat!" (7)
    # comes (issue 19).
    assert [(b["line"].seq, b["asks"]) for b in for_a] == [
        (7, False),
        (5, True),
        (4, False),
    ]
    # The replacement asks A, not B (nor a spectator).
    assert [b["line"].seq for b in banners_for(_view("B"), log)] == [7, 4]
    assert [b["line"].seq for b in banners_for(_view(None), log)] == [7, 4]


def test_a_ruling_stops_asking_once_its_trooper_is_dead_or_the_match_is_over():
    """ "The tracker needs you to act at the table" about a Hassassin shot
    dead since, or at the end of the match, was noise on every reload."""
    log = [
        LogLine(5, "HoloechoEnded", "m", {"seat": "A", "trooper_id": "t1"}, "HE-C4"),
        LogLine(6, "ElementReplaced", "m", {"seat": "A", "trooper_id": "t2"}, "RP-2"),
        LogLine(7, "SecretRevealed", "m", {"seat": "A", "secret_id": "s9"}, "HD-C2"),
    ]
    alive = SimpleNamespace(id="t1", condition="normal")
    dead = SimpleNamespace(id="t2", condition="dead")
    asked = banners_for(_view("A", troopers=(alive, dead)), log)
    assert [(b["line"].seq, b["asks"]) for b in asked] == [(7, False), (5, True)]
    over = banners_for(_view("A", phase="finished", troopers=(alive, dead)), log)
    # What was revealed stays a banner: only the asks go.
    assert [(b["line"].seq, b["asks"]) for b in over] == [(7, False)]


def test_only_the_latest_organizer_peek_and_a_live_retreat_stay_banners():
    log = [
        LogLine(3, "RetreatDeclared", "m", {"seat": "B"}, "RT-A"),
        LogLine(4, "OrganizerViewedSecrets", "m", {}, None),
        LogLine(5, "RetreatDeclared", "m", {"seat": "A"}, "RT-A"),
        LogLine(6, "OrganizerViewedSecrets", "m", {}, None),
    ]
    assert [b["line"].seq for b in banners_for(_view("A"), log)] == [6, 5, 3]


def test_a_reveal_banner_carries_a_secret_only_if_the_view_shows_it_revealed():
    sealed = SimpleNamespace(id="s1", revealed=False, payload=None)
    line = LogLine(9, "SecretRevealed", "m", {"seat": "A", "secret_id": "s1"}, "HD-C2")
    [banner] = banners_for(_view("B", [sealed]), [line])
    assert banner["secret"] is None
    shown = SimpleNamespace(id="s1", revealed=True, payload={"name": "Kaplan"})
    [banner] = banners_for(_view("B", [shown]), [line])
    assert banner["secret"] is shown


def test_the_app_is_installable(client):
    page = client.get("/").content.decode()
    assert re.search(r'<link rel="manifest" href="/static/tracker/manifest.webmanifest">', page)
    assert 'name="theme-color"' in page and 'data-sw="/sw.js"' in page
    manifest = json.loads(
        (Path(settings.BASE_DIR) / "static/tracker/manifest.webmanifest").read_text()
    )
    sizes = {icon["sizes"] for icon in manifest["icons"]}
    assert {"any", "192x192", "512x512"} <= sizes
    for icon in manifest["icons"]:
        assert client.get("/static/tracker/" + icon["src"]).status_code == 200
    worker = client.get("/sw.js")
    assert worker.status_code == 200
    assert worker["Content-Type"].startswith("text/javascript")
    body = worker.content.decode()
    assert "/static/tracker/app.js" in body and "/static/vendor/htmx-2.0.11.min.js" in body
    # Only pages the server marks (the match page) are kept, one at a time,
    # replacing the last (the behaviour: tests/browser/test_offline_copy.py).
    assert "X-Tracker-Copy" in body and "dropKept().then" in body


def test_the_host_page_refreshes_its_seats_until_both_are_taken(client, alice, bob):
    response = submit_on(client, "/", "/new/", name="Friday", points_limit=300, rounds=3)
    host_url = response["Location"]
    match = Match.objects.get()
    assert 'hx-trigger="every 2s"' in client.get(host_url).content.decode()
    from .table import claim

    claim(alice, match, "A", "Alice")
    html = client.get(host_url).content.decode()
    assert "Alice" in html and 'hx-trigger="every 2s"' in html
    claim(bob, match, "B", "Bob")
    assert 'hx-trigger="every 2s"' not in client.get(host_url).content.decode()


def test_one_pairing_is_one_match_created_in_main(carol):
    submit_on(carol, "/organizer/events/", "card", name="Cup", date="2026-04-18")
    from tracker.models import TournamentEvent

    event = TournamentEvent.objects.get()
    data = {"points_limit": 300, "rounds": 3, "pairings": "1, Ana, Bea"}
    carol.cookies["django_language"] = "es"
    response = submit_on(carol, f"/organizer/events/{event.pk}/", "card", **data)
    response = carol.get(response["Location"])
    html = response.content.decode()
    main = html[html.index("<main") : html.index("</main>")]
    assert "1 partida creada." in main
    assert "partidas creadas" not in html


def test_the_admin_names_the_models_in_the_readers_language():
    with translation.override("es"):
        assert str(MatchEvent._meta.verbose_name_plural) == "eventos de partida"
        assert str(Seat._meta.verbose_name) == "asiento"


def test_a_hidden_deployment_reveal_is_a_banner_with_the_written_position(alice, bob):
    """The issue's case: the HD position and its proof sat 3,000 px down."""
    a, b = set_up(alice, bob)
    ids = seal_both(a, b, load_state(Match.objects.get()))
    to_orders(a.phone, b.phone)  # the Order Count, TM-S2 let pass, to the Orders Phase
    assert not any(CANARY_POSITION in banner for banner in banners(b.page()))
    declared = a.submit("DeclareSkill", trooper_id=ids[CANARY_NINJA], skill="bs_attack")
    assert error_of(declared) is None
    shown = [banner for banner in banners(b.page()) if CANARY_POSITION in banner]
    assert len(shown) == 1 and 'class="proof ok"' in shown[0] and "HD-C2" in shown[0]
    # The owner is asked to put the model on the table.
    assert any('class="banner asks"' in banner for banner in banners(a.page()))
