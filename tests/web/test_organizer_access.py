"""Organizer accounts: who gets in, and that nobody else gets any match data
(no audit page, no organizer export, nobody else's match)."""

import pytest
from django.contrib.auth.models import User
from django.test import Client

from tests.web.organizer_table import NINJA_POSITION, finished, playing
from tracker.models import Match, MatchEvent, TournamentEvent

pytestmark = pytest.mark.django_db


def organizer_urls(match: Match, event: TournamentEvent) -> list[str]:
    return [
        "/organizer/",
        "/organizer/events/",
        f"/organizer/events/{event.pk}/",
        f"/organizer/events/{event.pk}/sheets/",
        f"/organizer/events/{event.pk}/export.json",
        f"/organizer/events/{event.pk}/export.csv",
        f"/organizer/matches/{match.code}/",
        f"/organizer/matches/{match.code}/?at=3",
        f"/organizer/matches/{match.code}/sheet/",
        f"/organizer/matches/{match.code}/export.json",
        f"/organizer/matches/{match.code}/export.csv",
    ]


@pytest.fixture
def scene(alice, bob):
    a, b = finished(alice, bob)
    event = TournamentEvent.objects.create(name="Spring Open")
    Match.objects.filter(pk=a.match.pk).update(event=event, table_number=4)
    return a, b, event


def leaks(response, match: Match) -> bool:
    body = response.content.decode(errors="replace")
    seat_tokens = list(match.seats.values_list("token", flat=True))
    return any(s in body for s in [NINJA_POSITION, match.last_hash, *seat_tokens])


def test_anonymous_visitors_are_sent_to_the_login_page_and_see_nothing(scene):
    a, _b, event = scene
    visitor = Client()
    for url in organizer_urls(a.match, event):
        response = visitor.get(url)
        assert response.status_code == 302, url
        assert response["Location"].startswith("/organizer/login/?next="), url
        assert not leaks(response, a.match), url


def test_a_player_of_the_match_gets_no_audit_and_no_organizer_export(scene):
    a, b, event = scene
    for phone in (a, b):
        for url in organizer_urls(a.match, event):
            response = phone.client.get(url)
            assert response.status_code in (302, 403), url
            assert not leaks(response, a.match), url


def test_a_logged_in_account_that_is_not_an_organizer_gets_403(scene, mallory):
    a, _b, event = scene
    User.objects.create_user("mallory", password="mallory-pass-2026")
    mallory.login(username="mallory", password="mallory-pass-2026")
    for url in organizer_urls(a.match, event):
        response = mallory.get(url)
        assert response.status_code == 403, url
        assert not leaks(response, a.match), url
    response = mallory.post(f"/organizer/matches/{a.match.code}/open/")
    assert response.status_code == 403
    response = mallory.post("/organizer/events/", {"name": "Fake", "date": "2026-01-01"})
    assert response.status_code == 403 and not TournamentEvent.objects.filter(name="Fake").exists()


def test_an_account_in_some_other_group_is_no_organizer(db):
    """Only the "organizers" group makes an organizer: a superuser may keep
    other groups (volunteers, a club's members) that open nothing here."""
    from django.contrib.auth.models import Group

    volunteer = User.objects.create_user("vera", password="vera-helps-2026")
    volunteer.groups.add(Group.objects.create(name="volunteers"))
    client = Client()
    client.force_login(volunteer)
    for url in ("/organizer/", "/organizer/events/"):
        assert client.get(url).status_code == 403, url
    response = client.post("/organizer/events/", {"name": "Fake", "date": "2026-01-01"})
    assert response.status_code == 403 and not TournamentEvent.objects.filter(name="Fake").exists()


def test_nobody_but_an_organizer_can_open_sealed_information(alice, bob, mallory):
    a, b = playing(alice, bob)
    for client in (a.client, b.client, mallory):
        client.post(f"/organizer/matches/{a.match.code}/open/")
    assert not MatchEvent.objects.filter(match=a.match, actor="organizer").exists()


def test_staff_accounts_are_organizers(scene):
    a, _b, _event = scene
    staff = User.objects.create_user("sam", password="sam-pass-2026", is_staff=True)
    client = Client()
    client.force_login(staff)
    assert client.get(f"/organizer/matches/{a.match.code}/").status_code == 200


def test_an_organizer_gets_404_for_what_does_not_exist(carol):
    for url in (
        "/organizer/matches/nope/",
        "/organizer/matches/nope/export.json",
        "/organizer/matches/nope/export.csv",
        "/organizer/matches/nope/sheet/",
        "/organizer/events/999999/",
        "/organizer/events/999999/export.json",
    ):
        assert carol.get(url).status_code == 404, url
    assert carol.post("/organizer/matches/nope/open/").status_code == 404


def test_login_page_logs_an_organizer_in_and_refuses_a_wrong_password(db):
    from django.contrib.auth.models import Group

    carol = User.objects.create_user("carol", password="carol-organizes-2026")
    carol.groups.add(Group.objects.get(name="organizers"))
    client = Client()
    page = client.get("/organizer/login/")
    assert page.status_code == 200 and "Organizer login" in page.content.decode()
    wrong = client.post("/organizer/login/", {"username": "carol", "password": "nope"})
    assert wrong.status_code == 200
    assert "That username and password do not match an account." in wrong.content.decode()
    right = client.post(
        "/organizer/login/", {"username": "carol", "password": "carol-organizes-2026"}
    )
    assert right.status_code == 302 and right["Location"] == "/organizer/"
    assert client.get("/organizer/").status_code == 200
    assert client.post("/organizer/logout/").status_code == 302
    assert client.get("/organizer/").status_code == 302


def test_login_sends_the_organizer_back_where_they_were_going(alice, bob, carol):
    a, _b = finished(alice, bob)
    user = User.objects.get(username="carol")
    user.set_password("carol-organizes-2026")
    user.save()
    client = Client()
    target = f"/organizer/matches/{a.match.code}/"
    response = client.post(
        f"/organizer/login/?next={target}",
        {"username": "carol", "password": "carol-organizes-2026", "next": target},
    )
    assert response["Location"] == target


def test_an_inactive_organizer_cannot_log_in(db):
    from django.contrib.auth.models import Group

    user = User.objects.create_user("olga", password="olga-pass-2026", is_active=False)
    user.groups.add(Group.objects.get(name="organizers"))
    client = Client()
    client.post("/organizer/login/", {"username": "olga", "password": "olga-pass-2026"})
    assert client.get("/organizer/").status_code == 302


def test_superusers_manage_organizers_and_events_in_the_admin(scene):
    a, _b, event = scene
    root = User.objects.create_superuser("root", password="root-pass-2026")
    client = Client()
    client.force_login(root)
    assert client.get("/admin/auth/user/").status_code == 200
    assert client.get("/admin/auth/group/").status_code == 200
    assert client.get(f"/admin/tracker/tournamentevent/{event.pk}/change/").status_code == 200
    assert client.get("/admin/tracker/match/").status_code == 200
    row = MatchEvent.objects.filter(match=a.match).first()
    page = client.get(f"/admin/tracker/matchevent/{row.pk}/change/")
    assert page.status_code == 200
    assert NINJA_POSITION not in page.content.decode()
    # The log is append-only in the admin too.
    assert client.get(f"/admin/tracker/matchevent/{row.pk}/delete/").status_code == 403
    assert client.get(f"/admin/tracker/match/{a.match.pk}/delete/").status_code == 403


def test_the_admin_is_closed_to_organizers_who_are_not_staff(carol):
    response = carol.get("/admin/")
    assert response.status_code == 302 and "/admin/login/" in response["Location"]


def test_the_home_page_links_organizers_to_their_pages(db):
    html = Client().get("/").content.decode()
    assert 'href="/organizer/"' in html
