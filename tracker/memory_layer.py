"""The channel layer of one process without Redis (embedded: `serve` on
SQLite): Channels' InMemoryChannelLayer, sweeping for expired messages at
most once a second instead of on every message.

Channels' layer sweeps every channel's queue and every group's members on
each receive and each group_send (_clean_expired). Each socket waits on a
receive again after every message it takes, so one push to a match cost
three sweeps of all the process's sockets (issue 18): at 150 tables, 300
sockets walked three times per tap, on the server's one loop. Expiry is
a drop policy (at most once, CHANNEL_LAYERS' "expiry", minutes here), not a
deadline anything waits on: a message dropped a second later than its
expiry, or a lapsed group place removed a second later, changes nothing a
phone sees. The sweep itself is Channels' own.
"""

from __future__ import annotations

import time

from channels.layers import InMemoryChannelLayer

SWEEP_EVERY_SECONDS = 1.0


class SweepingInMemoryChannelLayer(InMemoryChannelLayer):
    _swept_at = float("-inf")

    def _clean_expired(self):
        now = time.monotonic()
        if now - self._swept_at < SWEEP_EVERY_SECONDS:
            return
        self._swept_at = now
        super()._clean_expired()
