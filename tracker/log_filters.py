"""Log filters for what a venue's server log should say in one line."""

from __future__ import annotations

import logging

from django.core.exceptions import PermissionDenied, SuspiciousOperation
from redis.exceptions import ConnectionError as RedisConnectionError
from redis.exceptions import TimeoutError as RedisTimeoutError


class RedisLinkLost(logging.Filter):
    """channels-redis's publish/subscribe layer logs a dropped Redis
    connection (a Redis restart, a network blip) as "Unexpected exception in
    receive task" with a traceback, then reconnects and subscribes again by
    itself a second later (redis-py's PubSub). That is expected at a venue,
    not a bug: one line says what happened and what heals it. Any other
    exception keeps its traceback."""

    def filter(self, record: logging.LogRecord) -> bool:
        error = record.exc_info[1] if record.exc_info else None
        if isinstance(error, RedisConnectionError | RedisTimeoutError):
            record.msg = (
                "Redis connection lost (%s): subscribing again; pushes published "
                "meanwhile reach the phones through their pongs"
            )
            record.args = (error,)
            record.levelno, record.levelname = logging.WARNING, "WARNING"
            record.exc_info = None
            record.exc_text = None
        return True


class RefusalsInOneLine(logging.Filter):
    """A request Django refuses for the client's own doing is the client's
    mistake (or a probe), not a bug: PermissionDenied (403: a staff account
    opening an admin page it has no permission for, a player on an
    organizer's page) and SuspiciousOperation (400: a body over the cap,
    too many fields, a forged session). Django logs each with a traceback,
    which on the organizer's laptop reads as a crash; the one line it
    writes ("Forbidden (Permission denied): /admin/tracker/match/") says
    all there is. On the console handler, so that it covers every
    django.security.* logger too (a logger's own filters do not see its
    children's records). Any other exception keeps its traceback."""

    def filter(self, record: logging.LogRecord) -> bool:
        error = record.exc_info[1] if record.exc_info else None
        if isinstance(error, PermissionDenied | SuspiciousOperation):
            record.exc_info = None
            record.exc_text = None
        return True
