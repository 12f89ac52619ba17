"""This computer's addresses on the venue's network, as they are now.

The server is often an organizer's laptop. It may be started before it
joins the venue's Wi-Fi, and a Wi-Fi that drops and comes back may hand it
another address. Read once at start-up, the addresses went stale: a phone
opening the new one was answered 400 (Django's DisallowedHost, the Host not
in ALLOWED_HOSTS) and its socket refused (the Origin check reads the same
list), and the host page went on printing the old address in its seat links
and QR codes, until someone thought of restarting the server.

So the default ALLOWED_HOSTS (settings.py) is `MachineHosts`: the fixed
names plus the addresses this computer has now, read again at most every
REFRESH_SECONDS; and `PhoneAddresses` is what the host page's links and
`manage.py serve` use. Only this computer's own addresses are ever added
(never "*": the websocket Origin check compares against the list).

Standard library only: read by settings.py before Django is set up.
"""

from __future__ import annotations

import socket
import threading
import time

# How stale the addresses may be: a phone opening a new address waits at
# most this long before it is answered. Reading them is two UDP connects
# (no packet is sent) and a host name: microseconds.
REFRESH_SECONDS = 5.0


def read_addresses() -> list[str]:
    """The addresses a phone on the same Wi-Fi will use. A UDP connect sends no
    packet; it only asks the kernel which local address would route there."""
    found = set()
    for probe in ("10.255.255.255", "192.168.255.255"):
        try:
            with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as sock:
                sock.connect((probe, 1))
                found.add(sock.getsockname()[0])
        except OSError:
            continue
    hostname = socket.gethostname()
    return sorted(found | {hostname, f"{hostname}.local"})


class _Current:
    """The addresses as last read, read again once they are REFRESH_SECONDS old."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._read_at = float("-inf")
        self._addresses: tuple[str, ...] = ()

    def __call__(self) -> tuple[str, ...]:
        now = time.monotonic()
        if now - self._read_at >= REFRESH_SECONDS:
            with self._lock:
                if now - self._read_at >= REFRESH_SECONDS:
                    # read_addresses is looked up here, so a test can stand in for the network.
                    self._addresses = tuple(read_addresses())
                    self._read_at = now
        return self._addresses

    def forget(self) -> None:
        """Read them again at the next look (a test that changed them)."""
        with self._lock:
            self._read_at = float("-inf")


current = _Current()


class MachineHosts(list):
    """ALLOWED_HOSTS: the names given, then this computer's current
    addresses. Django (validate_host) and Channels' Origin check iterate the
    list at every request and handshake, so they see the addresses as they
    are now. A list, so that what Django and its test runner do with the
    setting (add "testserver", copy it) works as with any list."""

    def __iter__(self):
        fixed = list(super().__iter__())
        yield from fixed
        yield from (address for address in current() if address not in fixed)

    def __contains__(self, host) -> bool:
        return any(host == allowed for allowed in self)

    def __repr__(self) -> str:
        return f"MachineHosts({list(self)!r})"


class PhoneAddresses:
    """PHONE_ADDRESSES: the addresses phones on the Wi-Fi open (IP
    addresses, not the loopback), as they are now: what the host page's
    seat links and QR codes carry when it is opened on this computer
    (tracker/links.py), and what `manage.py serve` prints."""

    def _now(self) -> list[str]:
        return [h for h in current() if h[:1].isdigit() and not h.startswith("127.")]

    def __iter__(self):
        return iter(self._now())

    def __len__(self) -> int:
        return len(self._now())

    def __getitem__(self, index):
        return self._now()[index]

    def __repr__(self) -> str:
        return f"PhoneAddresses({self._now()!r})"
