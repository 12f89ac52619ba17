"""Drive a match through the real views, as two phones would."""

from __future__ import annotations

import itertools
import re

from django.test import Client

from tracker.models import Match

_ids = itertools.count(1)


def next_action_id() -> str:
    return f"test-action-{next(_ids):08d}"


class Phone:
    """A seat driven through the Django test client. `submit` taps a form the
    seat's page renders (through tests/web/phone.py, sharing this client's
    session); `raw_post` builds a request by hand, for attack tests."""

    def __init__(self, client: Client, match: Match, letter: str):
        self.client = client
        self.match = match
        self.letter = letter
        self._phone = None

    @property
    def phone(self):
        """This seat as a tests/web/phone.Phone: same session cookie."""
        from .phone import Phone as RenderedPhone

        if self._phone is None:
            self._phone = RenderedPhone()
            self._phone.app.set_cookie("sessionid", self.client.cookies["sessionid"].value)
            self._phone.code = self.match.code
        self._phone.open()
        return self._phone

    def submit(self, command: str, **values):
        """Tap `command`'s form on the page this seat is sent now."""
        phone = self.phone
        phone.submit(command, **values)
        return phone.last

    def page(self) -> str:
        return self.client.get(f"/m/{self.match.code}/").content.decode()

    def raw_post(self, command: str, action_id: str | None = None, **data):
        """A POST built by hand, fields the page may never render included:
        for attack, forge, fuzz and replay tests only. A player's action in a
        web test is a form its page rendered (tests/web/phone.py)."""
        payload = {"action_id": action_id or next_action_id(), **data}
        return self.client.post(
            f"/m/{self.match.code}/act/{command}/", payload, HTTP_HX_REQUEST="true"
        )

    def add_trooper(self, name, cost, group=1, silhouette=2, traits=(), row_id=None):
        page = self.page()
        if row_id is None:
            row_id = re.search(r'name="row_id" value="([a-f0-9]{8})"', page).group(1)
        return self.client.post(
            f"/m/{self.match.code}/draft/add/",
            {
                "row_id": row_id,
                "name": name,
                "cost": cost,
                "combat_group": group,
                "silhouette": silhouette,
                "traits": list(traits),
            },
            HTTP_HX_REQUEST="true",
        )


def create_match(client: Client, name="Friday game", points=300, rounds=3) -> Match:
    response = client.post(
        "/new/",
        {"name": name, "points_limit": points, "rounds": rounds, "mission": "", "table": "7"},
    )
    assert response.status_code == 302, response.content
    code = response["Location"].split("/")[2]
    return Match.objects.get(code=code)


def claim(client: Client, match: Match, letter: str, name: str, pin: str = "739164") -> Phone:
    seat = match.seats.get(letter=letter)
    response = client.post(f"/m/{match.code}/s/{seat.token}/", {"name": name, "pin": pin})
    assert response.status_code == 302, response.content.decode()[:500]
    return Phone(client, match, letter)


def seated(alice: Client, bob: Client, **kwargs) -> tuple[Phone, Phone]:
    match = create_match(alice, **kwargs)
    return claim(alice, match, "A", "Alice"), claim(bob, match, "B", "Bob")


def raw_post_as(phone, command: str, action_id: str | None = None, **data):
    """A hand-built POST from a tests/web/phone.Phone (its cookies, its CSRF
    token): the forged requests a page would never send."""
    from .phone import new_action_id as tap

    token = phone.soup.select_one("body")["hx-headers"]
    import json

    headers = {"HX-Request": "true", **json.loads(token)}
    payload = {"action_id": action_id or tap(), **data}
    return phone.app.post(
        f"/m/{phone.code}/act/{command}/", payload, headers=headers, expect_errors=True
    )


def error_of(response) -> str | None:
    found = re.search(r'<p class="error" role="alert">(.*?)</p>', _text_of(response), re.S)
    return found.group(1).strip() if found else None


def _text_of(response) -> str:
    """A Django test client response or a webtest one."""
    content = response.content
    return content.decode() if isinstance(content, bytes) else str(content)
