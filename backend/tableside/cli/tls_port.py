"""The HTTPS port answers plain HTTP with one redirect naming the https URL (issue 52).

A browser, or a person typing `http://laptop:8000`, that spoke plain HTTP to the HTTPS port
got an empty answer from a TLS server and no pointer to the right address. Here the port's
protocol reads a connection's first bytes: a TLS handshake record (0x16) goes on to TLS —
the loop's own TLS protocol (uvloop's, as `create_server(ssl=…)` used), handed those bytes,
with the context uvicorn made (web/tls_profile: Mozilla's intermediate profile, renewed
while serving) and uvicorn's HTTP protocol behind it, as before; anything else is read to
the end of its head (8 KiB at most) and answered `301` to the HTTPS origin with the same URL
as one line of text, then closed. Nothing but that pointer is ever answered in clear on the
port (decision 0117's reason against a sniffing port stands), and a connection that says
nothing is closed after HELLO_SECONDS (decision 0179).
"""

from __future__ import annotations

import asyncio
import ssl
from asyncio import sslproto
from typing import Any

HELLO_SECONDS = 10.0  # a connection that says nothing this long is closed
HEAD_BYTES = 8192  # a plain request's head read at most, before the answer
TLS_HANDSHAKE = 0x16  # a TLS record's first byte: a handshake


def tls_or_plain(inner: type[asyncio.Protocol], context: ssl.SSLContext, origin: str) -> type:
    """A protocol class for uvicorn (its `http_protocol_class`): TLS to `inner`, or the
    one-line redirect to `origin`."""
    return type("TlsOrPlain", (TlsOrPlain,), {"inner": inner, "context": context, "origin": origin})


def redirect(origin: str) -> bytes:
    """The whole answer to plain HTTP on the HTTPS port."""
    body = f"This port speaks HTTPS: open {origin}/\n".encode()
    head = (
        "HTTP/1.1 301 Moved Permanently\r\n"
        f"Location: {origin}/\r\n"
        "Content-Type: text/plain; charset=utf-8\r\n"
        f"Content-Length: {len(body)}\r\n"
        "Connection: close\r\n\r\n"
    )
    return head.encode() + body


def _ssl_protocol(loop: asyncio.AbstractEventLoop) -> type:
    """The loop's own TLS protocol (uvloop's under uvloop, as `create_server(ssl=…)` used)."""
    if type(loop).__module__.startswith("uvloop"):
        from uvloop.loop import SSLProtocol  # uvicorn's loop where uvloop is installed

        return SSLProtocol
    return sslproto.SSLProtocol


class TlsOrPlain(asyncio.Protocol):
    """One connection on the HTTPS port, until its first bytes say which it is."""

    inner: type[asyncio.Protocol]
    context: ssl.SSLContext
    origin: str

    def __init__(self, **kwargs: Any) -> None:
        self.kwargs = kwargs  # uvicorn's: config, server_state, app_state, _loop
        self.loop = kwargs.get("_loop") or asyncio.get_running_loop()
        self.transport: asyncio.Transport | None = None
        self.head = bytearray()  # what came before it was known to be plain HTTP
        self.timer: asyncio.TimerHandle | None = None

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        self.transport = transport  # type: ignore[assignment]
        self.timer = self.loop.call_later(HELLO_SECONDS, self._close)

    def data_received(self, data: bytes) -> None:
        if not self.head and data[:1] == bytes([TLS_HANDSHAKE]):
            return self._tls(data)
        self.head += data
        if b"\r\n\r\n" in self.head or len(self.head) >= HEAD_BYTES:
            self.transport.write(redirect(self.origin))
            self._close()
        return None

    def _tls(self, first: bytes) -> None:
        """Hand the connection, its first bytes included, to TLS and `inner` behind it."""
        self._stop_timer()
        tls = _ssl_protocol(self.loop)(
            self.loop,
            self.inner(**self.kwargs),
            self.context,
            None,
            server_side=True,
            ssl_handshake_timeout=HELLO_SECONDS,
        )
        self.transport.set_protocol(tls)
        tls.connection_made(self.transport)
        view = memoryview(first)
        while view:
            buffer = tls.get_buffer(len(view))
            size = min(len(buffer), len(view))
            buffer[:size] = view[:size]
            tls.buffer_updated(size)
            view = view[size:]

    def connection_lost(self, exc: Exception | None) -> None:
        self._stop_timer()

    def _close(self) -> None:
        self._stop_timer()
        self.transport.close()

    def _stop_timer(self) -> None:
        if self.timer is not None:
            self.timer.cancel()
            self.timer = None
