"""A link with a NUL in it ("%00": a mangled QR code, a curious player) is
our own 404 on PostgreSQL too. Each text a route carries was looked up in
the database, and PostgreSQL refuses U+0000 in a text: the match page, a
seat link, the hand-off, a list's link and the organizer's audit were 500s
there (tracker/urls.py: Django's `slug` converter). Runs in a scratch database of its own;
skipped when PostgreSQL is unreachable, unless REQUIRE_SCALE is set."""

from __future__ import annotations

import pytest

from tests.scale.servers import shell_on_scratch_postgres

pytestmark = pytest.mark.scale

ASK = """
import json
from django.contrib.auth.models import User
from django.test import Client
from django.test.utils import setup_test_environment
from tracker.models import Match
setup_test_environment()
code = Match.objects.create(name="Nul").code
organizer = User.objects.create_user("nul-org", password="x", is_staff=True)
anyone = Client(raise_request_exception=False, HTTP_ACCEPT_LANGUAGE="es")
staff = Client(raise_request_exception=False, HTTP_ACCEPT_LANGUAGE="es")
staff.force_login(organizer)
found = {}
for who, client, method, path in [
    ("anyone", anyone, "get", f"/m/%00{code}/"),
    ("anyone", anyone, "get", f"/m/{code}/s/%00abc/"),
    ("anyone", anyone, "post", f"/m/{code}/s/%00abc/"),
    ("anyone", anyone, "post", f"/m/{code}/hand-off/%00/"),
    ("anyone", anyone, "get", "/e/list/ab%00c/"),
    ("staff", staff, "get", f"/organizer/matches/%00{code}/"),
    ("staff", staff, "post", f"/m/{code}/hand-off/%00/"),
]:
    answer = getattr(client, method)(path)
    found[f"{who} {method} {path.replace(code, 'CODE')}"] = [
        answer.status_code, "Página no encontrada" in answer.content.decode()
    ]
print(json.dumps(found))
"""


def test_links_with_a_nul_are_our_own_404_on_postgresql(postgres_admin, tmp_path):
    found = shell_on_scratch_postgres(
        postgres_admin, tmp_path, "tracker_nul_links", ASK, ALLOWED_HOSTS="testserver", DEBUG="0"
    )
    assert found == dict.fromkeys(found, [404, True]), found
