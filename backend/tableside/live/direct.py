"""Writing a live delta straight to a spectator's socket, as a broadcast does (issue 17).

Once a subscriber has caught up, the fan-out task writes each delta's one encoded frame into
the socket's transport itself: no task woken per spectator, no ASGI `send` coroutine per
delivery — the same work as the `websockets` library's `broadcast()`, which the bare app in
`bench/live.py` uses. It needs the server's own websocket protocol, which uvicorn's sans-I/O
websockets implementation (its default) is behind the ASGI `send` it hands the app; the app
keeps that `send` in the scope (`server.app.TablesideApp`). Under any other server `writer_of`
answers None and the socket is fed by its own task through ASGI (live/live.py, `_pump`).
"""

from __future__ import annotations

import contextlib
import socket
from typing import Any

from websockets.exceptions import InvalidState

RAW_SEND = "tableside.raw_send"  # the scope key holding the server's own ASGI send


class DirectWriter:
    """One socket's transport and websocket protocol, written without awaiting."""

    __slots__ = ("_proto",)

    def __init__(self, proto: Any) -> None:
        self._proto = proto

    def write(self, data: bytes, behind_bytes: int) -> bool:
        """Send `data` as one text frame; False when the socket is too far behind to take it
        (more than `behind_bytes` not yet handed to the kernel).
        A socket already closing takes nothing and is not 'behind': its handler is ending."""
        proto = self._proto
        if proto.close_sent or proto.disconnected:
            return True
        if proto.transport.get_write_buffer_size() > behind_bytes:
            return False
        try:
            proto.conn.send_text(data)
        except InvalidState:  # the client's close frame arrived first
            return True
        proto.transport.write(b"".join(proto.conn.data_to_send()))
        return True

    def bound(self, kernel_bytes: int) -> None:
        """Hold the kernel's send buffer for this socket to about `kernel_bytes` (Linux grows
        it to 4 MB by itself): a stalled spectator then costs a bounded amount of memory and is
        found behind, and dropped, within a few hundred deltas instead of a few thousand."""
        sock = self._proto.transport.get_extra_info("socket")
        with contextlib.suppress(OSError, AttributeError):
            sock.setsockopt(socket.SOL_SOCKET, socket.SO_SNDBUF, kernel_bytes)

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
