"""A caught-up spectator's socket with no task of its own (issue 42 point 4, decision 0143).

Once a spectator has caught up, the fan-out writes its deltas into the socket's transport
(live/direct.py) and nothing is left for its ASGI task to do but wait for pings and for the
client to leave. Holding that task cost a socket its await chain: Litestar's `WebSocket` and
its wrappers, the router's and middleware's frames, the handler's, the task — and uvicorn's
receive queue and write event behind it (~10 KiB of the ~24 measured, decision 0126). So the
task ends: `detach` turns uvicorn's sans-I/O websocket protocol into `Detached`, which answers
the client's pings itself, closes on anything else (4400), closes a subscriber fallen behind
(4503) and, once the connection is gone, unsubscribes it and gives its address's count back.

Only a spectator's socket is detached: a judge's keeps its task (its token's revocation closes
it, live.py). Under another server, or another websocket implementation, `writer_of` answers
None and every socket keeps its task.
"""

from __future__ import annotations

import asyncio
import logging
from typing import Any, Protocol

import msgspec
from uvicorn.protocols.websockets.websockets_sansio_impl import WebSocketsSansIOProtocol
from websockets.protocol import State

from tableside.live.audience import SLOW, Audience, Subscriber
from tableside.live.feed import encode


class Places(Protocol):
    """Who gives a socket's place back when it goes: the hall's shared addresses
    (live/addresses.py), the federation relay's admission."""

    async def leave(self, pool: Any, client: str) -> None: ...


class Seat(Protocol):
    """What a detached socket needs of the feed it came from: the hall's Context, or the
    federation relay's seat (federation/relay/socket.py)."""

    @property
    def audience(self) -> Audience: ...

    @property
    def addresses(self) -> Places: ...

    @property
    def pool(self) -> Any: ...


PING = b'{"type":"ping"}'  # exactly what live.js sends (JSON.stringify)
PONG = encode({"kind": "pong"})
JUNK = 4400  # close code: the client sent something other than a ping
JUNK_REASON = "a live socket sends only a ping"
SLOW_REASON = "too far behind; reconnect with after"
CUT_SECONDS = 1.0  # a close frame not out by then: the connection is cut
_PING_MAX = 64  # a ping spelt another way (`{"type": "ping"}`, the README's) is short


def is_ping(text: bytes | str | None) -> bool:
    """A ping: live.js's exact bytes, or any short JSON object that is `{"type": "ping"}`
    however spaced (#50: the README's `{"type": "ping"}` closed the socket with 4400)."""
    if text is None:
        return False
    raw = text.encode() if isinstance(text, str) else text
    if raw == PING:
        return True
    if len(raw) > _PING_MAX:
        return False
    try:
        return msgspec.json.decode(raw) == {"type": "ping"}
    except msgspec.DecodeError:
        return False


class _Held:
    """Stands in for uvicorn's close timer while a detached socket is open: the ASGI task's
    end then leaves the transport open (`run_asgi` closes it when no close timer is set)."""

    __slots__ = ()

    def cancel(self) -> None:
        pass


HELD = _Held()
log = logging.getLogger(__name__)
_LEAVING: set[asyncio.Task] = set()  # what `gone` started, held until done


class Spectator:
    """What a detached socket does with what arrives, when it falls behind, and once it is
    gone: unsubscribed at once, its address's count given back (a round trip at most)."""

    __slots__ = ("channel", "client", "ctx", "proto", "sub")

    def __init__(self, proto: Any, ctx: Seat, channel: str, sub: Subscriber, client: str):
        self.proto, self.ctx, self.channel, self.sub, self.client = proto, ctx, channel, sub, client

    def received(self, text: bytes | None) -> None:
        """A whole message from the client (None: a binary one)."""
        if is_ping(text):
            conn = self.proto.conn
            conn.send_text(PONG)
            self.proto.transport.write(b"".join(conn.data_to_send()))
        else:
            self.close(JUNK, JUNK_REASON)

    def close(self, code: int, reason: str) -> None:
        """Send a close frame; the connection is cut if it is not out within CUT_SECONDS."""
        proto = self.proto
        if proto.close_sent or proto.transport.is_closing() or proto.conn.state is not State.OPEN:
            return
        proto.conn.send_close(code, reason)
        proto.transport.write(b"".join(proto.conn.data_to_send()))
        proto.close_sent = True
        if proto.read_paused:  # the client's echo of the close frame is read
            proto.read_paused = False
            proto.transport.resume_reading()
        proto.close_timer = proto.loop.call_later(CUT_SECONDS, _cut, proto.transport)

    def slow(self) -> None:
        """The subscriber fell too far behind (the fan-out's `drop`)."""
        self.close(SLOW, SLOW_REASON)

    def gone(self) -> None:
        ctx = self.ctx
        ctx.audience.unsubscribe(self.channel, self.sub)
        ctx.audience.detached -= 1
        task = asyncio.get_running_loop().create_task(_leave(ctx, self.client))
        _LEAVING.add(task)
        task.add_done_callback(_LEAVING.discard)


async def _leave(ctx: Seat, client: str) -> None:
    """Give the address's count back; a server on its way down (its pool closing) leaves it
    to the lease's expiry (live/addresses.py)."""
    try:
        await ctx.addresses.leave(ctx.pool, client)
    except Exception as exc:  # no task is left to hand it to
        log.debug("live count of %s not given back: %s", client, exc)


def _cut(transport: asyncio.Transport) -> None:
    """The close frame is out (close, the client had its chance to answer) or is not (cut)."""
    if transport.get_write_buffer_size():
        transport.abort()
    else:
        transport.close()


class Detached(WebSocketsSansIOProtocol):
    """uvicorn's sans-I/O websocket protocol with no ASGI task behind it: no receive queue, no
    write event; messages go to its `Spectator`, the connection's end to `Spectator.gone`."""

    spectator: Spectator

    def send_receive_event_to_app(self) -> None:
        data = self.frames[0] if len(self.frames) == 1 else b"".join(self.frames)
        self.frames = []
        if not self.close_sent:
            self.spectator.received(data if self.curr_msg_data_type == "text" else None)

    def pause_writing(self) -> None:  # the fan-out reads the buffer's size itself
        pass

    def resume_writing(self) -> None:
        pass

    def handle_close(self, event: Any) -> None:
        if not self.transport.is_closing():  # the client's close, or its echo of ours
            self.transport.write(b"".join(self.conn.data_to_send()))
            self.transport.close()

    def handle_parser_exception(self) -> None:  # e.g. a frame past the size bound: 1009
        self.transport.write(b"".join(self.conn.data_to_send()))
        self.close_sent = True
        self.transport.close()

    def shutdown(self) -> None:
        self.stop_keepalive()
        self.spectator.close(1012, "")  # the server restarts: reconnect with after
        self.transport.close()

    def connection_lost(self, exc: Exception | None) -> None:
        self.stop_keepalive()
        self.connections.discard(self)
        self.handshake_complete = self.disconnected = True
        if self.close_timer is not None:
            self.close_timer.cancel()
            self.close_timer = None
        if exc is None:
            self.transport.close()
        self.spectator.gone()


def detachable(proto: Any) -> bool:
    """Whether this connection's protocol is the one `detach` knows."""
    return isinstance(proto, WebSocketsSansIOProtocol)


def detach(proto: Any, ctx: Seat, channel: str, sub: Subscriber, client: str) -> bool:
    """Let the socket live on without its ASGI task (which is to return at once after);
    False when it is already closing (the task then ends it as before). What arrived while it
    caught up is handled now."""
    if proto.disconnected or proto.close_sent or proto.transport.is_closing():
        return False
    spectator = Spectator(proto, ctx, channel, sub, client)
    sub.drop = spectator.slow
    waiting = []
    while not proto.queue.empty():
        waiting.append(proto.queue.get_nowait())
    proto.__class__ = Detached
    proto.spectator = spectator
    ctx.audience.detached += 1  # before any answer goes out: a pong says it is counted
    proto.close_timer = HELD
    proto.queue = proto.writable = proto.scope = None
    if proto.read_paused:
        proto.read_paused = False
        proto.transport.resume_reading()
    for message in waiting:
        if message["type"] == "websocket.receive":
            text = message.get("text")
            spectator.received(text.encode() if text is not None else None)
    return True
