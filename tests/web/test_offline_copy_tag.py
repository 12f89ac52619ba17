"""Issue 17: the server's side of the offline copy (tracker/offline_copy.py).
Only the match page is offered to the service worker, tagged with the
session it was rendered for; the tag cookie follows the session: it changes
when a seat is claimed here (a new session key), and goes with a logout.
The worker's side is tested in Chromium: tests/browser/test_offline_copy.py."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import Group, User
from django.test import Client

from tracker.offline_copy import COOKIE, KEEP_HEADER, VIEWER_HEADER

from .rendered_forms import submit_on

pytestmark = pytest.mark.django_db


def test_only_the_match_page_is_offered_and_its_tag_follows_the_session():
    host, alice = Client(), Client()
    created = submit_on(host, "/", "/new/", name="Tagged", points_limit=300, rounds=3)
    host_page = host.get(created["Location"])
    assert KEEP_HEADER not in host_page  # the host page (seat links) is never kept
    code = created["Location"].split("/")[2]
    spectator_page = alice.get(f"/m/{code}/")
    # A browser without a session: a public page, tagged "".
    assert spectator_page[KEEP_HEADER] == "" and spectator_page[VIEWER_HEADER] == ""
    assert COOKIE not in alice.cookies or alice.cookies[COOKIE].value == ""

    link = next(
        line.split('href="')[1].split('"')[0]
        for line in host_page.content.decode().splitlines()
        if 'class="seaturl"' in line
    )
    claimed = submit_on(alice, link, "card", name="Alice", pin="246813")
    assert claimed.status_code == 302
    page = alice.get(f"/m/{code}/")
    tag = alice.cookies[COOKIE].value
    assert tag and page[KEEP_HEADER] == tag and page[VIEWER_HEADER] == "A"
    assert alice.cookies[COOKIE]["httponly"] == ""  # the worker reads it
    for path in ("/", "/start/", "/offline/", f"/m/{code}/host/", "/organizer/login/"):
        assert KEEP_HEADER not in alice.get(path), path


def test_a_logout_takes_the_tag_away():
    carol = User.objects.create_user("carol", password="carol-organizes-2026")
    carol.groups.add(Group.objects.get_or_create(name="organizers")[0])
    client = Client()
    page = submit_on(
        client, "/organizer/login/", "card", username="carol", password="carol-organizes-2026"
    )
    assert page.status_code == 302
    client.get("/organizer/")
    before = client.cookies[COOKIE].value
    assert before
    submit_on(client, "/organizer/", "logout")
    assert client.cookies[COOKIE].value == ""  # deleted: no kept copy is shown any more


def _seat_links(page) -> list[str]:
    return [
        line.split('href="')[1].split('"')[0]
        for line in page.content.decode().splitlines()
        if 'class="seaturl"' in line
    ]


def test_each_session_has_its_own_tag_and_it_is_renewed_with_the_session_cookie(settings):
    """A copy kept for Alice's seat is never shown to Bob's browser, nor to
    Alice's once her session changed: the tag is the session's own. And the
    tag lives as long as the session cookie: each answer that renews one
    renews the other."""
    host, alice, bob = Client(), Client(), Client()
    created = submit_on(host, "/", "/new/", name="Tagged", points_limit=300, rounds=3)
    link_a, link_b = _seat_links(host.get(created["Location"]))
    submit_on(alice, link_a, "card", name="Alice", pin="246813")
    submit_on(bob, link_b, "card", name="Bob", pin="135792")
    alice_tag, bob_tag = alice.cookies[COOKIE].value, bob.cookies[COOKIE].value
    assert alice_tag and bob_tag and alice_tag != bob_tag != host.cookies[COOKIE].value
    # Alice takes a seat at another table: her session key changes, so does her tag.
    other = submit_on(host, "/", "/new/", name="Another table", points_limit=300, rounds=3)
    # (The host's session was saved again: its cookie renewed, the tag with it.)
    assert settings.SESSION_COOKIE_NAME in other.cookies
    renewed = other.cookies[COOKIE]
    assert renewed.value == host.cookies[COOKIE].value
    assert renewed["max-age"] == other.cookies[settings.SESSION_COOKIE_NAME]["max-age"]
    second = _seat_links(host.get(other["Location"]))[0]
    assert submit_on(alice, second, "card", name="Alice", pin="975312").status_code == 302
    assert alice.cookies[COOKIE].value not in ("", alice_tag)
