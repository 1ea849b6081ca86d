"""A /live socket below Litestar: the few calls the feed makes on an ASGI websocket.

`/live` is served as a plain ASGI app (`tableside.server.TablesideApp` hands it over before
Litestar's router): a crowd of spectators then costs no Litestar connection, send and receive
wrappers, guard copies or middleware frames per socket while it catches up (decision 0143).
What Litestar did for it is done here: the app-wide guards that concern a websocket (no token
in the URL, no secret over plain ws:// on the hall network: `guard`), a refusal before the
handshake answered 403, the disconnect raised as `WebSocketDisconnect`.
"""

from __future__ import annotations

from typing import Any
from urllib.parse import parse_qsl

from litestar.exceptions import HTTPException, WebSocketDisconnect

from tableside.live.direct import DirectWriter, text_frame
from tableside.web.auth import no_token_in_url
from tableside.web.transport import no_secrets_in_clear

DRAINED_BYTES = 64 * 1024  # written past ASGI while the transport's buffer holds less


class LiveSocket:
    """One ASGI websocket: accept, receive a text, send, close."""

    __slots__ = ("_query", "app", "direct", "disconnected", "receive", "scope", "send")

    def __init__(self, app: Any, scope: dict, receive: Any, send: Any) -> None:
        self.app, self.scope, self.receive, self.send = app, scope, receive, send
        self.disconnected = False
        self.direct: DirectWriter | None = None  # the server's own protocol, once admitted
        self._query: dict[str, str] | None = None

    @property
    def query_params(self) -> dict[str, str]:
        """The query's parameters, the first of each name."""
        if self._query is None:
            pairs = parse_qsl(self.scope.get("query_string", b"").decode("latin-1"))
            self._query = {}
            for name, value in pairs:
                self._query.setdefault(name, value)
        return self._query

    @property
    def headers(self) -> dict[str, str]:
        """The request's headers (read by the guards only: not kept)."""
        found: dict[str, str] = {}
        for name, value in self.scope.get("headers", ()):
            found.setdefault(name.decode("latin-1"), value.decode("latin-1"))
        return found

    @property
    def client(self) -> Any:
        return _Client(self.scope["client"][0]) if self.scope.get("client") else None

    async def accept(self, subprotocols: str | None = None) -> None:
        await self._receive()  # websocket.connect
        await self.send({"type": "websocket.accept", "subprotocol": subprotocols, "headers": []})

    async def receive_data(self, mode: str = "text") -> str:
        """The next message's text ("" for a binary one)."""
        message = await self._receive()
        return message.get("text") or ""

    async def send_data(self, data: bytes) -> None:
        """Send a text message: straight into the transport while little waits in its buffer
        (no str made of the bytes and bytes again, per socket, as a crowd catches up), through
        ASGI — which waits for the buffer to drain — otherwise."""
        direct = self.direct
        if direct is None or not direct.write(text_frame(data), [data], DRAINED_BYTES):
            await self._send({"type": "websocket.send", "text": data.decode()})

    async def close(self, code: int = 1000, reason: str | None = None) -> None:
        await self._send({"type": "websocket.close", "code": code, "reason": reason or ""})

    async def _receive(self) -> dict:
        if self.disconnected:
            raise WebSocketDisconnect(detail="disconnected")
        message = await self.receive()
        if message["type"] == "websocket.disconnect":
            self.disconnected = True
            raise WebSocketDisconnect(detail="disconnect event", code=message.get("code", 1000))
        return message

    async def _send(self, message: dict) -> None:
        if self.disconnected:
            raise WebSocketDisconnect(detail="disconnected")
        await self.send(message)


class _Client:
    __slots__ = ("host",)

    def __init__(self, host: str) -> None:
        self.host = host


async def guard(socket: LiveSocket) -> bool:
    """The app-wide guards a websocket meets (`tableside.server._app_guards`: the database gate
    concerns /api/ only); False, and the handshake refused with 403, when one refuses."""
    try:
        await no_token_in_url(socket)  # type: ignore[arg-type]
        await no_secrets_in_clear(socket)  # type: ignore[arg-type]
    except HTTPException:
        await socket.close(code=1008)
        return False
    return True
