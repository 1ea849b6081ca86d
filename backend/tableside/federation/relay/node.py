"""This node's relay: one LISTEN connection of its own (never the pool's: the process's one,
`eventlog/listener.py`) on the channel the keeping transaction notifies, each venue's feed
started on its first spectator, and a poll every POLL seconds that wakes every feed (a
notification missed while the LISTEN connection was being made again is read then) and
restates each venue's notice (online, or offline since it was last heard from:
`venue_seen`, by the database's clock, so every node agrees).
"""

from __future__ import annotations

import asyncio
import logging
import os
from uuid import UUID

import asyncpg

from tableside.eventlog.listener import listen
from tableside.federation.relay import notify
from tableside.federation.relay.admission import Admission
from tableside.federation.relay.feed import VenueFeed

log = logging.getLogger(__name__)
POLL = 1.0
OFFLINE_SECONDS = 75.0  # 2.5 of the venue's 30 s heartbeats (uplink/pusher.py)
_SEEN = """
SELECT v.venue_id, s.seen_at,
       coalesce(now() - s.seen_at > make_interval(secs => $2), true) AS offline
FROM unnest($1::uuid[]) AS v (venue_id) LEFT JOIN venue_seen s USING (venue_id)
"""
_KNOWN = "SELECT true FROM venues WHERE venue_id = $1"


class Relay:
    """The feeds of this node, fed by NOTIFY and the poll."""

    def __init__(self, pool: asyncpg.Pool, url: str, offline_seconds: float) -> None:
        self.pool, self.url, self.offline_seconds = pool, url, offline_seconds
        self.admission = Admission.from_env()
        self.feeds: dict[UUID, VenueFeed] = {}
        self._starting: dict[UUID, asyncio.Task] = {}
        self._tasks: list[asyncio.Task] = []

    @staticmethod
    def offline_from_env() -> float:
        """TABLESIDE_FEDERATION_RELAY_OFFLINE_SECONDS: how long unheard makes a venue offline."""
        return float(
            os.environ.get("TABLESIDE_FEDERATION_RELAY_OFFLINE_SECONDS") or OFFLINE_SECONDS
        )

    def start(self) -> None:
        self._tasks = [asyncio.create_task(self._listen()), asyncio.create_task(self._poll())]

    async def stop(self) -> None:
        for task in [*self._tasks, *self._starting.values()]:
            task.cancel()
        for feed in self.feeds.values():
            feed.stop()

    async def feed(self, venue_id: UUID, seconds: float) -> VenueFeed | None:
        """The venue's feed, started once however many sockets ask (None: no such venue)."""
        if (found := self.feeds.get(venue_id)) is not None:
            return found
        task = self._starting.get(venue_id)
        if task is None:
            task = asyncio.create_task(self._start(venue_id))
            self._starting[venue_id] = task
            task.add_done_callback(lambda _: self._starting.pop(venue_id, None))
        async with asyncio.timeout(seconds):
            return await asyncio.shield(task)

    async def _start(self, venue_id: UUID) -> VenueFeed | None:
        if not await self.pool.fetchval(_KNOWN, venue_id):
            return None
        feed = VenueFeed(venue_id)
        await feed.start(self.pool)
        await self._restate([feed])
        self.feeds[venue_id] = feed
        feed.wake()  # what was kept while it started
        return feed

    def _wake_all(self) -> None:
        """The LISTEN connection was made (again): anything kept meanwhile is read."""
        for feed in self.feeds.values():
            feed.wake()

    def _notified(self, payload: str) -> None:
        found = notify.parse(payload)
        if found is not None and (feed := self.feeds.get(found[0])) is not None:
            feed.wake()

    async def _listen(self) -> None:
        """The process's one LISTEN connection (`eventlog/listener.listen`, made again when
        lost): the keeping transactions' wake-ups."""
        await listen(self.url, self._wake_all, {notify.CHANNEL: self._notified})

    async def _poll(self) -> None:
        while True:
            await asyncio.sleep(POLL)
            feeds = list(self.feeds.values())
            try:
                await self._restate(feeds)
            except (OSError, asyncpg.PostgresError, TimeoutError) as exc:
                log.warning("relay: venues' notices not restated: %s", exc)
            for feed in feeds:
                feed.wake()

    async def _restate(self, feeds: list[VenueFeed]) -> None:
        if not feeds:
            return
        by_id = {f.venue_id: f for f in feeds}
        for row in await self.pool.fetch(_SEEN, list(by_id), self.offline_seconds):
            by_id[row["venue_id"]].seen(row["seen_at"], row["offline"])
