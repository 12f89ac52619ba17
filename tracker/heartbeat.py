"""The socket heartbeat (issue 17): how a phone and the server both know,
within a few seconds, that the link between them is dead.

A Wi-Fi stall stops packets without closing TCP, so neither end hears of it
from the socket itself. The phone (static/tracker/app.js) pings about once a
second, {"ping": n}; the server answers at once, {"pong": n, "t": ms}, with
its own clock (milliseconds since the epoch), which the phone uses to stamp
each tap with a deadline in the server's time (tracker/taps.py). A phone
that hears nothing for a couple of seconds says "Offline" and connects
again.

A pong also says the match's newest seq, {"pong": n, "t": ms, "seq": s}
(tracker/match_seqs.py, issue 18): a phone whose push was lost (the channel
layer is at most once) sees that it is behind and asks for what it lacks.

The server, for its part, closes a socket it has not heard from for
SOCKET_SILENCE_SECONDS, so a dead phone's socket (its renders, its place in
the per-session count) does not linger. The deadline runs from the socket's
first frame, whether or not the phone ever pings: every page's app.js pings
as its socket opens, and a socket that never sends anything was held for
ever, so one client at a venue's address kept SOCKETS_PER_ADDRESS sockets
open at no cost and every other phone there was refused its own.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import time

from django.conf import settings

# Our own close code (4000-4999): nothing heard for too long.
SILENT = 4408
# A ping is {"ping": <a number>}: anything longer is not one.
PING_SIZE = 64


# The scope key of a socket's PongSlot, where daphne runs the app with
# tracker/fast_pongs.py installed.
SCOPE_KEY = "tracker.pongs"


class PongSlot:
    """Where a consumer leaves its socket's Heartbeat for the server's
    protocol to answer pings with (tracker/fast_pongs.py)."""

    __slots__ = ("heartbeat",)

    def __init__(self) -> None:
        self.heartbeat: Heartbeat | None = None


def hand_over(scope: dict, heartbeat: Heartbeat | None) -> None:
    """From now on (None: no longer) the server answers this socket's pings
    with `heartbeat` itself, where it can (tracker/fast_pongs.py); where it
    cannot, they reach the consumer, which answers them alike."""
    slot = scope.get(SCOPE_KEY)
    if slot is not None:
        slot.heartbeat = heartbeat


def server_ms() -> int:
    """The server's clock as the phone sees it in each pong."""
    return int(time.time() * 1000)


def _echo(value):
    # What the phone sent, back as it was if it is a plain number: the phone
    # times the round trip with it. Anything else is not echoed.
    if isinstance(value, int | float) and not isinstance(value, bool):
        return value
    return None


class Heartbeat:
    """One socket's heartbeat: answers pings, and closes the socket through
    `close` once it has gone silent."""

    def __init__(self, send, close, newest=lambda: None):
        self._send = send
        self._close = close
        # The match's newest seq as this process last read it, or None.
        self._newest = newest
        self.heard_at = time.monotonic()
        self._watch: asyncio.Task | None = None

    def heard(self) -> None:
        """Any frame from the phone shows the link is alive."""
        self.heard_at = time.monotonic()

    def watch(self) -> None:
        """Start the silence deadline, from now: called once the socket's
        first frame is sent (a ping that came while it was rendered is
        queued behind it, and is heard right after)."""
        self.heard()
        if self._watch is None:
            self._watch = asyncio.ensure_future(self._close_when_silent())

    async def answer(self, text: str | None) -> bool:
        """Answer the frame `text` if it is a ping; False for any other frame
        (left to the consumer's own checks)."""
        pong = self.pong_for(text)
        if pong is None:
            return False
        await self._send(pong)
        return True

    def pong_for(self, text: str | None) -> str | None:
        """The pong for the frame `text` if it is a ping, else None. Both
        ways a ping is answered build it here: the consumer's (`answer`) and
        the server's own, before the frame reaches the app
        (tracker/fast_pongs.py). Runs on the event loop."""
        if not text or len(text) > PING_SIZE or '"ping"' not in text:
            return None
        try:
            message = json.loads(text)
        except ValueError:
            return None
        if not isinstance(message, dict) or "ping" not in message:
            return None
        self.heard()
        if self._watch is None:  # (a ping before the first frame's end)
            self._watch = asyncio.ensure_future(self._close_when_silent())
        pong = {"pong": _echo(message["ping"]), "t": server_ms()}
        seq = self._newest()
        if seq is not None:
            pong["seq"] = seq
        return json.dumps(pong)

    async def _close_when_silent(self) -> None:
        limit = settings.SOCKET_SILENCE_SECONDS
        while True:
            left = self.heard_at + limit - time.monotonic()
            if left <= 0:
                await self._close(SILENT)
                return
            await asyncio.sleep(left)

    def cancel(self) -> None:
        """Stop the silence deadline without waiting for it (the app ends)."""
        if self._watch is not None:
            self._watch.cancel()
            self._watch = None

    async def stop(self) -> None:
        if self._watch is not None:
            self._watch.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await self._watch
            self._watch = None
