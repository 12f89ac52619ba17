"""A refusal drawn atop the controls carries what the client sent when
Django's form errors quote it (a choice that is not one): it is escaped,
never markup, so a forged post cannot put a script on the player's page."""

import pytest

from .table import seated

pytestmark = pytest.mark.django_db

PAYLOAD = '<img src=x onerror="alert(1)">'


def test_attack_a_forged_trait_is_quoted_escaped_in_the_refusal(alice, bob):
    a, _b = seated(alice, bob)
    response = a.client.post(
        f"/m/{a.match.code}/draft/add/",
        {
            "row_id": "abcdef012345",
            "name": "Kaplan",
            "cost": "20",
            "combat_group": "1",
            "silhouette": "2",
            "traits": [PAYLOAD],
        },
        HTTP_HX_REQUEST="true",
    )
    body = response.content.decode()
    assert response.status_code == 200
    assert 'role="alert"' in body
    assert PAYLOAD not in body and "<img" not in body
    assert "&lt;img src=x" in body
