"""One websocket per phone. It pushes the view of the seat it authenticated
at connect() (from the session cookie), never one the client names.

The channel layer only carries "seq n exists"; on that, and on a client's
resync, the consumer renders its own viewer's blocks and sends the ones that
changed. Layers are at-most-once, so correctness never depends on a push:
a reconnecting phone always gets a full render.
"""

from __future__ import annotations

import json
from types import SimpleNamespace

from channels.db import database_sync_to_async
from channels.generic.websocket import AsyncWebsocketConsumer
from django.utils import translation

from tracker import seats
from tracker.models import Match
from tracker.rendering import blocks_for, oob_frame

MAX_MESSAGE = 2048


def language_of(scope) -> str:
    """The phone's language, chosen as LocaleMiddleware chooses it for its
    pages (language cookie, then Accept-Language), so a pushed block speaks
    the same language as the page it lands in (issue 8: Spanish pages got
    English blocks by push)."""
    headers = dict(scope.get("headers") or [])
    accept = headers.get(b"accept-language", b"").decode("latin-1")
    request = SimpleNamespace(
        COOKIES=scope.get("cookies") or {}, META={"HTTP_ACCEPT_LANGUAGE": accept}
    )
    return translation.get_language_from_request(request, check_path=False)


class MatchConsumer(AsyncWebsocketConsumer):
    match_id: int | None = None
    letter: str | None = None
    sent: dict[str, str]
    last_seq = 0

    async def connect(self):
        self.sent = {}
        code = self.scope["url_route"]["kwargs"]["code"]
        found = await database_sync_to_async(self._authenticate)(code)
        if not found:
            await self.close(code=4404)
            return
        self.group = f"match-{self.match_id}"
        await self.channel_layer.group_add(self.group, self.channel_name)
        await self.accept()
        await self._push(full=True)

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
        with translation.override(language_of(self.scope)):
            return blocks_for(match, seat)

    async def _push(self, full: bool):
        seq, blocks = await database_sync_to_async(self._render)()
        changed = {
            name: html for name, html in blocks.items() if full or self.sent.get(name) != html
        }
        self.sent.update(changed)
        self.last_seq = max(self.last_seq, seq)
        await self.send(text_data=oob_frame(changed, seq))
