"""One websocket per phone. It pushes the view of the seat it authenticated
at connect() (from the session cookie), never one the client names.

The channel layer only carries "seq n exists"; on that, and on a client's
resync, the consumer takes its own viewer's blocks (rendered once per seq and
viewer and shared, rendering.viewer_blocks) and sends the ones that changed.
Layers are at-most-once, so correctness never depends on a push: a
reconnecting phone always gets every block it does not already show.

Every frame is rendered in the phone's language, chosen at the handshake the
way LocaleMiddleware chooses it for HTTP (the language cookie set by the
page's ES/EN buttons, then Accept-Language, then LANGUAGE_CODE): the
middleware does not run for websockets.
"""

from __future__ import annotations

import json
import logging
import re
from http.cookies import SimpleCookie
from urllib.parse import parse_qs

from channels.db import database_sync_to_async
from channels.generic.websocket import AsyncWebsocketConsumer
from django.db import InterfaceError, OperationalError
from django.utils import translation

from tracker import seats
from tracker.models import Match
from tracker.rendering import blocks_for, changed_rows, digests, oob_frame

log = logging.getLogger(__name__)

MAX_MESSAGE = 2048
MAX_SHOWN = 16
DIGEST = re.compile(r"^[0-9a-f]{16}$")


class _Handshake:
    """What translation.get_language_from_request reads of a request."""

    def __init__(self, scope):
        headers = {k.decode("latin-1").lower(): v.decode("latin-1") for k, v in scope["headers"]}
        cookie = SimpleCookie()
        try:
            cookie.load(headers.get("cookie", ""))
        except Exception:  # a malformed cookie header: as if there were none
            cookie = SimpleCookie()
        self.COOKIES = {name: morsel.value for name, morsel in cookie.items()}
        self.META = {"HTTP_ACCEPT_LANGUAGE": headers.get("accept-language", "")}
        self.path_info = scope.get("path", "/")


def language_of(scope) -> str:
    """The language LocaleMiddleware would activate for this handshake."""
    return translation.get_language_from_request(_Handshake(scope))


def shown_digests(scope) -> set[str]:
    """The block digests the phone says it shows (?h=d1.d2...): only used to
    leave those blocks out of the first frame. A false claim only costs the
    phone blocks it then lacks; it can never add anything to a frame."""
    query = parse_qs(scope.get("query_string", b"").decode("latin-1"))
    found = set()
    for value in query.get("h", [])[:1]:
        found = {d for d in value.split(".")[:MAX_SHOWN] if DIGEST.match(d)}
    return found


class MatchConsumer(AsyncWebsocketConsumer):
    match_id: int | None = None
    letter: str | None = None
    language: str = ""
    sent: dict[str, str]
    shown: dict[str, str]
    last_seq = 0

    async def connect(self):
        self.sent = {}
        self.shown = {}
        self.language = language_of(self.scope)
        code = self.scope["url_route"]["kwargs"]["code"]
        found = await database_sync_to_async(self._authenticate)(code)
        if not found:
            await self.close(code=4404)
            return
        self.group = f"match-{self.match_id}"
        await self.channel_layer.group_add(self.group, self.channel_name)
        await self.accept()
        await self._push(full=True, shown=shown_digests(self.scope))

    def _authenticate(self, code: str) -> bool:
        match = Match.objects.filter(code=code).first()
        if match is None:
            return False
        self.match_id = match.pk
        self.letter = seats.seat_of(self.scope["session"], match)
        return True

    async def disconnect(self, close_code):
        if self.match_id is not None:
            await self.channel_layer.group_discard(self.group, self.channel_name)

    async def receive(self, text_data=None, bytes_data=None):
        """The only message a phone sends: "resync", after waking or reconnecting."""
        if not text_data or len(text_data) > MAX_MESSAGE:
            return
        try:
            message = json.loads(text_data)
        except ValueError:
            return
        if isinstance(message, dict) and message.get("resync"):
            await self._push(full=True)

    async def match_changed(self, event):
        if int(event.get("seq", 0)) > self.last_seq:
            await self._push(full=False)

    def _render(self):
        match = Match.objects.get(pk=self.match_id)
        # Re-read the seat each time: a PIN move takes the seat from this phone.
        self.letter = seats.seat_of(self.scope["session"], match)
        seat = match.seats.get(letter=self.letter) if self.letter else None
        with translation.override(self.language):
            return blocks_for(match, seat)

    async def _push(self, full: bool, shown: frozenset[str] | set[str] = frozenset()):
        try:
            seq, blocks = await database_sync_to_async(self._render)()
        except (OperationalError, InterfaceError):
            # The pool stayed exhausted: skip this push. The next one (or the
            # phone's resync on waking) sends every block that changed since,
            # because `sent` was not updated.
            log.warning("push skipped for match %s: database busy", self.match_id)
            return
        sums = digests(blocks)
        rows = {}
        if full:
            changed = {name: html for name, html in blocks.items() if sums[name] not in shown}
        else:
            changed = {
                name: html for name, html in blocks.items() if self.sent.get(name) != sums[name]
            }
            # Push less: a block where only trooper rows changed goes as
            # those rows (a trooper's State is the commonest action).
            for name in changed:
                before = self.shown.get(name)
                found = changed_rows(before, changed[name]) if before else None
                if found is not None:
                    rows[name] = found
        self.sent.update(sums)
        # The HTML behind each digest: the same strings as the render cache's.
        self.shown.update(blocks)
        self.last_seq = max(self.last_seq, seq)
        await self.send(text_data=oob_frame(changed, seq, rows))
