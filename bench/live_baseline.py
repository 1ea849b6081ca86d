"""The baseline for bench/live.py: a bare `websockets` broadcast app on one or more processes.

python bench/live_baseline.py PORT PUB1[,PUB2...] on|off

Spectators connect to ws://127.0.0.1:PORT/ (shared by the processes with SO_REUSEPORT);
process i broadcasts whatever arrives on ws://127.0.0.1:PUBi/ to its own spectators.
Compression `on` accepts permessage-deflate per socket, as a plain app does.
"""

from __future__ import annotations

import asyncio
import multiprocessing
import signal
import sys


async def serve_one(port: int, publish_port: int, deflate: bool) -> None:
    from websockets.asyncio.server import broadcast, serve

    clients: set = set()

    async def spectator(ws) -> None:
        clients.add(ws)
        await ws.send('{"kind": "caught_up", "position": 0}')
        try:
            await ws.wait_closed()
        finally:
            clients.discard(ws)

    async def publisher(ws) -> None:
        async for message in ws:
            broadcast(clients, message)

    def health(connection, request):
        return connection.respond(200, "ok\n") if request.path == "/health" else None

    compression = "deflate" if deflate else None
    async with (
        serve(
            spectator,
            "127.0.0.1",
            port,
            reuse_port=True,
            backlog=2048,
            process_request=health,
            compression=compression,
        ),
        serve(publisher, "127.0.0.1", publish_port),
    ):
        await asyncio.Future()


def _run(port: int, publish_port: int, deflate: bool) -> None:
    from live_audience import raise_nofile

    raise_nofile()
    asyncio.run(serve_one(port, publish_port, deflate))


if __name__ == "__main__":
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(0))  # daemon children stop with us
    port, pubs, deflate = int(sys.argv[1]), sys.argv[2].split(","), sys.argv[3] == "on"
    procs = [
        multiprocessing.Process(target=_run, args=(port, int(p), deflate), daemon=True)
        for p in pubs
    ]
    for proc in procs:
        proc.start()
    for proc in procs:
        proc.join()
