"""A fault-injecting TCP proxy for the browser tests (issue 17): a real
network fault between a phone and the server, not the browser's offline
switch, which fires events a real drop never fires.

    link = FaultyLink(upstream_port).start()   # phones open link.url
    link.stall()     # packets stop both ways; every socket stays open
    link.stall_down()  # only the server's packets stop: the phone's get through
    link.reset()     # every connection gets an RST; new ones are refused
    link.latency(0.4)
    link.restore()   # everything flows again

Stalled bytes, and a side's close, are kept in order and delivered when the
link flows again, as a stalled Wi-Fi delivers them when it recovers: a
request a phone gave up on still reaches the server, late. Everything is on
127.0.0.1; the proxy runs its own event loop in a daemon thread.

Written here because it is a few dozen lines of asyncio, and the fault
proxies we know of (toxiproxy and the like) are separate servers to install
and drive, not test helpers.
"""

from __future__ import annotations

import asyncio
import contextlib
import socket
import struct
import threading
import time

HOST = "127.0.0.1"
CHUNK = 65536
_EOF = object()  # the sending side closed (FIN)
_RST = object()  # the sending side was reset


def _abort_with_rst(writer: asyncio.StreamWriter) -> None:
    sock = writer.get_extra_info("socket")
    if sock is not None:
        with contextlib.suppress(OSError):
            sock.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
    writer.transport.abort()


class _Pipe:
    """One proxied connection: two directions, each a queue of chunks."""

    def __init__(self, link: FaultyLink, client, upstream):
        self.link = link
        self.client = client  # (reader, writer) from the phone
        self.upstream = upstream  # (reader, writer) to the server
        self.tasks: list[asyncio.Task] = []

    def start(self) -> None:
        for source, destination, down in (
            (self.client, self.upstream, False),
            (self.upstream, self.client, True),
        ):
            queue: asyncio.Queue = asyncio.Queue()
            self.tasks.append(asyncio.ensure_future(self._read(source[0], queue)))
            self.tasks.append(asyncio.ensure_future(self._deliver(queue, destination[1], down)))

    async def _read(self, reader: asyncio.StreamReader, queue: asyncio.Queue) -> None:
        try:
            while True:
                chunk = await reader.read(CHUNK)
                if not chunk:
                    await queue.put((time.monotonic(), _EOF))
                    return
                await queue.put((time.monotonic(), chunk))
        except (ConnectionError, OSError):
            await queue.put((time.monotonic(), _RST))

    async def _deliver(
        self, queue: asyncio.Queue, writer: asyncio.StreamWriter, down: bool
    ) -> None:
        try:
            while True:
                read_at, item = await queue.get()
                await self.link._flowing(down)
                delay = read_at + self.link.delay - time.monotonic()
                if delay > 0:
                    await asyncio.sleep(delay)
                    await self.link._flowing(down)
                if item is _RST:
                    _abort_with_rst(writer)
                    return
                if item is _EOF:
                    if writer.can_write_eof():
                        writer.write_eof()
                    else:
                        writer.close()
                    return
                writer.write(item)
                await writer.drain()
        except (ConnectionError, OSError):
            return

    def reset(self) -> None:
        for task in self.tasks:
            task.cancel()
        _abort_with_rst(self.client[1])
        _abort_with_rst(self.upstream[1])


class FaultyLink:
    def __init__(self, upstream_port: int, host: str = HOST):
        # `host`: the address phones open. A LAN address, as at a venue, is
        # no secure context for Chromium: no service worker, unlike 127.0.0.1.
        self.host = host
        self.upstream_port = upstream_port
        self.port = 0
        self.mode = "pass"
        self.delay = 0.0
        self.pipes: set[_Pipe] = set()
        self.loop = asyncio.new_event_loop()
        self._flow: asyncio.Event | None = None
        self._down: asyncio.Event | None = None
        self._server: asyncio.base_events.Server | None = None
        self._thread = threading.Thread(target=self.loop.run_forever, daemon=True)

    @property
    def url(self) -> str:
        return f"http://{self.host}:{self.port}"

    def start(self) -> FaultyLink:
        self._thread.start()
        self._call(self._listen())
        return self

    def _call(self, coroutine, timeout: float = 10):
        return asyncio.run_coroutine_threadsafe(coroutine, self.loop).result(timeout)

    async def _listen(self) -> None:
        self._flow = asyncio.Event()
        self._flow.set()
        self._down = asyncio.Event()
        self._down.set()
        self._server = await asyncio.start_server(self._accept, self.host, 0)
        self.port = self._server.sockets[0].getsockname()[1]

    async def _flowing(self, down: bool) -> None:
        """Until this direction flows (`down`: from the server to the phone)."""
        while not self._flow.is_set() or (down and not self._down.is_set()):
            await (self._flow if not self._flow.is_set() else self._down).wait()

    async def _accept(self, reader, writer) -> None:
        if self.mode == "reset":
            _abort_with_rst(writer)
            return
        try:
            upstream = await asyncio.open_connection(HOST, self.upstream_port)
        except OSError:
            _abort_with_rst(writer)
            return
        pipe = _Pipe(self, (reader, writer), upstream)
        self.pipes.add(pipe)
        pipe.start()
        with contextlib.suppress(asyncio.CancelledError):  # close() ends it
            await asyncio.gather(*pipe.tasks, return_exceptions=True)
        self.pipes.discard(pipe)
        for _reader, side in (pipe.client, pipe.upstream):
            side.close()

    async def _set(self, mode: str, delay: float) -> None:
        self.mode, self.delay = mode, delay
        if mode == "stall":
            self._flow.clear()
        else:
            self._flow.set()
        if mode == "stall_down":
            self._down.clear()
        else:
            self._down.set()
        if mode == "reset":
            for pipe in list(self.pipes):
                pipe.reset()
            self.pipes.clear()

    def stall(self) -> None:
        """Stop forwarding both ways; keep every socket open and accept new ones."""
        self._call(self._set("stall", self.delay))

    def stall_down(self) -> None:
        """Stop forwarding what the server sends, keep forwarding what the
        phone sends: its requests land, their answers wait (a Wi-Fi that
        fails one way)."""
        self._call(self._set("stall_down", self.delay))

    def reset(self) -> None:
        """RST every connection, and each new one, until restored."""
        self._call(self._set("reset", 0.0))

    def latency(self, seconds: float) -> None:
        """Forward everything, each chunk `seconds` after it arrived."""
        self._call(self._set("latency", seconds))

    def restore(self) -> None:
        """Forward everything at once again, stalled bytes first."""
        self._call(self._set("pass", 0.0))

    def close(self) -> None:
        async def shut():
            for pipe in list(self.pipes):
                pipe.reset()
            if self._server is not None:
                self._server.close()
            others = [t for t in asyncio.all_tasks() if t is not asyncio.current_task()]
            for task in others:
                task.cancel()
            await asyncio.gather(*others, return_exceptions=True)

        with contextlib.suppress(Exception):
            self._call(shut())
        self.loop.call_soon_threadsafe(self.loop.stop)
        self._thread.join(timeout=5)
        if not self._thread.is_alive():
            self.loop.close()
