"""The addresses printed for phones: seat links, their QR codes and the
spectators' link, on the host page and on the organizer's printed sheets.

One builder for both (issue 20 named the duplicate). A phone must be able to
open what it scans (issue 17): an organizer who opened the page on the
server's own computer (http://localhost:8000/) would otherwise hand out codes
that point at each phone itself. So the links use, in this order:

1. PUBLIC_URL, when set (a name or address the venue's phones reach, or the
   https:// address of a reverse proxy);
2. when the page was opened at a loopback address, the first LAN address this
   machine answers on (the one `make run` prints), with the page's scheme and
   port;
3. otherwise the address the page was opened at: the organizer reached the
   server over the network, so phones can too (and a test client, which has
   no LAN, gets its own host).
"""

from __future__ import annotations

import ipaddress
from dataclasses import dataclass

import segno
from django.conf import settings
from django.urls import reverse

from tracker import seats
from tracker.models import Match


def _hostname(host: str) -> str:
    """ "127.0.0.1:8000" -> "127.0.0.1", "[::1]:8000" -> "::1"."""
    if host.startswith("["):
        return host[1:].split("]", 1)[0]
    return host.rsplit(":", 1)[0] if host.count(":") == 1 else host


def is_loopback(host: str) -> bool:
    """Whether `host` (as in a Host header) names this computer only."""
    name = _hostname(host).lower()
    if name == "localhost" or name.endswith(".localhost"):
        return True
    try:
        return ipaddress.ip_address(name).is_loopback
    except ValueError:
        return False


def opened_here(request) -> bool:
    """The page was opened on the server's own computer (localhost)."""
    return is_loopback(request.get_host())


def phone_base(request) -> str:
    """Scheme, host and port that phones use, without a trailing slash."""
    if settings.PUBLIC_URL:
        return settings.PUBLIC_URL
    host = request.get_host()
    if opened_here(request) and settings.PHONE_ADDRESSES:
        # The port the organizer's browser used (the Host header's), which is
        # the one `make run` prints; none means the scheme's default.
        port = _port(host)
        return f"{request.scheme}://{settings.PHONE_ADDRESSES[0]}{':' + port if port else ''}"
    return f"{request.scheme}://{host}"


def _port(host: str) -> str:
    """ "localhost:8000" -> "8000", "[::1]:8000" -> "8000", "localhost" -> ""."""
    tail = host.rsplit("]", 1)[-1]
    return tail.rsplit(":", 1)[1] if ":" in tail else ""


def address_notice(request) -> dict | None:
    """What the host page and the sheets say when they were opened on this
    computer: the address their codes use, or that phones have none."""
    if not opened_here(request):
        return None
    base = phone_base(request)
    return {"base": base + "/", "reachable": not is_loopback(base.split("://", 1)[1])}


def phone_url(request, path: str) -> str:
    return phone_base(request) + path


def qr_code(url: str) -> str:
    """The QR code of `url` as an SVG data URI (for an <img>)."""
    return segno.make(url, error="m").svg_data_uri(scale=5, border=2)


@dataclass(frozen=True)
class SeatLink:
    seat: object
    url: str | None  # None: a handed-off seat's new link, hidden from this viewer
    qr: str | None  # only while the seat is free: a taken seat's link lets nobody in
    wrong_pins: int
    pins_spent: bool = False
    handed_off: bool = False  # free again after a hand-off, not yet taken
    holder_mark: str = ""  # the hand-off button's: which holder this page showed


def seat_links(request, match: Match, rows=None, state=None, may_hand_off=True) -> list[SeatLink]:
    """Each seat's link and, while it is free, its QR code (seat A first).

    With the match's `state`, a seat freed by a hand-off is told apart from
    one never taken; its new link is shown only to a viewer who `may_hand_off`
    (issue 22: a host who has sat in the match must not reach the link that
    takes the other player's seat)."""
    rows = sorted(match.seats.all() if rows is None else rows, key=lambda s: s.letter)
    links = []
    for seat in rows:
        url = phone_url(request, reverse("seat-link", args=[match.code, seat.token]))
        handed_off = state is not None and not seat.claimed and state.seat(seat.letter).claimed
        shown = seat.claimed or may_hand_off or not handed_off
        links.append(
            SeatLink(
                seat=seat,
                url=url if shown else None,
                qr=qr_code(url) if shown and not seat.claimed else None,
                wrong_pins=seats.wrong_pins(seat),
                pins_spent=seats.pins_spent(seat),
                handed_off=handed_off,
                holder_mark=seats.holder_mark(seat),
            )
        )
    return links


def watch_url(request, match: Match) -> str:
    """The match page, for spectators and the table."""
    return phone_url(request, reverse("match", args=[match.code]))
