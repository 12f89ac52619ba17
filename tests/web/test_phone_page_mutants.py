"""Tests from a mutation round over what a phone is shown: the page a
too-large form comes back on, and the blocks of the match page that decide
which controls and facts each seat sees. Each guards a behaviour a planted
mutant changed without any other test noticing; each drives the pages as a
phone does (rendered forms; raw posts only where a test says attack)."""

from __future__ import annotations

import pytest
from bs4 import BeautifulSoup

from tests.web.rendered_forms import submit_on
from tests.web.test_error_pages import phone

pytestmark = pytest.mark.django_db


def _over_the_cap(client, settings):
    home = client.get("/")
    form = BeautifulSoup(home.content.decode(), "lxml").select_one("form[action='/new/']")
    token = form.select_one("[name=csrfmiddlewaretoken]")["value"]
    name = "x" * (settings.DATA_UPLOAD_MAX_MEMORY_SIZE + 1)
    response = client.post(
        "/new/", {"csrfmiddlewaretoken": token, "name": name, "points_limit": "300", "rounds": "3"}
    )
    assert response.status_code == 400
    return BeautifulSoup(response.content.decode(), "lxml")


def test_the_form_shown_again_over_the_cap_lists_only_this_phones_own_matches(settings):
    """The home page shown again for a too-large form lists the matches this
    browser hosts, as the home page does: never another host's."""
    host = phone("en")
    created = submit_on(host, "/", "/new/", name="Mesa de Ana", points_limit=300, rounds=3)
    assert created.status_code == 302
    stranger = phone("en")
    assert "Mesa de Ana" not in _over_the_cap(stranger, settings).get_text()
    assert "Mesa de Ana" in _over_the_cap(host, settings).get_text()


def test_no_phase_ends_on_either_phone_while_an_order_is_open():
    """While an Order is being played (declared, its AROs to come) the
    active phone offers no "End Orders" button and shows its Order card;
    the button comes back once the Order ends."""
    from tests.web.phone_flows import ok, started

    a, b, ids = started()
    assert a.can("AdvancePhase")
    ok(a, a.submit("DeclareSkill", trooper_id=ids["Kaplan"], skill="move"))
    a.open()
    assert a.can("EndOrder") and not a.can("AdvancePhase")
    b.open()
    assert not b.can("AdvancePhase")
