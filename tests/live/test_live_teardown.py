"""A /live socket's end never touches a closed socket (issue 50, point 8): spectators that
close the TCP connection during the handshake or before their first snapshot, and clients
that flood frames (pings, junk, an oversized frame) and then reset the connection, leave no
traceback — `ValueError: negative file descriptor`, 144 of 144 such spectators before the
fix: uvloop's, from the kernel send buffer's bound set on a socket whose connection the loop
had already torn down (decision 0208) — and the next spectator is served."""

from __future__ import annotations

import asyncio
import contextlib

import asyncpg
import pytest
import websockets
from support.harness import Server, run_async
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

ROUNDS = 6  # of spectators arriving at once
CROWD = 24  # spectators a round, each on a table of its own (a snapshot read each)
FLOODS = 24  # flooding clients: each start (FLOOD_STARTS) with each end (`flood`), four times


@pytest.fixture(scope="module")
def logged(module_database_url: str, tmp_path_factory: pytest.TempPathFactory):
    """A server of its own: the test reads everything it writes."""
    log = tmp_path_factory.mktemp("teardown") / "server.log"
    srv = Server(module_database_url, output=str(log)).start()
    yield srv, log, module_database_url
    srv.stop()


async def _leased(url: str) -> int:
    conn = await asyncpg.connect(url)
    try:
        return await conn.fetchval(
            "SELECT coalesce(sum(open), 0) FROM live_clients WHERE client = '127.0.0.1'"
        )
    finally:
        await conn.close()


async def _served(srv: Server) -> list[str]:
    """A spectator's snapshot, caught_up and the answer to its ping."""
    async with asyncio.timeout(SECONDS), websockets.connect(f"{srv.ws}/live?table=1") as ws:
        got = [await ws.recv(), await ws.recv()]
        await ws.send(PING.decode())  # a text frame (bytes would be a binary one)
        got.append(await ws.recv())
        return got


def _clean(logged, since: int, ports: set[int]) -> None:
    """Every connection is over and its lease given back (each socket's handler saw its
    client go), the next spectator is served, and what the server wrote from `since` (a
    byte offset in its log) on holds no traceback."""
    srv, log, url = logged
    settled(srv, ports, lambda: run_async(_leased(url)) == 0)
    snapshot, caught_up, pong = run_async(_served(srv))
    assert '"snapshot"' in snapshot and '"caught_up"' in caught_up and '"pong"' in pong
    found, tail = traces_since(log, since)
    assert not found, f"{found}\n{tail}"


def test_spectators_leaving_during_setup_leave_no_traceback(logged) -> None:
    srv, log, _ = logged
    since, ports = log.stat().st_size, set()
    for round_ in range(ROUNDS):
        socks = [open_raw(srv, f"/live?table={100 * round_ + n + 1}", ports) for n in range(CROWD)]
        for n, sock in enumerate(socks):
            with contextlib.suppress(OSError):
                leave(sock, n % 4)
    _clean(logged, since, ports)


def test_a_frame_flood_then_a_reset_leaves_no_traceback(logged) -> None:
    srv, log, _ = logged
    since, ports = log.stat().st_size, set()
    for n in range(FLOODS):
        sock = open_raw(srv, f"/live?table={2000 + n}", ports)
        with contextlib.suppress(OSError):
            FLOOD_STARTS[n % len(FLOOD_STARTS)](sock)
            sock.sendall(flood(n))
        reset(sock)
    _clean(logged, since, ports)
