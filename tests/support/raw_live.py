"""Raw TCP websocket clients for a live feed (the hall's `/live`, the federation's relay):
ones that leave during the handshake or the catch-up, flood frames, reset the connection —
what a websocket library never does — and what the server process still holds afterwards."""

from __future__ import annotations

import base64
import os
import socket
import struct
import time
from collections.abc import Callable
from pathlib import Path

import psutil
from tableside.live.socket_auth import MAX_FRAME
from websockets.frames import Frame, Opcode

from support.harness import Server

SECONDS = 30.0  # every wait's bound
PING = b'{"type":"ping"}'
TRACES = ("Traceback", "ValueError", "Exception in ASGI", "negative file descriptor")


def request(port: int, target: str) -> bytes:
    """A websocket handshake's request for `target` (path and query)."""
    key = base64.b64encode(os.urandom(16)).decode()
    return (
        f"GET {target} HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\n"
        "Upgrade: websocket\r\nConnection: Upgrade\r\n"
        f"Sec-WebSocket-Key: {key}\r\nSec-WebSocket-Version: 13\r\n\r\n"
    ).encode()


def open_raw(srv: Server, target: str, ports: set[int]) -> socket.socket:
    """A raw connection whose websocket handshake is asked for (not yet answered); its local
    port is added to `ports`."""
    sock = socket.create_connection(("127.0.0.1", srv.port), timeout=SECONDS)
    ports.add(sock.getsockname()[1])
    sock.sendall(request(srv.port, target))
    return sock


def answered(sock: socket.socket) -> None:
    """Until the handshake's answer (101) is read; what follows it is left unread."""
    head = b""
    while b"\r\n\r\n" not in head:
        chunk = sock.recv(1)
        assert chunk, "closed before the handshake was answered"
        head += chunk
    assert head.startswith(b"HTTP/1.1 101"), head


def caught_up(sock: socket.socket) -> None:
    """Until the server's `caught_up` has come (the socket is then detached: its own task
    gone, the protocol answering pings itself, live/detached.py)."""
    answered(sock)
    seen = b""
    while b'"caught_up"' not in seen:
        chunk = sock.recv(65536)
        assert chunk, "closed before caught_up"
        seen = seen[-64:] + chunk


def reset(sock: socket.socket) -> None:
    """Close with a RST, not a FIN (SO_LINGER 0)."""
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
    sock.close()


def leave(sock: socket.socket, way: int) -> None:
    """One of four ways to go during setup: at once or once answered, by FIN or by RST."""
    if way >= 2:
        answered(sock)
    if way % 2:
        reset(sock)
    else:
        sock.close()


# When a flooding client starts: pipelined behind its handshake (before the answer), while
# it catches up (once answered), or once detached (caught up)
FLOOD_STARTS: tuple[Callable[[socket.socket], None], ...] = (lambda sock: None, answered, caught_up)


def _frame(opcode: Opcode, data: bytes) -> bytes:
    return Frame(opcode, data).serialize(mask=True)


def flood(way: int) -> bytes:
    """What a flooding client sends: text pings and control pings, then junk or a header
    announcing a frame past MAX_FRAME (the server refuses it by its header, 1009)."""
    pings = _frame(Opcode.TEXT, PING) * 300 + _frame(Opcode.PING, b"p") * 300
    if way % 2:
        too_big = struct.pack("!BBQ", 0x81, 0x80 | 127, MAX_FRAME + 1) + os.urandom(4)
        return pings + too_big + b"x" * 65536
    return pings + _frame(Opcode.TEXT, b"junk") * 50


def connections(srv: Server, ports: set[int]) -> int:
    """Connections from these client ports the server process still holds."""
    conns = psutil.Process(srv.proc.pid).net_connections(kind="tcp")
    return sum(1 for c in conns if c.laddr.port == srv.port and c.raddr and c.raddr.port in ports)


def settled(srv: Server, ports: set[int], also: Callable[[], bool] = lambda: True) -> None:
    """Until the server holds none of the connections from `ports` (and `also` holds)."""
    deadline = time.monotonic() + SECONDS
    while time.monotonic() < deadline:
        if connections(srv, ports) == 0 and also():
            return
        time.sleep(0.05)
    raise AssertionError("the server still holds the connections")


def traces_since(log: Path, since: int) -> tuple[dict[str, int], str]:
    """How often each trace of a traceback is in what the server wrote from byte `since` on,
    and the end of that text."""
    with log.open("rb") as out:
        out.seek(since)
        text = out.read().decode(errors="replace")
    return {trace: text.count(trace) for trace in TRACES if trace in text}, text[-3000:]
