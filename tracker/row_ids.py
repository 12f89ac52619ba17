"""Army list row ids, which become the troopers' ids once the list locks.

Derived, not random: the same draft renders the same "add" form (a double
tap is recognised by its id), a retried paste gives the same rows. But keyed
with the server's SECRET_KEY, never a hash of what the opponent may know:
the seat's link token is on the host page and in the QR code shown at the
table (the opponent may have created the match), and the opponent reads the
ids of every visible trooper. With ids hashed from the token and the rows
before them, the opponent could tell that a trooper sits hidden between two
visible ones and try names and points until the next id matched (HD intro:
a Hidden Deployment trooper's existence is private).
"""

from __future__ import annotations

import hmac

from django.conf import settings

# Issue 18: a page names each of its troopers about nine times (its row, and
# the options of every form that picks one), so an id's length is paid some
# 225 times on a 25-trooper page. 8 hex digits (32 bits) keep two ids of one
# match apart but by a chance of about 3 in 10 million for 50 troopers, and
# a clash is refused with a message when the list locks (setup.py); the
# opponent cannot test guesses against them whatever their length, since
# they cannot compute the HMAC. Hex, not base62: the rules take alphanumeric
# ids, and tests tell a hex id from a word (test_indirect_leaks.py).
ROW_ID_LENGTH = 8


def row_id(token: str, *parts: str) -> str:
    """An 8-hex-digit id for the seat with link `token`, from `parts`."""
    message = "\n".join(("army-row", token, *parts)).encode()
    digest = hmac.new(settings.SECRET_KEY.encode(), message, "sha256").hexdigest()
    return digest[:ROW_ID_LENGTH]
