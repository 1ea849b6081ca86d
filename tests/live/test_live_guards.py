"""/live below Litestar keeps the app-wide guards a websocket meets (decision 0143): no token
in the URL, and no judge's sign-in over plain ws:// across the hall network (ASVS V14.2.1,
issue 40) — refused at the handshake (403), as Litestar's guards refused it; a spectator's
socket, which carries no secret, is served over either."""

from __future__ import annotations

import asyncio
import json

import pytest
import websockets
from support.harness import Server, run_async
from tableside.live.socket_auth import AUTH_PROTOCOL

HALL = "hall.test"


@pytest.fixture(scope="module")
def hall(module_database_url):
    srv = Server(module_database_url, env={"TABLESIDE_HTTPS_ORIGIN": "https://hall.test:8443"})
    srv.start()
    yield srv
    srv.stop()


def _url(srv: Server, host: str, query: str) -> str:
    return f"ws://{host}:{srv.port}/live?{query}"


async def _status(srv: Server, host: str, query: str, **kw) -> int:
    """The handshake's HTTP status: 101, or the refusal's."""
    try:
        ws = await websockets.connect(_url(srv, host, query), host="127.0.0.1", **kw)
    except websockets.InvalidStatus as refused:
        return refused.response.status_code
    await ws.close()
    return 101


def test_a_judges_socket_in_clear_on_the_hall_network_is_refused(hall):
    async def scenario() -> list[int]:
        return [
            await _status(hall, HALL, "table=3", subprotocols=[AUTH_PROTOCOL]),
            await _status(hall, "127.0.0.1", "table=3", subprotocols=[AUTH_PROTOCOL]),
        ]

    assert run_async(scenario()) == [403, 101]  # loopback: nothing crossed the hall


def test_a_token_in_the_url_is_refused_on_live(hall):
    async def scenario() -> list[int]:
        return [
            await _status(hall, "127.0.0.1", "table=3&token=tj_x"),
            await _status(hall, "127.0.0.1", "table=3&access_token=tj_x"),
        ]

    assert run_async(scenario()) == [403, 403]


def test_a_spectator_is_served_in_clear_on_the_hall_network(hall):
    async def scenario() -> str:
        url = _url(hall, HALL, "table=3")
        async with websockets.connect(url, host="127.0.0.1") as ws:
            return json.loads(await asyncio.wait_for(ws.recv(), 10))["kind"]

    assert run_async(scenario()) == "snapshot"
