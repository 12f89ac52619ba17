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


def row_id(token: str, *parts: str) -> str:
    """A 12-hex-digit id for the seat with link `token`, from `parts`."""
    message = "\n".join(("army-row", token, *parts)).encode()
    return hmac.new(settings.SECRET_KEY.encode(), message, "sha256").hexdigest()[:12]
