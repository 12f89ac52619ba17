"""The server console (what the organizer watches on the venue's laptop)
says a refusal of the client's own doing in one line: a staff account
opening an admin page it has no permission for, a player on an organizer's
page, a body over the cap. Django logged each with a whole traceback,
which reads as a crash. A real bug keeps its traceback. The page the
client gets is our 403/400 card either way (tests/web/test_error_pages.py)."""

from __future__ import annotations

import io
import logging

import pytest
from django.contrib.auth.models import User

from tracker.log_filters import RefusalsInOneLine

pytestmark = pytest.mark.django_db


@pytest.fixture
def console():
    """What the console handler of the settings' LOGGING writes."""
    [handler] = [
        h
        for h in logging.getLogger().handlers
        if any(isinstance(f, RefusalsInOneLine) for f in h.filters)
    ]
    written = io.StringIO()
    old = handler.setStream(written)
    try:
        yield written
    finally:
        handler.setStream(old)


def test_a_staff_account_without_admin_permissions_is_one_line(client, console):
    staff = User.objects.create_user("sam", password="an-organizer-2026", is_staff=True)
    client.force_login(staff)
    assert client.get("/admin/tracker/match/").status_code == 403
    lines = console.getvalue().splitlines()
    assert lines == ["Forbidden (Permission denied): /admin/tracker/match/"]


def test_a_player_on_an_organizers_page_is_one_line(client, console):
    client.force_login(User.objects.create_user("dave", password="not-an-organizer-2026"))
    assert client.get("/organizer/").status_code == 403
    assert console.getvalue().splitlines() == ["Forbidden (Permission denied): /organizer/"]


def test_a_body_over_the_cap_is_one_line(client, console):
    assert client.post("/i18n/setlang/", {"language": "x" * 300_000}).status_code == 400
    [line] = console.getvalue().splitlines()
    assert "exceeded" in line and "Traceback" not in console.getvalue()


def test_a_real_bug_keeps_its_traceback(console):
    try:
        raise RuntimeError("a bug")
    except RuntimeError:
        logging.getLogger("django.request").error("Internal Server Error: /x/", exc_info=True)
    text = console.getvalue()
    assert "Traceback" in text and "RuntimeError: a bug" in text
