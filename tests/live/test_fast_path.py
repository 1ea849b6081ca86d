"""The `/live` fast path is on under the uvicorn `pyproject.toml` pins (issue 55, decision 0212).

The fast path (live/direct.py, live/detached.py) writes into uvicorn's sans-I/O websocket
protocol and swaps its class; under a uvicorn whose protocol lacks what it needs, every socket
falls back to a task of its own and nothing fails but the memory and the rate. So this file
fails instead: a caught-up spectator's socket is detached — `/health` counts it in
`live.detached` — on a real server, and is counted no more once it has gone. The other side
(the fast path off, the count staying 0) is `test_live.py::test_two_servers_both_see_every_event`,
whose second server runs uvicorn's older websockets implementation.
"""

from __future__ import annotations

import asyncio
import json

import websockets
from support.harness import run_async, wait_for
from uvicorn.protocols.websockets.auto import AutoWebSocketsProtocol
from uvicorn.protocols.websockets.websockets_sansio_impl import WebSocketsSansIOProtocol


def test_uvicorns_default_websocket_protocol_is_the_one_the_fast_path_swaps():
    """uvicorn picks the sans-I/O protocol by itself (`--ws auto`): before 0.50 it did not."""
    assert AutoWebSocketsProtocol is WebSocketsSansIOProtocol


def test_a_caught_up_spectator_is_served_by_the_fast_path(server, head):
    """Caught up, a spectator's socket has no task of its own: the pong that answers its ping
    comes after the socket was detached (or not), so `/health` then says which, no waiting."""

    def live() -> dict[str, int]:
        return head.get("/health").json()["live"]

    before = live()

    async def scenario() -> dict[str, int]:
        async with websockets.connect(f"{server.ws}/live?hall=all") as ws:
            while json.loads(await asyncio.wait_for(ws.recv(), 5))["kind"] != "caught_up":
                pass
            await ws.send('{"type":"ping"}')
            assert json.loads(await asyncio.wait_for(ws.recv(), 5)) == {"kind": "pong"}
            return await asyncio.to_thread(live)

    open_ = run_async(scenario())
    assert open_ == {
        "sockets": before["sockets"] + 1,
        "detached": before["detached"] + 1,
    }, "the /live fast path is off under this uvicorn (live/direct.py, live/detached.py)"
    # gone: unsubscribed, its count given back (the close reaches the server in its own time)
    wait_for(lambda: live() == before, timeout=30)
