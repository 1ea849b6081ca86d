"""Open /live sockets per client address, counted across every worker and node.

The process counts its own sockets (`Audience.admit`: the limit holds here even while
PostgreSQL is away); each admitted socket is also counted in PostgreSQL (`live_take`,
schema/109_shared_limits.sql) against the sockets every live process holds for that address,
so N nodes behind a proxy hold `per_client` sockets of one address, not N times as many.
Every few seconds the process restates its own counts (`live_alive`), which mends a leave
lost to an outage and keeps it counted as alive; a killed process's sockets stop counting
30 s after its last word.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import uuid

import asyncpg

from tableside.live.audience import Audience

log = logging.getLogger(__name__)

ALIVE_EVERY = 5.0  # seconds between restatements (a process unseen for 30 s counts no more)
_DOWN = (asyncpg.PostgresError, OSError, asyncio.TimeoutError)


class SharedAddresses:
    """Admit and release a client address's sockets here and in the shared count."""

    def __init__(self, audience: Audience) -> None:
        self.audience = audience
        self.node = uuid.uuid4()  # this process, as the shared count knows it
        self.shared: set[int] = set()  # sockets (by id of their token) counted in PostgreSQL

    async def admit(self, pool: asyncpg.Pool, client: str, socket_id: int) -> bool:
        """Count this socket; False when the address already holds its share anywhere. With
        PostgreSQL away only this process's count applies (restated once it is back)."""
        if not self.audience.admit(client):
            return False
        try:
            taken = await pool.fetchval(
                "SELECT live_take($1, $2, $3)", self.node, client, self.audience.per_client
            )
        except _DOWN:
            return True
        if not taken:
            self.audience.leave(client)
            return False
        self.shared.add(socket_id)
        return True

    async def leave(self, pool: asyncpg.Pool, client: str, socket_id: int) -> None:
        self.audience.leave(client)
        if socket_id in self.shared:
            self.shared.discard(socket_id)
            with contextlib.suppress(*_DOWN):  # else restated by the next `alive`
                await pool.execute("SELECT live_leave($1, $2)", self.node, client)

    async def alive(self, pool: asyncpg.Pool) -> None:
        """Every ALIVE_EVERY seconds: this process lives and holds exactly these counts."""
        while True:
            counts = dict(self.audience.clients)
            try:
                await pool.execute(
                    "SELECT live_alive($1, $2::text[], $3::int[])",
                    self.node,
                    list(counts),
                    list(counts.values()),
                )
            except _DOWN as exc:
                log.debug("live counts not restated: %s", exc)
            await asyncio.sleep(ALIVE_EVERY)
