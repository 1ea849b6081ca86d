"""Open /live sockets per client address, counted across every worker and node, in batches.

The process counts its own sockets (`Audience.admit`: the limit holds here even while
PostgreSQL is away). Across nodes it holds a **lease** per address in PostgreSQL
(`live_clients.open` of its node, schema/109_shared_limits.sql): a number of sockets it may
open for that address without asking again. A socket within the lease costs no round trip;
one past it makes the process take more (`_settle`: under the address's advisory lock, no
more than `per_client` minus what the other live nodes lease), for every socket waiting
meanwhile at once and with `spare` more for those to come, so a crowd from one address costs
a round trip or two, not one per socket. Sockets that leave give their lease back once the
node holds more than `spare` unused, and all of it with the address's last socket (at once
when the limit is small: `spare` is `per_client // SPARE_SHARE`).

How far N nodes can be off the limit (docs/decisions/0125):
- while PostgreSQL answers, never over it: each node opens sockets only within its lease,
  and leases are granted one address at a time against the others' leases;
- under it by at most (N − 1) × `spare`: the unused leases of the other nodes (none held by
  a node with no socket of that address left);
- over it only while PostgreSQL is away or has lost its unlogged counts (a crash): each node
  then counts itself only, N × `per_client` at worst, until its next restatement (`alive`,
  every ALIVE_EVERY seconds) states what it holds; from then on new sockets are refused until
  the address is back under its limit. A killed process's lease stops counting 30 s after
  its last word.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import uuid
from collections import Counter

import asyncpg

from tableside.live.audience import Audience

log = logging.getLogger(__name__)

ALIVE_EVERY = 5.0  # seconds between restatements (a process unseen for 30 s counts no more)
SPARE_SHARE = 16  # a lease keeps up to per_client // SPARE_SHARE sockets unused
SETTLE_SECONDS = 10.0  # a socket waits this long for its address's lease at most
_DOWN = (asyncpg.PostgresError, OSError, asyncio.TimeoutError)

_LOCK = "SELECT pg_advisory_xact_lock(hashtext('tableside.live:' || $1))"
_OTHERS = (
    "SELECT coalesce(sum(c.open), 0) FROM live_clients c JOIN live_nodes n USING (node) "
    "WHERE c.client = $1 AND c.node <> $2 AND n.seen > clock_timestamp() - interval '30 seconds'"
)
_NODE = (
    "INSERT INTO live_nodes (node, seen) VALUES ($1, clock_timestamp()) "
    "ON CONFLICT (node) DO NOTHING"
)
_LEASE = (
    "INSERT INTO live_clients AS c (client, node, open) VALUES ($1, $2, $3) "
    "ON CONFLICT (client, node) DO UPDATE SET open = excluded.open"
)


class SharedAddresses:
    """Admit and release a client address's sockets here and in the shared count."""

    def __init__(self, audience: Audience) -> None:
        self.audience = audience
        self.node = uuid.uuid4()  # this process, as the shared count knows it
        self.leased: Counter[str] = Counter()  # sockets per address counted in PostgreSQL
        self.settles = 0  # round trips taken or given back (the tests count them)
        self.waiting: Counter[str] = Counter()  # sockets counted here, still waiting for lease
        self._locks: dict[str, tuple[asyncio.Lock, int]] = {}  # with its users, per address

    @property
    def spare(self) -> int:
        return self.audience.per_client // SPARE_SHARE

    async def admit(self, pool: asyncpg.Pool, client: str) -> bool:
        """Count this socket; False when the address already holds its share anywhere. With
        PostgreSQL away only this process's count applies (restated once it is back)."""
        audience = self.audience
        if not audience.admit(client):
            return False
        self.waiting[client] += 1
        try:
            async with asyncio.timeout(SETTLE_SECONDS):
                while audience.clients[client] > self.leased[client]:
                    # for every socket waiting meanwhile; judged by what this trip granted,
                    # not by the lease's size: sockets that left meanwhile shrink it
                    if not await self._settle(pool, client):  # the share is held elsewhere
                        audience.leave(client)
                        return False
        except _DOWN as exc:
            log.debug("live lease of %s not taken: %s", client, exc)
        finally:
            self.waiting[client] -= 1
            if self.waiting[client] <= 0:
                del self.waiting[client]
        return True

    async def leave(self, pool: asyncpg.Pool, client: str) -> None:
        self.audience.leave(client)
        if self._unused(client):
            with contextlib.suppress(*_DOWN):  # else restated by the next `alive`
                async with asyncio.timeout(SETTLE_SECONDS):
                    await self._settle(pool, client)

    async def _settle(self, pool: asyncpg.Pool, client: str) -> bool:
        """Bring the address's lease to what its open sockets need: take more (with `spare`
        for those to come) up to what the other nodes leave, or give back what is unused.
        One at a time per address: the sockets waiting meanwhile are settled by one trip.
        False only when more was needed and none was granted (the other nodes hold the rest
        of the address's share): a lease that shrank because sockets left is no refusal."""
        lock, users = self._locks.get(client) or (asyncio.Lock(), 0)
        self._locks[client] = (lock, users + 1)
        try:
            async with lock:
                open_, leased = self.audience.clients[client], self.leased[client]
                if open_ > leased:
                    return await self._take(pool, client, open_ - leased + self.spare) > 0
                if self._unused(client):
                    await self._give(pool, client, open_)
                return True
        finally:
            lock, users = self._locks[client]
            if users > 1:
                self._locks[client] = (lock, users - 1)
            else:
                del self._locks[client]

    def _unused(self, client: str) -> bool:
        """Whether the address's lease is to be given back: more than `spare` unused, or any
        once its last socket has gone (a quiet address holds no other node's share)."""
        open_, leased = self.audience.clients[client], self.leased[client]
        return leased - open_ > self.spare or (open_ == 0 and leased > 0)

    async def _take(self, pool: asyncpg.Pool, client: str, want: int) -> int:
        leased = self.leased[client]
        async with pool.acquire() as conn, conn.transaction():
            await conn.execute(_LOCK, client)
            others = await conn.fetchval(_OTHERS, client, self.node)
            granted = max(0, min(want, self.audience.per_client - others - leased))
            if granted:
                await conn.execute(_NODE, self.node)
                await conn.execute(_LEASE, client, self.node, leased + granted)
        self.settles += 1
        self.leased[client] = leased + granted
        return granted

    async def _give(self, pool: asyncpg.Pool, client: str, keep: int) -> None:
        await pool.execute(_LEASE, client, self.node, keep)
        self.settles += 1
        self._keep(client, keep)

    def _keep(self, client: str, lease: int) -> None:
        if lease > 0:
            self.leased[client] = lease
        else:
            self.leased.pop(client, None)

    async def alive(self, pool: asyncpg.Pool) -> None:
        """Every ALIVE_EVERY seconds: this process lives and holds exactly these leases (at
        least its admitted sockets: one admitted while PostgreSQL was away is counted now)."""
        while True:
            try:
                again = await self._restate(pool)
            except _DOWN as exc:
                log.debug("live counts not restated: %s", exc)
                again = False
            if not again:
                await asyncio.sleep(ALIVE_EVERY)

    async def _restate(self, pool: asyncpg.Pool) -> bool:
        """State the leases; True when one grew meanwhile (its row may now be the older
        figure: stated again at once). A socket still waiting for its lease is not stated:
        it would be granted past the other nodes' leases."""
        admitted = self.audience.clients - self.waiting  # Counter: only positive counts
        counts = {c: max(n, self.leased[c]) for c, n in admitted.items()}
        counts |= {c: n for c, n in self.leased.items() if c not in counts}
        await pool.execute(
            "SELECT live_alive($1, $2::text[], $3::int[])",
            self.node,
            list(counts),
            list(counts.values()),
        )
        grew = any(self.leased[c] > n for c, n in counts.items())
        for client, lease in counts.items():
            self._keep(client, max(lease, self.leased[client]))
        return grew
