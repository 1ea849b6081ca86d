"""A venue pushing to a federation of several nodes (processes on one federation database),
for the relay's tests (issue 51): each node a real `tableside.federation.asgi:from_env`, the
venue a real server whose uplink pushes to the first node."""

from __future__ import annotations

import json
from contextlib import contextmanager
from pathlib import Path

import httpx
import psycopg

from support.federation import enrolment_code, federation_server, venue_env
from support.harness import Server, wait_for

RELAY_ENV = {
    "TABLESIDE_FEDERATION_RELAY_PER_ADDRESS": "5000",  # every spectator comes from 127.0.0.1
}


def held(base: str, venue_id: str) -> int:
    """The position the federation holds of the venue."""
    found = httpx.get(f"{base}/api/federation/venues", timeout=10).json()
    return next((v["position"] for v in found if v["venue_id"] == venue_id), 0)


def venue_head(url: str) -> int:
    """The venue's own newest position (federation-core's support/federation.venue_head once
    merged: test_push's moved there)."""
    with psycopg.connect(url) as conn:
        return conn.execute(
            "SELECT coalesce(max(notification_id), 0) FROM stored_events"
        ).fetchone()[0]


def pushed(base: str, venue_id: str, venue_url: str) -> int:
    """Wait until the federation holds the venue's head; that head."""
    return wait_for(lambda: (h := venue_head(venue_url)) == held(base, venue_id) and h, timeout=60)


@contextmanager
def venue_and_nodes(
    venue_url: str, federation_url: str, folder: Path, nodes: int, fed_env=None, **venue_more
):
    """(venue server, [federation nodes], venue id) while the block runs."""
    fed_env = {**RELAY_ENV, **(fed_env or {})}
    started: list[Server] = []
    venue = None
    try:
        for k in range(nodes):
            srv = federation_server(federation_url, folder)
            srv.env.update(fed_env)
            srv.output = str(folder / f"node-{k}.log")
            started.append(srv.start())
        uplink = folder / "uplink"
        env = venue_env(started[0].base, enrolment_code(started[0].base), uplink, **venue_more)
        venue = Server(venue_url, env=env).start()
        status = uplink / "status.json"
        wait_for(
            lambda: status.is_file() and json.loads(status.read_bytes())["state"] != "offline",
            timeout=30,
        )
        venue_id = json.loads((uplink / "credential.json").read_bytes())["venue_id"]
        yield venue, started, venue_id
    finally:
        if venue is not None:
            venue.stop()
        for srv in started:
            srv.stop()
