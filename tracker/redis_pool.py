"""One Redis connection pool per process for Django's Redis cache.

Django's RedisCache keeps its pool in the cache object, and caches are
context-local (asgiref's Local): each request runs in a context of
its own, so each got a new cache object, a new pool and a new TCP
connection to Redis, with its handshake, for its session and its counters
(51 connections for 50 page loads, issue 18). redis-py's pools are
thread-safe; sharing one per URL and options keeps the connections open
across requests, as django-redis does with its own connection factory (not
worth a second cache backend for this alone)."""

from __future__ import annotations

import threading

from redis import ConnectionPool


class SharedPool(ConnectionPool):
    _shared: dict[tuple, SharedPool] = {}
    _lock = threading.Lock()

    @classmethod
    def from_url(cls, url: str, **options) -> SharedPool:
        key = (url, tuple(sorted((name, repr(value)) for name, value in options.items())))
        with cls._lock:
            pool = cls._shared.get(key)
            if pool is None:
                pool = cls._shared[key] = super().from_url(url, **options)
            return pool
