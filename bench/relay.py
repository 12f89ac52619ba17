"""The transport's floor for `make bench`: a bare Channels consumer that only
relays each message it receives to its group (a match's two sockets), on the
same daphne, channel layer and process as the tracker. Mounted only by
bench/asgi.py, never by the tracker itself."""

from __future__ import annotations

from channels.generic.websocket import AsyncWebsocketConsumer


class RelayConsumer(AsyncWebsocketConsumer):
    async def connect(self):
        self.group = "relay-" + self.scope["url_route"]["kwargs"]["name"]
        await self.channel_layer.group_add(self.group, self.channel_name)
        await self.accept()

    async def disconnect(self, close_code):
        await self.channel_layer.group_discard(self.group, self.channel_name)

    async def receive(self, text_data=None, bytes_data=None):
        await self.channel_layer.group_send(
            self.group, {"type": "relay.message", "text": text_data or ""}
        )

    async def relay_message(self, event):
        await self.send(text_data=event["text"])
