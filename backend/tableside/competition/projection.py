"""Read model `standings`: per competition its document (`competition_view`) and its ranked
standings (`competition_standings`), written with the tracking position in one transaction.

The match runner folds only match events, so competitions have a consumer of their own on the
tail loop (same tracking table, same lock discipline); each document it writes is also
published on the live feed's `competition:<id>` channel; `rebuild_standings` empties both tables and
folds them again from position 0 to the same bytes, in one transaction holding the tracking
row (see `projections.rebuild`).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any
from uuid import UUID

import asyncpg
import msgspec

from tableside.competition import rules as competition
from tableside.competition.docs import competition_doc, competition_message, standings_rows
from tableside.competition.rules.state import Competition
from tableside.eventlog import EventRegistry
from tableside.eventlog.base import to_json
from tableside.eventlog.collector import bulk_fold
from tableside.eventlog.runner import follow, reset
from tableside.eventlog.source import read_stream

NAME = "standings"
TABLES = ("competition_view", "competition_standings")
_EVENTS = frozenset(competition.EVENT_TYPES)
_POSITION = "SELECT position FROM projection_tracking WHERE name = $1"
_DOC = "SELECT doc::text FROM competition_view WHERE competition_id = $1"
_ROWS = "SELECT row::text FROM competition_standings WHERE competition_id = $1 ORDER BY rank"
_LOCK = "SELECT position FROM projection_tracking WHERE name = $1 FOR UPDATE"
_SAVE = "UPDATE projection_tracking SET position = $2 WHERE name = $1"
_VIEW = """
INSERT INTO competition_view (competition_id, name, format, finished, version, position, doc)
VALUES ($1, $2, $3, $4, $5, $6, $7::jsonb)
ON CONFLICT (competition_id) DO UPDATE SET name = EXCLUDED.name, format = EXCLUDED.format,
    finished = EXCLUDED.finished, version = EXCLUDED.version, position = EXCLUDED.position,
    doc = EXCLUDED.doc
"""
_ROW = """
INSERT INTO competition_standings (competition_id, entrant, place, rank, row)
VALUES ($1, $2, $3, $4, $5::jsonb)
"""


class StandingsRunner:
    """A consumer of the tail: folds competition streams (cached by stream), writes what each
    batch touched, and then hands each changed document to `publish` (the live feed)."""

    def __init__(
        self,
        pool: asyncpg.Pool,
        registry: EventRegistry,
        batch: int = 500,
        publish: Callable[[dict[str, Any]], None] | None = None,
    ) -> None:
        self.pool, self.registry, self.batch = pool, registry, batch
        self.states: dict[UUID, tuple[int, Competition]] = {}
        self.publish = publish

    async def catch_up(self, progress: Callable[[int], None] | None = None) -> int:
        """Apply everything stored so far; return the position reached."""
        async with self.pool.acquire() as conn:
            return await self.fold(conn, progress)

    async def fold(
        self, conn: asyncpg.Connection, progress: Callable[[int], None] | None = None
    ) -> int:
        """catch_up on one connection (a rebuild runs it inside its own transaction)."""
        return await follow(conn, self.registry, [self], self.batch, progress)

    async def position(self, conn: asyncpg.Connection) -> int:
        return await conn.fetchval(_POSITION, NAME)

    async def take(self, conn: asyncpg.Connection, records: list) -> None:
        """Write the batch; once committed, publish every competition it changed — also those
        another process wrote first (each process publishes to its own sockets)."""
        messages = await self._apply(conn, records)
        if self.publish is None:
            return
        changed = {r.stream_id for r in records if type(r.event) in _EVENTS}
        for stream in changed - {UUID(m["competition_id"]) for m in messages}:
            if (message := await current_message(conn, stream)) is not None:
                messages.append(message)
        for message in messages:
            self.publish(message)

    async def _apply(self, conn: asyncpg.Connection, records: list) -> list[dict[str, Any]]:
        last = records[-1].position
        async with conn.transaction():
            done = await conn.fetchval(_LOCK, NAME)
            if done is None or done >= last:
                return []
            touched: dict[UUID, int] = {}
            for rec in records:
                if rec.position > done and type(rec.event) in _EVENTS:
                    await self._fold(conn, rec)
                    touched[rec.stream_id] = rec.position
            messages = [
                await _write(conn, stream, *self.states[stream], position)
                for stream, position in touched.items()
            ]
            await conn.execute(_SAVE, NAME, last)
        return messages

    async def _fold(self, conn: asyncpg.Connection, rec) -> None:
        version, state = self.states.get(rec.stream_id, (0, Competition()))
        if version != rec.version - 1:  # not cached (or another process went ahead): refold
            version, state = 0, Competition()
            for old in await read_stream(conn, self.registry, rec.stream_id, rec.version - 1):
                version, state = old.version, competition.evolve(state, old.event)
        self.states[rec.stream_id] = (rec.version, competition.evolve(state, rec.event))


async def _write(
    conn: asyncpg.Connection, stream: UUID, version: int, state: Competition, position: int
) -> dict[str, Any]:
    """Replace one competition's document and standings rows; return them as the live
    feed's `competition` message."""
    guide = state.guide
    doc = competition_doc(state, version, position)
    await conn.execute(
        _VIEW,
        stream,
        guide.name,
        guide.format,
        state.finished,
        version,
        position,
        to_json(doc),
    )
    await conn.execute("DELETE FROM competition_standings WHERE competition_id = $1", stream)
    standing = standings_rows(state)
    rows = [(stream, r["entrant"], r["place"], i, to_json(r)) for i, r in enumerate(standing, 1)]
    await conn.executemany(_ROW, rows)
    return competition_message(stream, doc, standing)


async def current_message(conn: asyncpg.Connection, stream: UUID) -> dict[str, Any] | None:
    """A competition's documents as they stand in the read model, as the feed's message."""
    doc = await conn.fetchval(_DOC, stream)
    if doc is None:
        return None
    rows = [msgspec.json.decode(r[0]) for r in await conn.fetch(_ROWS, stream)]
    return competition_message(stream, msgspec.json.decode(doc), rows)


async def rebuild_standings(pool: asyncpg.Pool, registry: EventRegistry) -> int:
    """Empty the read model and fold it again from 0, in one transaction (as `rebuild`)."""
    async with pool.acquire() as conn, conn.transaction():
        await reset(conn, NAME, TABLES)
        with bulk_fold():
            return await StandingsRunner(pool, registry).fold(conn)
