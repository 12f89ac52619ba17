""" "Create the match" tapped twice (or sent again after a stalled answer)
made two matches: the host's phone showed the second one's seat links and
"Your matches" listed one of them, the other left behind. The form carries a
token new with every page; the same form sent again lands on the match it
made. A new page's form makes a new match, even with the same name."""

from __future__ import annotations

import pytest
from django.test import Client

from tests.web.rendered_forms import submit
from tracker.models import Match

pytestmark = pytest.mark.django_db


def test_the_same_form_sent_twice_makes_one_match():
    host = Client()
    home = host.get("/").content.decode()
    first = submit(host, home, "/new/", htmx=False, name="Friday game")
    again = submit(host, home, "/new/", htmx=False, name="Friday game")
    assert first.status_code == again.status_code == 302
    assert first["Location"] == again["Location"]
    [match] = Match.objects.all()
    assert first["Location"].endswith(f"/m/{match.code}/host/")
    assert host.get(again["Location"]).status_code == 200  # still the host's


def test_a_new_page_makes_a_new_match_of_the_same_name():
    host = Client()
    for _ in range(2):
        home = host.get("/").content.decode()
        assert submit(host, home, "/new/", htmx=False, name="Friday game").status_code == 302
    assert Match.objects.filter(name="Friday game").count() == 2


def test_attack_the_token_from_another_browser_hands_nothing_over():
    """A token is only on the page that carried it; were it seen, sent from
    another browser it makes that browser a match of its own and never
    hands over the one it made (the host page answers 404)."""
    host, other = Client(), Client()
    home = host.get("/").content.decode()
    made = submit(host, home, "/new/", htmx=False, name="Friday game")
    other.get("/")  # its own CSRF cookie
    stolen = submit(other, home, "/new/", htmx=False, name="Friday game")
    assert stolen.status_code == 302 and stolen["Location"] != made["Location"]
    assert Match.objects.count() == 2
    assert other.get(made["Location"]).status_code == 404
