"""The laptop's address as it is now (tracker/lan.py, issue 18: the server
is a laptop on the venue's Wi-Fi, which drops and comes back).

The addresses were read once at start-up: a laptop started before it
joined the Wi-Fi, or handed another address when the Wi-Fi came back,
answered every phone at its new address with 400 (the Host not allowed),
refused its sockets (the Origin check reads the same list), and went on
printing the old address in its seat links and QR codes. Here the network
is a stand-in that changes the laptop's address; everything else is the
app as served (the default ALLOWED_HOSTS, the pages, the socket's checks).
"""

from __future__ import annotations

import pytest
from channels.testing import WebsocketCommunicator

from tracker import lan
from tracker.asgi import application

from .test_phone_links import assert_codes_carry, host_on, notice

pytestmark = pytest.mark.django_db(transaction=True)

BEFORE, AFTER = "10.20.0.15", "10.20.7.42"


@pytest.fixture
def wifi(settings, monkeypatch):
    """The laptop's network: set `wifi.address` to move it."""

    class Network:
        address = BEFORE
        now = 1000.0  # the laptop's monotonic clock, as lan.py reads it

    network = Network()
    monkeypatch.setattr(lan, "read_addresses", lambda: [network.address, "laptop"])
    monkeypatch.setattr(lan.time, "monotonic", lambda: network.now)
    settings.ALLOWED_HOSTS = lan.MachineHosts(["localhost", "127.0.0.1", "testserver"])
    settings.PHONE_ADDRESSES = lan.PhoneAddresses()
    settings.PUBLIC_URL = ""
    lan.current.forget()
    yield network
    lan.current.forget()


def moved(network, address: str) -> None:
    """The Wi-Fi hands the laptop `address`; the server reads it by itself
    within REFRESH_SECONDS (nothing tells it: no forget())."""
    network.address = address
    network.now += lan.REFRESH_SECONDS


def test_a_phone_opening_the_laptops_new_address_is_served(wifi):
    assert host_on(f"{BEFORE}:8000").app.get("/").status_int == 200
    assert host_on(f"{AFTER}:8000").app.get("/", expect_errors=True).status_int == 400
    moved(wifi, AFTER)
    assert host_on(f"{AFTER}:8000").app.get("/").status_int == 200
    # The old address is no longer this laptop's: not served as ours.
    assert host_on(f"{BEFORE}:8000").app.get("/", expect_errors=True).status_int == 400
    # Never another computer's name.
    assert host_on("evil.example").app.get("/", expect_errors=True).status_int == 400


def test_the_host_page_prints_the_laptops_new_address(wifi):
    host = host_on("localhost:8000")
    host.create_match()
    assert_codes_carry(host.html, f"http://{BEFORE}:8000")
    moved(wifi, AFTER)
    host = host_on("localhost:8000")
    host.create_match(name="After the Wi-Fi came back")
    assert_codes_carry(host.html, f"http://{AFTER}:8000")


def test_a_laptop_off_the_wifi_prints_no_address_phones_cannot_reach(wifi):
    """Off the Wi-Fi the laptop has only a loopback address and its host
    name: neither is for phones (a loopback address is each phone itself,
    and a bare name seldom resolves on a phone). The codes keep the page's
    own address and the page says phones cannot reach it, until the Wi-Fi
    is back."""
    moved(wifi, "127.0.1.1")
    host = host_on("localhost:8000")
    host.create_match()
    assert_codes_carry(host.html, "http://localhost:8000")
    assert "no network address phones can reach" in notice(host.html)
    moved(wifi, AFTER)
    host = host_on("localhost:8000")
    host.create_match(name="After the Wi-Fi came back")
    assert_codes_carry(host.html, f"http://{AFTER}:8000")


async def _handshake(address: str) -> tuple[bool, int | None]:
    origin = f"http://{address}:8000"
    socket = WebsocketCommunicator(
        application,
        "/ws/m/NOSUCHMATCH/",
        headers=[(b"host", f"{address}:8000".encode()), (b"origin", origin.encode())],
    )
    connected, code = await socket.connect()
    await socket.disconnect()
    return connected, code


async def test_a_socket_from_the_laptops_new_address_passes_the_origin_check(wifi):
    # A match that does not exist: past the Origin checks, the consumer
    # itself closes with 4404. Refused by the checks, the handshake is
    # denied before it reaches the consumer (no 4404).
    connected, code = await _handshake(AFTER)
    assert not connected and code != 4404
    moved(wifi, AFTER)
    assert await _handshake(AFTER) == (False, 4404)
