"""The HTTPS port's own protocol (cli/tls_port.py, decision 0179) against the loop's TLS.

Two servers in one process on uvloop (uvicorn's loop), the same hardened context and the
same tiny HTTP answer: `create_server(ssl=…)` (what uvicorn did) and `TlsOrPlain` (reads the
first bytes, then the loop's own TLS protocol). Client processes open a connection, shake
hands, send one request and read the answer, N in all; prints connections/s for both
and the ratio (TlsOrPlain / baseline), best of `--rounds`.

    .venv/bin/python bench/tls_port.py [--n 400] [--clients 4] [--rounds 3]
"""

from __future__ import annotations

import argparse
import asyncio
import socket
import ssl
import tempfile
import time
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

import uvloop
from tableside.cli.tls_port import tls_or_plain
from tableside.web.tls_profile import harden
from tableside.web.venue_tls import venue_tls

ANSWER = b"HTTP/1.1 200 OK\r\nContent-Length: 2\r\nConnection: close\r\n\r\nok"


class Answer(asyncio.Protocol):
    """One request, one answer, closed: the HTTP protocol behind either server."""

    def __init__(self, **_: object) -> None:
        self.transport = None

    def connection_made(self, transport) -> None:
        self.transport = transport

    def data_received(self, data: bytes) -> None:
        self.transport.write(ANSWER)
        self.transport.close()


def connections(port: int, cafile: str, n: int) -> None:
    """`n` connections one after another (in a client process of its own: no GIL shared
    with the server's loop)."""
    trust = ssl.create_default_context(cafile=cafile)
    for _ in range(n):
        raw = socket.create_connection(("127.0.0.1", port), timeout=10)
        with raw, trust.wrap_socket(raw, server_hostname="127.0.0.1") as tls:
            tls.sendall(b"GET / HTTP/1.1\r\nHost: x\r\n\r\n")
            assert tls.recv(100).startswith(b"HTTP/1.1 200")


def rate(pool: ProcessPoolExecutor, port: int, cafile: str, n: int, clients: int) -> float:
    start = time.perf_counter()
    list(pool.map(connections, [port] * clients, [cafile] * clients, [n // clients] * clients))
    return (n // clients) * clients / (time.perf_counter() - start)


async def main(args: argparse.Namespace) -> None:
    made = venue_tls(Path(tempfile.mkdtemp()), ["127.0.0.1"])
    context = harden(ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER))
    context.load_cert_chain(made.cert, made.key)
    cafile = str(made.ca_cert)
    loop = asyncio.get_running_loop()
    baseline = await loop.create_server(Answer, "127.0.0.1", 0, ssl=context)
    ours_class = tls_or_plain(Answer, context, "https://127.0.0.1")
    ours = await loop.create_server(lambda: ours_class(_loop=loop), "127.0.0.1", 0)
    ports = {"base": baseline.sockets[0].getsockname()[1], "ours": ours.sockets[0].getsockname()[1]}
    best = {"base": 0.0, "ours": 0.0}
    with ProcessPoolExecutor(args.clients) as pool:
        for round_ in range(args.rounds):  # alternating which goes first
            for name in sorted(ports, reverse=bool(round_ % 2)):
                measured = await asyncio.to_thread(
                    rate, pool, ports[name], cafile, args.n, args.clients
                )
                best[name] = max(best[name], measured)
    print(f"create_server(ssl=…): {best['base']:.0f} connections/s")
    print(f"TlsOrPlain:           {best['ours']:.0f} connections/s")
    print(f"ratio (TlsOrPlain / baseline): {best['ours'] / best['base']:.2f}")


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--n", type=int, default=400)
    parser.add_argument("--clients", type=int, default=4)
    parser.add_argument("--rounds", type=int, default=3)
    uvloop.run(main(parser.parse_args()))
