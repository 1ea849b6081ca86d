"""Writing live deltas straight to a spectator's socket, as a broadcast does (issue 17).

Once a subscriber has caught up, the fan-out task writes its deltas into the socket's
transport itself: no task woken per spectator, no ASGI `send` coroutine per delivery. Less
work than the `websockets` library's `broadcast()` (the bare app in `bench/live.py`): each
frame is made once for every socket without extensions (ours decline per-message deflate),
and a channel's deltas waiting together go out in one write. It needs the server's own
websocket protocol: uvicorn's sans-I/O websockets implementation (its default) is behind the
ASGI `send` it hands the app, which the app keeps in the scope (`tableside.server.TablesideApp`).
Under any other server `writer_of` answers None and the socket is fed by its own task through
ASGI (live/live.py, `_pump`).
"""

from __future__ import annotations

import contextlib
import socket
from typing import Any

from websockets.frames import Frame, Opcode
from websockets.protocol import State

RAW_SEND = "tableside.raw_send"  # the scope key holding the server's own ASGI send


def text_frame(data: bytes) -> bytes:
    """One unfragmented, unmasked text frame (a server's), with no extension applied."""
    return Frame(Opcode.TEXT, data).serialize(mask=False)


class DirectWriter:
    """One socket's transport and websocket protocol, written without awaiting."""

    __slots__ = ("_proto",)

    def __init__(self, proto: Any) -> None:
        self._proto = proto

    def write(self, framed: bytes, texts: list[bytes], behind_bytes: int) -> bool:
        """Send the deltas `texts`, whose plain frames joined are `framed` (the same bytes for
        every socket without extensions: one write); False when the socket is too far behind
        (more than `behind_bytes` not yet handed to the kernel). A socket already closing
        takes nothing and is not 'behind': its handler is ending."""
        proto = self._proto
        conn = proto.conn
        if proto.close_sent or proto.disconnected or conn.state is not State.OPEN:
            return True
        if proto.transport.get_write_buffer_size() > behind_bytes:
            return False
        if conn.extensions:  # e.g. per-message deflate: each socket's frames are its own
            for text in texts:
                conn.send_text(text)
            framed = b"".join(conn.data_to_send())
        proto.transport.write(framed)
        return True

    def bound(self, kernel_bytes: int) -> None:
        """Hold the kernel's send buffer for this socket to about `kernel_bytes` (Linux grows
        it to 4 MB by itself): a stalled spectator then costs a bounded amount of memory and is
        found behind, and dropped, within a few hundred deltas instead of a few thousand."""
        sock = self._proto.transport.get_extra_info("socket")
        # a client just gone: no socket (AttributeError), or uvloop's of descriptor -1
        with contextlib.suppress(OSError, AttributeError, ValueError):
            sock.setsockopt(socket.SOL_SOCKET, socket.SO_SNDBUF, kernel_bytes)

    def shed(self, scope: dict) -> None:
        """Let go of what the handshake left on the connection once the socket is admitted:
        uvicorn keeps the handshake's request and response (their headers) and the scope its
        copy of the headers for the socket's whole life, ~4 KiB a socket never read again
        (`_admit` has read the Origin; issue 42, point 4)."""
        proto = self._proto
        if getattr(proto, "handshake_complete", False):
            for name in ("request", "response"):
                if getattr(proto, name, None) is not None:
                    setattr(proto, name, None)
        scope["headers"] = []

    @property
    def proto(self) -> Any:
        """The server's websocket protocol of this socket (live/detached.py)."""
        return self._proto

    def abort(self) -> None:
        """Drop the connection at once (a slow socket that did not take its close frame)."""
        self._proto.transport.abort()


def writer_of(scope: Any) -> DirectWriter | None:
    """A direct writer for this websocket, when the server is uvicorn's sans-I/O websockets."""
    proto = getattr(scope.get(RAW_SEND), "__self__", None)
    needed = ("conn", "transport", "close_sent", "disconnected")
    if proto is None or not all(hasattr(proto, name) for name in needed):
        return None
    if not hasattr(proto.conn, "send_text") or not hasattr(proto.conn, "data_to_send"):
        return None
    return DirectWriter(proto)
