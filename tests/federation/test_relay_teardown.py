"""The federation's relay shares the hall's direct writer (live/direct.py): remote spectators
that leave during the handshake or their catch-up, and clients that flood frames and reset,
leave no traceback on the node (`ValueError: negative file descriptor` before decision 0208;
issue 50, point 8), and the next remote spectator is served."""

from __future__ import annotations

import asyncio
import contextlib
import json

from support.harness import run_async
from support.raw_live import (
    FLOOD_STARTS,
    PING,
    SECONDS,
    flood,
    leave,
    open_raw,
    reset,
    settled,
    traces_since,
)
from support.relay_setup import venue_and_nodes
from support.remote_crowd import PATH
from websockets.asyncio.client import connect

LEAVING = 48  # remote spectators leaving during setup, four ways
FLOODS = 12  # flooding clients: each start with each end, twice


async def _served(base: str) -> list[str]:
    """A remote spectator's messages up to caught_up, then the answer to its ping."""
    async with asyncio.timeout(SECONDS), connect(base) as ws:
        got = [json.loads(await ws.recv())["kind"]]
        while got[-1] != "caught_up":
            got.append(json.loads(await ws.recv())["kind"])
        await ws.send(PING.decode())
        got.append(json.loads(await ws.recv())["kind"])
        return got


def test_remote_spectators_leaving_or_flooding_leave_no_traceback_on_the_node(
    new_database, federation_database, tmp_path
) -> None:
    with venue_and_nodes(new_database(), federation_database, tmp_path, 1) as (_, nodes, vid):
        node, log = nodes[0], tmp_path / "node-0.log"
        since, ports = log.stat().st_size, set()
        target = f"{PATH}?venue={vid}"
        socks = [open_raw(node, target, ports) for _ in range(LEAVING)]
        for n, sock in enumerate(socks):
            with contextlib.suppress(OSError):
                leave(sock, n % 4)
        for n in range(FLOODS):
            sock = open_raw(node, target, ports)
            with contextlib.suppress(OSError):
                FLOOD_STARTS[n % len(FLOOD_STARTS)](sock)
                sock.sendall(flood(n))
            reset(sock)
        settled(node, ports)
        got = run_async(_served(f"{node.ws}{target}"))
        assert got[0] == "snapshot" and got[-2:] == ["caught_up", "pong"], got
        found, tail = traces_since(log, since)
        assert not found, f"{found}\n{tail}"
