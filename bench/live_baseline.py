"""The baseline for bench/live.py: a bare `websockets` server broadcasting to every client.

python bench/live_baseline.py PORT      # serves ws://127.0.0.1:PORT/ (+ /publish, /health)
"""

from __future__ import annotations

import asyncio
import json
import sys
import time

import websockets
from live_audience import Audience, cpu_seconds, free_port, paced, rss_kib, start, summary

PAD = "x" * 900  # about as large as a Tableside delta with its live board


async def run_baseline(n: int, messages: int, rate: float) -> dict:
    """A bare websockets broadcast server: the floor for the same N and message count."""
    port = free_port()
    proc = start([sys.executable, __file__, str(port)], {}, port)
    try:
        before, audience = rss_kib(proc.pid), Audience()
        await audience.connect(f"ws://127.0.0.1:{port}/", n, lambda m: m.sent)
        per_conn = (rss_kib(proc.pid) - before) / n
        async with websockets.connect(f"ws://127.0.0.1:{port}/publish") as publisher:

            async def send(k: int) -> None:
                await publisher.send(
                    json.dumps(
                        {"kind": "event", "position": k + 1, "sent": time.time(), "pad": PAD}
                    )
                )

            cpu = cpu_seconds(proc.pid)
            await paced(messages, rate, send)
            await audience.wait_for(messages)
            cpu = cpu_seconds(proc.pid) - cpu
        return summary("baseline", audience.latencies, per_conn, cpu)
    finally:
        proc.terminate()
        proc.wait(10)


async def baseline_server(port: int) -> None:
    """Broadcast every message from /publish to every other connection."""
    from websockets.asyncio.server import broadcast, serve

    clients: set = set()

    async def handler(ws) -> None:
        if ws.request.path == "/publish":
            async for message in ws:
                broadcast(clients, message)
            return
        clients.add(ws)
        await ws.send('{"kind": "caught_up", "position": 0}')
        try:
            await ws.wait_closed()
        finally:
            clients.discard(ws)

    def health(connection, request):
        return connection.respond(200, "ok\n") if request.path == "/health" else None

    async with serve(handler, "127.0.0.1", port, process_request=health):
        await asyncio.Future()


if __name__ == "__main__":
    asyncio.run(baseline_server(int(sys.argv[1])))
