"""Seats belong to their players (issue 22): the host who is a player, and
the venue that is one address.

Each attack here passed on the code before issue 22: a host seated in B
handed seat A to a new link and read Alice's secrets, both logs blamed
Alice, ten wrong PINs from Bob locked Alice's right PIN out at a venue (one
address), and the host page counted 10 wrong PINs when 50 were sent.

Players act through the forms their pages render (tests/web/phone.py);
attack steps are raw posts.
"""

from __future__ import annotations

import re
from urllib.parse import urlparse

import pytest
from django.contrib.auth.models import Group, User
from django.test import Client

from tracker.models import Seat

from .phone import Phone, phone_app
from .phone_flows import CANARY_NINJA, CANARY_POSITION, lists_locked, ok, seal_both

pytestmark = pytest.mark.django_db

# Alice's hidden trooper and its sealed position: in nothing Bob receives.
SECRETS = (CANARY_NINJA, CANARY_POSITION)
VENUE = "198.51.100.20"  # one NAT address for every phone at the venue


@pytest.fixture(autouse=True)
def quick_pins(settings):
    # The budget does not depend on the hasher; spare the slow one here.
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]


def at_venue(language: str | None = None) -> Phone:
    """A phone behind the venue's one address."""
    environ = {"REMOTE_ADDR": VENUE}
    if language:
        environ["HTTP_ACCEPT_LANGUAGE"] = language
    return Phone(language=language, app=phone_app(environ))


class Received:
    """Every body one person's browsers were sent, to search for a secret."""

    def __init__(self):
        self.bodies: list[bytes] = []

    def keep(self, response):
        self.bodies.append(response.body)
        return response

    def saw(self, marker: str) -> bool:
        return any(marker.encode() in body for body in self.bodies)


def raw_post(phone: Phone, path: str, data: dict | None = None):
    """A hand-built POST with this phone's cookies and CSRF token."""
    if "csrftoken" not in phone.app.cookies:
        phone.visit("/")
    token = phone.app.cookies["csrftoken"]
    return phone.app.post(path, data or {}, headers={"X-CSRFToken": token}, expect_errors=True)


def seat_path(code: str, letter: str) -> str:
    return f"/m/{code}/s/{Seat.objects.get(match__code=code, letter=letter).token}/"


def move_here(phone: Phone, path: str, pin: str):
    """Open a taken seat's link and send its PIN form, as the page renders it."""
    phone.visit(path)
    [form] = [f for f in phone.forms() if "pin" in f.names()]
    form.fill({"pin": pin})
    return phone.send(form)


def organizer_phone() -> Phone:
    user = User.objects.create_user("carol", password="carol-organizes-2026")
    user.groups.add(Group.objects.get_or_create(name="organizers")[0])
    client = Client()
    client.force_login(user)
    phone = Phone()
    phone.app.set_cookie("sessionid", client.cookies["sessionid"].value)
    return phone


def alice_seals_her_secrets(alice: Phone, bob: Phone) -> None:
    """Both lists locked (Alice's with a hidden Ninja), deployment sealed
    (the Ninja's position among Alice's secrets)."""
    lists_locked(alice, bob)
    ok(alice, alice.submit("SetInitiative", first_turn="Alice", deploys_first="Alice"))
    seal_both(alice, bob)
    assert all(secret in alice.open().text for secret in SECRETS)


def saw_none(received: Received) -> bool:
    return not any(received.saw(secret) for secret in SECRETS)


def has_all(phone: Phone) -> bool:
    return all(secret in phone.open().text for secret in SECRETS)


def hosted_by_bob(language: str | None = None):
    """Bob creates the match, hands out both QR codes, then claims B in the
    same browser; Alice claims A and seals a note."""
    bob = at_venue(language)
    links = bob.create_match()
    assert set(links) == {"A", "B"}  # before any claim, the host gives both out
    bob.claim(links["B"], "Bob", pin="580417")
    alice = at_venue()
    alice.claim(links["A"], "Alice", pin="913862")
    alice_seals_her_secrets(alice, bob)
    return bob, alice, bob.code


REFUSALS = {
    "en": "This browser has held a seat in this match, so it cannot hand a seat",
    "es": "Este navegador ha ocupado un asiento en esta partida, así que no puede",
}


@pytest.mark.parametrize("language", ["en", "es"])
def test_attack_the_host_who_plays_b_cannot_hand_off_seat_a(language):
    bob, alice, code = hosted_by_bob(language)
    received = Received()
    old_link = seat_path(code, "A")
    host_page = received.keep(bob.visit(f"/m/{code}/host/"))
    assert "hand-off" not in host_page.text  # no hand-off form for a player
    assert "host-is-player" in host_page.text
    # The attack: the hand-off posted by hand, for A and for his own B.
    for letter in "AB":
        refused = received.keep(raw_post(bob, f"/m/{code}/hand-off/{letter}/"))
        assert refused.status_code == 403
        assert REFUSALS[language] in refused.text
    assert seat_path(code, "A") == old_link  # no new link was minted
    assert "Alice" in alice.open().text and alice.soup.select_one("#live") is not None
    # Whatever link Bob's host page shows now, his second browser gets no secret.
    page = received.keep(bob.visit(f"/m/{code}/host/"))
    second = at_venue(language)
    for anchor in page.html.select("a.seaturl"):
        received.keep(second.visit(urlparse(anchor["href"]).path))
        for form in second.forms():
            if "pin" in form.names():
                form.fill({"name": "Bob", "pin": "271828"} if "name" in form.names() else {})
                received.keep(second.send(form))
        received.keep(second.visit(f"/m/{code}/"))
    received.keep(bob.open())
    assert saw_none(received)
    assert has_all(alice)


def test_attack_a_host_who_moved_their_seat_away_still_hands_off_nothing():
    bob, alice, code = hosted_by_bob()
    other_phone = at_venue()
    move_here(other_phone, seat_path(code, "B"), "580417")  # Bob moves B to another phone
    assert "You: Bob" in other_phone.open().text
    refused = raw_post(bob, f"/m/{code}/hand-off/A/")
    assert refused.status_code == 403
    assert "You: Alice" in alice.open().text


def test_attack_a_seated_host_never_sees_a_link_an_organizer_minted_for_the_other_seat():
    bob, alice, code = hosted_by_bob()
    carol = organizer_phone()
    carol.visit(f"/organizer/matches/{code}/sheet/")
    carol.submit("A")  # the hand-off form of seat A
    new_link = seat_path(code, "A")
    assert new_link in carol.html
    received = Received()
    page = received.keep(bob.visit(f"/m/{code}/host/"))
    assert new_link not in page.text
    assert "its new link is on the page of whoever handed it over" in page.text
    # And were it shown to him anyway, the browser holding B may not take A.
    refused = received.keep(bob.app.get(new_link, expect_errors=True))
    assert refused.status_code == 403
    received.keep(raw_post(bob, new_link, {"name": "Bob", "pin": "271828"}))
    assert not Seat.objects.get(match__code=code, letter="A").claimed
    received.keep(bob.open())
    assert saw_none(received)


@pytest.mark.parametrize("language", ["en", "es"])
def test_a_seat_link_handed_over_says_so_not_that_there_is_no_match(language):
    """The old link of a seat handed to a new phone said there was no match
    with this code: the player went looking for a wrong code."""
    bob, _alice, code = hosted_by_bob()
    old_link = seat_path(code, "A")
    carol = organizer_phone()
    carol.visit(f"/organizer/matches/{code}/sheet/")
    carol.submit("A")  # the hand-off form of seat A
    assert seat_path(code, "A") != old_link
    old_phone = at_venue(language)
    answer = old_phone.app.get(old_link, expect_errors=True)
    assert answer.status_code == 404
    words = {
        "en": "This seat link is not (or no longer) this match",
        "es": "Este enlace de asiento no es (o ya no es) de esta partida",
    }
    assert words[language] in answer.text
    # A way to follow the match from there, as a spectator.
    follow = answer.click(href=f"^/m/{code}/$")
    assert follow.status_code == 200 and "blk-header" in follow.text


def test_an_organizer_recovers_a_seat_and_the_log_names_the_organizer():
    bob, alice, code = hosted_by_bob()
    carol = organizer_phone()
    carol.visit(f"/organizer/matches/{code}/sheet/")
    carol.submit("A")
    new_phone = at_venue()
    new_phone.claim(f"http://testserver{seat_path(code, 'A')}", "Alice", pin="604153")
    assert "You: Alice" in new_phone.text
    assert has_all(new_phone)  # her secrets follow her to the new phone
    line = "The organizer carol gave seat A (Alice) to a new phone."
    assert line in new_phone.text and line in bob.open().text
    assert "Alice moved their seat to another phone." not in bob.text
    assert "You: Alice" not in alice.open().text  # the old phone lost the seat


@pytest.mark.parametrize(
    ("language", "line"),
    [
        ("en", "The host gave seat A (Alice) to a new phone."),
        ("es", "El anfitrión dio el asiento A (Alice) a un móvil nuevo."),
    ],
)
def test_a_host_seated_nowhere_recovers_a_seat_and_the_log_names_the_host(language, line):
    host = at_venue()
    links = host.create_match()
    alice, bob = at_venue(), at_venue(language)
    alice.claim(links["A"], "Alice", pin="913862")
    bob.claim(links["B"], "Bob", pin="580417")
    alice_seals_her_secrets(alice, bob)
    host.visit(f"/m/{alice.code}/host/")
    host.submit("A")  # "Hand seat A to a new phone"
    new_link = host.seat_links()["A"]
    assert urlparse(new_link).path == seat_path(alice.code, "A")
    new_phone = at_venue()
    new_phone.claim(new_link, "Alice", pin="604153")
    assert has_all(new_phone)
    assert line in bob.open().text
    assert "Alice" in bob.text and "moved their seat" not in bob.text


def test_attack_at_a_venue_on_one_address_the_opponents_wrong_pins_never_lock_alice_out():
    bob, alice, code = hosted_by_bob()
    guesser = at_venue()  # Bob's second browser, behind the venue's address
    guesses = [
        raw_post(guesser, seat_path(code, "A"), {"pin": f"{400000 + n}"}) for n in range(15)
    ]  # more than the old per-address limit of 10
    # Alice's new phone, behind the same address, with the right PIN.
    new_phone = at_venue()
    move_here(new_phone, seat_path(code, "A"), "913862")
    assert new_phone.last.status_code == 200 and "You: Alice" in new_phone.open().text
    assert has_all(new_phone)
    assert "Alice moved their seat to another phone." in bob.open().text
    # Every guess was checked, and refused as wrong.
    assert all(g.status_code == 403 and "That PIN is not right." in g.text for g in guesses)


def test_attack_the_browser_holding_b_may_not_even_try_seat_as_pin():
    bob, alice, code = hosted_by_bob()
    refused = raw_post(bob, seat_path(code, "A"), {"pin": "913862"})  # even the right one
    assert refused.status_code == 403 and "cannot take this seat too" in refused.text
    assert "You: Alice" in alice.open().text and "You: Bob" in bob.open().text


def test_the_host_page_shows_the_true_count_of_wrong_pins():
    host = at_venue()
    links = host.create_match()
    at_venue().claim(links["A"], "Alice", pin="913862")
    at_venue().claim(links["B"], "Bob", pin="580417")
    guesser = at_venue()  # Bob's second browser
    answers = [
        raw_post(guesser, seat_path(host.code, "A"), {"pin": f"{300000 + n}"}) for n in range(50)
    ]
    page = host.visit(f"/m/{host.code}/host/").text
    assert re.findall(r"(\d+) wrong PINs were tried on this seat", page) == ["50"]
    assert "50 wrong PINs were tried on this seat since its PIN was set." in page
    assert "Its PIN no longer moves it" in page
    # The budget (20) is spent: the rest are refused without being checked.
    assert [a.status_code for a in answers] == [403] * 20 + [429] * 30
    assert all("That PIN is not right." in a.text for a in answers[:20])
    assert all("its PIN no longer moves it" in a.text for a in answers[20:])
    # Even the right PIN is refused now: else the budget would stop no one.
    right = raw_post(at_venue(), seat_path(host.code, "A"), {"pin": "913862"})
    assert right.status_code == 429
    # The unseated host hands it to a new phone: a new PIN, a new budget.
    host.submit("A")
    page = host.visit(f"/m/{host.code}/host/").text
    assert "wrong PINs were tried" not in page


def test_wrong_seat_links_from_the_venue_never_refuse_a_right_link(settings):
    settings.GUESS_LIMIT = 3
    host = at_venue()
    links = host.create_match()
    bob = at_venue()
    statuses = [
        bob.app.get(f"/m/{host.code}/s/guess{n:040d}/", expect_errors=True).status_code
        for n in range(5)
    ]
    assert statuses == [404, 404, 404, 429, 429]
    alice = at_venue()
    alice.claim(links["A"], "Alice", pin="913862")
    assert "You: Alice" in alice.text


def test_attack_a_copy_of_the_host_session_taken_before_claiming_dies_with_the_claim():
    # The host's power lives in the session that created the match. Claiming a
    # seat gives that session a new key and deletes the old one, so a copy of
    # the host's cookie kept from before the claim is nobody: no unseated
    # twin of a seated host exists.
    bob = at_venue()
    links = bob.create_match()
    fork = Client(REMOTE_ADDR=VENUE)
    fork.cookies["sessionid"] = bob.app.cookies["sessionid"]
    assert fork.get(f"/m/{bob.code}/host/").status_code == 200  # the same host, for now
    bob.claim(links["B"], "Bob", pin="580417")
    at_venue().claim(links["A"], "Alice", pin="913862")
    assert fork.get(f"/m/{bob.code}/host/").status_code == 404
    fork.get("/")  # a CSRF token for the hand-built post
    refused = fork.post(
        f"/m/{bob.code}/hand-off/A/", HTTP_X_CSRFTOKEN=fork.cookies["csrftoken"].value
    )
    assert refused.status_code == 404
    assert raw_post(bob, f"/m/{bob.code}/hand-off/A/").status_code == 403
    assert Seat.objects.get(match__code=bob.code, letter="A").claimed


def test_attack_an_organizer_who_plays_in_the_match_hands_off_no_seat_of_it():
    host = at_venue()
    links = host.create_match()
    carol = organizer_phone()
    carol.claim(links["A"], "Carol", pin="913862")
    at_venue().claim(links["B"], "Bob", pin="580417")
    refused = raw_post(carol, f"/m/{host.code}/hand-off/B/")
    assert refused.status_code == 403
    assert "This browser has held a seat in this match" in refused.text
    assert Seat.objects.get(match__code=host.code, letter="B").claimed


def test_a_seat_handed_off_goes_back_to_the_phone_that_held_it_before():
    """Alice moved seat A to a tablet with its PIN; the tablet dies and the
    organizer hands seat A to a new phone. Her own phone, which held seat A
    (and never seat B), takes the new link: a browser is kept from the
    other seat of its match only, never from its own."""
    bob, alice, code = hosted_by_bob()
    tablet = at_venue()
    move_here(tablet, seat_path(code, "A"), "913862")
    assert "You: Alice" in tablet.open().text
    carol = organizer_phone()
    carol.visit(f"/organizer/matches/{code}/sheet/")
    carol.submit("A")
    alice.claim(f"http://testserver{seat_path(code, 'A')}", "Alice", pin="604153")
    assert "You: Alice" in alice.text
    assert has_all(alice)  # her secrets are on her phone again
    assert "You: Alice" not in tablet.open().text


def test_a_new_phone_opening_a_seat_whose_pin_is_spent_is_told_before_it_tries(settings):
    """Past the seat's budget of wrong PINs the page of its link says at once
    that its PIN no longer moves it, and whom to ask: a player on a new
    phone does not type a PIN for nothing."""
    settings.SEAT_PIN_BUDGET = 2
    host = at_venue()
    links = host.create_match()
    alice = at_venue()
    alice.claim(links["A"], "Alice", pin="913862")
    path = seat_path(host.code, "A")
    guesser = at_venue()
    for pin in ("111111", "222222"):
        move_here(guesser, path, pin)
    new_phone = at_venue("es")
    page = new_phone.visit(path)
    assert "su PIN ya no lo pasa" in page.text
    english = at_venue("en").visit(path)
    assert "its PIN no longer moves it" in english.text
