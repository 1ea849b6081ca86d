"""The relay in the federation's app: its lifespan (after the core's: the pool is open) starts
this node's `Relay`, and `RelayApp` hands the relay's websocket to `relay_socket` below
Litestar (the server's own `send` kept in the scope for the direct writes, as the venue's
`TablesideApp` does for `/live`)."""

from __future__ import annotations

import contextlib
from collections.abc import AsyncIterator
from typing import Any

from litestar import Litestar

from tableside.federation.relay.node import Relay
from tableside.federation.relay.socket import RELAY_PATH, relay_socket
from tableside.live.direct import RAW_SEND


@contextlib.asynccontextmanager
async def relay_lifespan(app: Litestar) -> AsyncIterator[None]:
    """This node's relay while the app serves (its own LISTEN connection, its poll)."""
    ctx = app.state.federation
    relay = Relay(ctx.pool, ctx.settings.database_url, Relay.offline_from_env())
    app.state.relay = relay
    relay.start()
    try:
        yield
    finally:
        await relay.stop()


class RelayApp:
    """The federation's ASGI app with the relay's websocket served below Litestar."""

    def __init__(self, app: Litestar) -> None:
        self.app = app
        self.state = app.state

    async def __call__(self, scope: dict, receive: Any, send: Any) -> None:
        if scope["type"] == "websocket" and scope["path"] == RELAY_PATH:
            scope[RAW_SEND] = send
            await relay_socket(self.app, scope, receive, send)
            return
        await self.app(scope, receive, send)
