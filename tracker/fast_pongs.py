"""Pings answered by the server itself, before the frame reaches the app
(issue 18).

Each phone pings once a second (tracker/heartbeat.py), so at a venue most
of the frames a process reads are pings: 300 phones' pings took about a
tenth of a core on the laptop, a quarter of a 150-table night's CPU. Through
the app, each one is queued for the socket's application instance, wakes
its task, passes Channels' dispatch and its middlewares' send wrappers, and
is queued again for daphne to write. Here daphne's websocket protocol
answers it as the frame is read, from the socket's Heartbeat, which the
consumer hands over once it has one: measured with bench/serve_cpu.py,
about 30% less CPU for the same pings.

The consumer hands its Heartbeat over through a slot in the socket's scope
(heartbeat.hand_over): daphne builds that scope inside its protocol's
onConnect and passes it straight to its server, so the factory gives the
protocols a server that adds the slot on the way.

The pong is built by Heartbeat.pong_for whichever way it goes, so it says
the same (the phone's echo, the server's clock, the newest seq as the
consumer sees it), and a ping still counts as the phone being heard. Until
the consumer has handed its heartbeat over (a ping before the socket's
first frame), and under any server but daphne (the tests' communicators),
pings go to the consumer, which answers them the same way.

Why ours: daphne has no hook before its application queue, and autobahn's
own pings are protocol frames a browser's script never sees (the phone
must hear a message to know its link is alive).

Every frame a socket sends is counted here too, against a budget of
SOCKET_FRAME_BURST frames at once and SOCKET_FRAMES_PER_SECOND after that
(a phone sends about one a second). A socket past it is closed with 4429
and read no more: one client flooding pings (answered on this one event
loop) or other frames (which daphne queues for the consumer without bound)
held the loop from every other phone, and grew the server's memory.
"""

from __future__ import annotations

import logging
import time

import daphne.server
from daphne.ws_protocol import WebSocketFactory, WebSocketProtocol

from tracker.heartbeat import PING_SIZE, SCOPE_KEY, PongSlot

log = logging.getLogger(__name__)

# The close code of a socket past its frame budget (consumers.TOO_MANY).
FLOODED = 4429


class PongingProtocol(WebSocketProtocol):
    # Set from the settings by install().
    frame_burst = 40
    frames_per_second = 5.0
    # The frames this socket may still send now (None: a whole burst).
    allowance: float | None = None
    counted_at = 0.0
    flooded = False

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.pongs = PongSlot()

    def over_budget(self) -> bool:
        """Count one frame; True once the socket has sent more than its
        budget (it is then closed, and nothing more of it is read)."""
        if self.flooded:
            return True
        now = time.monotonic()
        if self.allowance is None:
            self.allowance = float(self.frame_burst)
        else:
            refill = (now - self.counted_at) * self.frames_per_second
            self.allowance = min(float(self.frame_burst), self.allowance + refill)
        self.counted_at = now
        if self.allowance >= 1:
            self.allowance -= 1
            return False
        self.flooded = True
        log.info("closed a socket sending frames past its budget (%s)", self.transport.getPeer())
        if self.state == self.STATE_OPEN:
            # The close frame goes out, and autobahn drops the connection
            # when the peer's answer has not come within its close
            # handshake's timeout (1 s): it never comes, as nothing more is
            # read. Not closed at once: with the flood still unread in the
            # kernel's buffer, closing is a reset, which could reach the
            # client before the close frame and lose its code.
            self.sendClose(code=FLOODED)
        else:
            self.transport.loseConnection()
        # The app hears the disconnect as for any socket that closes.
        self.transport.pauseProducing()
        return True

    def dataReceived(self, data: bytes) -> None:
        # autobahn's own dataReceived logs each read at debug level, and
        # builds that line's arguments (hltype) whether debug is on or not:
        # measured, about a twentieth of a ping's CPU.
        if not self._pong_at_once(data):
            self._dataReceived(data)

    def _pong_at_once(self, data: bytes) -> bool:
        """Answer `data` at once if it is exactly one whole ping frame, on
        an open socket with nothing else read of it pending; True if so.
        Anything else goes through autobahn's frame parser, as every frame
        did (a ping split over two reads, two pings in one read, a frame of
        a fragmented message, any extension's frame): that parser, its
        masker's setup and its message events were most of a ping's CPU,
        a tenth of a venue's (bench/serve_cpu.py's pings alone). Why our
        own bytes: autobahn has no hook before its parser, and a ping is a
        single masked text frame of at most PING_SIZE bytes (RFC 6455 5.2),
        which is all this reads."""
        heartbeat = self.pongs.heartbeat
        if (
            heartbeat is None
            or self.muted
            or self.state != self.STATE_OPEN
            or self.data
            or self.current_frame is not None
            or self.inside_message
            or self._perMessageCompress is not None
            or len(data) < 6
            or data[0] != 0x81  # FIN, no RSV bits, a text frame
        ):
            return False
        length = data[1] ^ 0x80  # a client's frame is masked: that bit set
        if length > PING_SIZE or len(data) != 6 + length:
            return False
        mask = int.from_bytes((data[2:6] * (length // 4 + 1))[:length], "big")
        payload = (int.from_bytes(data[6:], "big") ^ mask).to_bytes(length, "big")
        try:
            text = payload.decode("utf8")
        except UnicodeDecodeError:
            return False  # autobahn fails the socket, as for any such frame
        pong = heartbeat.pong_for(text)
        if pong is None:
            return False
        if self.over_budget():
            return True
        self.last_ping = time.time()  # as daphne's onMessage does for any frame
        self._send_text(pong.encode("utf8"))
        return True

    def _send_text(self, payload: bytes) -> None:
        """One unfragmented text frame, unmasked as a server's are, as
        autobahn's sendMessage writes it without an extension. Sent on the
        socket at once when nothing of this connection waits to be written
        before it (a pong nearly always): Twisted's write buffers every
        write until the loop's next turn, and registers and drops the
        socket's writer around it: a quarter of a ping's CPU (300 phones
        pinging, one server, three rounds each way: 43-45 ms of CPU a
        second through Twisted's write, 29-34 so). Twisted has no such
        option. What the kernel does not take, and anything over TLS (whose
        layer must see every byte), goes through Twisted's write as before."""
        size = len(payload)
        length = bytes((size,)) if size <= 125 else bytes((126,)) + size.to_bytes(2, "big")
        frame = b"\x81" + length + payload  # FIN, a text frame; no mask
        transport = self.transport
        if (
            getattr(transport, "TLS", True) is False
            and transport.connected
            and not transport.disconnecting
            and not transport._writeDisconnected
            and not transport._tempDataBuffer
            and len(transport.dataBuffer) == transport.offset
        ):
            try:
                sent = transport.socket.send(frame)
            except OSError:
                sent = 0
            frame = frame[sent:]
        if frame:
            transport.write(frame)

    def onMessage(self, payload, isBinary):
        if self.over_budget():
            return
        heartbeat = self.pongs.heartbeat
        if heartbeat is not None and not isBinary and not self.muted and len(payload) <= PING_SIZE:
            pong = heartbeat.pong_for(payload.decode("utf8", "replace"))
            if pong is not None:
                self.last_ping = time.time()  # as daphne's onMessage does for any frame
                if self.state == self.STATE_OPEN:
                    self.sendMessage(pong.encode("utf8"))
                return
        super().onMessage(payload, isBinary)


class _ServerGivingSlots:
    """daphne's Server as the protocols see it, but for one thing: each
    socket's scope carries its protocol's PongSlot (daphne builds the scope
    inside its protocol's onConnect and hands it straight to the server)."""

    def __init__(self, server) -> None:
        self._server = server

    def __getattr__(self, name):
        return getattr(self._server, name)

    def create_application(self, protocol, scope):
        slot = getattr(protocol, "pongs", None)
        if slot is not None:
            scope[SCOPE_KEY] = slot
        return self._server.create_application(protocol, scope)


class PongingFactory(WebSocketFactory):
    protocol = PongingProtocol

    def __init__(self, server_class, *args, **kwargs):
        super().__init__(_ServerGivingSlots(server_class), *args, **kwargs)


def install() -> None:
    """Make the daphne server started in this process answer pings itself.
    Called where the ASGI application is loaded, before daphne's Server.run
    builds its websocket factory (tracker/asgi.py)."""
    from django.conf import settings

    PongingProtocol.frame_burst = settings.SOCKET_FRAME_BURST
    PongingProtocol.frames_per_second = settings.SOCKET_FRAMES_PER_SECOND
    daphne.server.WebSocketFactory = PongingFactory
