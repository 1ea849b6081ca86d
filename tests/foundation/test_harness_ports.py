"""The suite's servers take ports no client socket of the machine is handed, and a first start
whose port was taken meanwhile starts again on another (the wave-five run's errno 98 errors:
a bench's 20,000 client sockets beside the suite)."""

from __future__ import annotations

import socket
from pathlib import Path

from support.harness import Server, free_port


def test_a_servers_port_is_below_the_kernels_outgoing_range():
    first = int(Path("/proc/sys/net/ipv4/ip_local_port_range").read_text().split()[0])
    assert all(free_port() < first for _ in range(20))


def test_a_first_start_on_a_taken_port_starts_on_another(database_url):
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", free_port()))
        taken.listen()
        port = taken.getsockname()[1]
        srv = Server(database_url, port=port).start()
        try:
            assert srv.port != port
            assert srv.proc.poll() is None
        finally:
            srv.stop()
