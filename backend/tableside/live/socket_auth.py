"""How a /live websocket authenticates: by its first message, never by its URL.

A judge's client asks for the subprotocol `tableside.auth` and, once accepted, sends
`{"type": "auth", "token": "tj_…"}` as its first message within AUTH_SECONDS. A spectator
asks for no subprotocol and sends nothing. Tokens in the URL end up in proxy access logs
(ASVS V14.2.1), so `/live?token=…` is refused like any other request (`auth.no_token_in_url`).
"""

from __future__ import annotations

import asyncio

import asyncpg
import msgspec
from litestar.exceptions import NotAuthorizedException, WebSocketDisconnect

from tableside.live.connection import LiveSocket
from tableside.web.auth import Principal, resolve
from tableside.web.problems import coded

AUTH_PROTOCOL = "tableside.auth"
AUTH_SECONDS = 5.0
_MAX_MESSAGE = 512  # an auth message is a few dozen bytes
# The largest frame the server reads on any websocket (uvicorn's `ws_max_size`, set by
# `tableside serve`): a judge's auth message fits, and a bigger frame is refused by its
# header — closed with 1009, its payload never buffered (issue 46: 150 sockets of 16 MiB
# frames took a worker from 192 to 911 MiB). What each kind may send past that: live.py.
MAX_FRAME = 1024


class AuthMessage(msgspec.Struct, forbid_unknown_fields=True):
    """The first message of an authenticating socket."""

    type: str
    token: str


def wants_auth(socket: LiveSocket) -> bool:
    """True when the client asked for the `tableside.auth` subprotocol."""
    return AUTH_PROTOCOL in (socket.scope.get("subprotocols") or [])


async def first_message_token(socket: LiveSocket, seconds: float = AUTH_SECONDS) -> str | None:
    """The token of the first message; None when it is late, malformed or not an auth message."""
    try:
        async with asyncio.timeout(seconds):
            raw = await socket.receive_data(mode="text")
        if not isinstance(raw, str) or len(raw) > _MAX_MESSAGE:
            return None
        message = msgspec.json.decode(raw, type=AuthMessage)
    except (TimeoutError, msgspec.DecodeError, msgspec.ValidationError, WebSocketDisconnect):
        return None
    return message.token if message.type == "auth" and message.token else None


async def accept_and_authenticate(pool: asyncpg.Pool, socket: LiveSocket) -> Principal | None:
    """Accept; a spectator's socket has no principal, an authenticating one must prove its token.

    401 (closed with 4401) when the first message is late, malformed or its token is unknown,
    expired or revoked.
    """
    if not wants_auth(socket):
        await socket.accept()
        return None
    await socket.accept(subprotocols=AUTH_PROTOCOL)
    principal = await resolve(pool, await first_message_token(socket))
    if principal is None:
        raise NotAuthorizedException(
            'Send {"type": "auth", "token": …} first', extra=coded("login_needed")
        )
    return principal
