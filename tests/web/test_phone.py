"""The phone helper itself: it submits only what a page renders, the way
htmx would, and a server that refuses what htmx sends would fail it."""

import pytest

from tests.web.phone import Phone, PhoneError, RenderedForm

pytestmark = pytest.mark.django_db


@pytest.fixture
def two_phones():
    links = Phone().create_match(name="Phone test")
    alice, bob = Phone(), Phone(language="es")
    alice.claim(links["A"], "Alice")
    bob.claim(links["B"], "Bob")
    return alice, bob


def test_a_phone_adds_a_trooper_and_locks_its_list_from_rendered_forms(two_phones):
    alice, _ = two_phones
    alice.submit("draft/add", name="Fusilier", cost="10", traits=["Lieutenant candidate"])
    assert alice.error is None
    assert "Fusilier" in alice.text
    alice.submit("LockArmyList")
    assert alice.error is None
    # Locked: the page no longer renders the form, so the phone cannot tap it.
    with pytest.raises(PhoneError, match="no LockArmyList form"):
        alice.submit("LockArmyList")


def test_the_language_of_the_phone_is_the_language_of_its_page(two_phones):
    alice, bob = two_phones
    assert "Add trooper" in alice.text
    assert "Añadir tropa" in bob.text


def test_fields_the_page_does_not_render_cannot_be_sent(two_phones):
    alice, _ = two_phones
    with pytest.raises(PhoneError, match="renders no field 'points'"):
        alice.submit("draft/add", name="Fusilier", points="10")
    with pytest.raises(PhoneError, match="hidden"):
        alice.submit("draft/add", name="Fusilier", cost="10", row_id="000000000000")
    with pytest.raises(PhoneError, match="no single choice"):
        alice.submit("draft/add", name="Fusilier", cost="10", traits=["Flying"])


def test_a_required_field_left_empty_is_not_submitted(two_phones):
    alice, _ = two_phones
    with pytest.raises(PhoneError, match="would ask first"):
        alice.submit("draft/add", name="Fusilier")


def test_the_csrf_token_travels_as_htmx_sends_it(two_phones):
    alice, _ = two_phones
    rendered = alice.form("draft/add", name="Fusilier", cost="10")
    rendered.fill({"name": "Fusilier", "cost": "10"})
    body = rendered.node.find_parent("body")
    body["hx-headers"] = '{"X-CSRFToken": "forged"}'
    forged = RenderedForm(rendered.url, True, rendered.node, rendered.form)
    with pytest.raises(PhoneError, match="403"):
        alice.send(forged)
    assert "Fusilier" not in alice.text
