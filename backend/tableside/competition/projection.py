"""Read model `standings`: per competition its document (`competition_view`) and its ranked
standings (`competition_standings`), written with the tracking position in one transaction.

A `ReadModel` of competition streams on `eventlog/stream_folds.py` (one fold per stream,
cached), a consumer of the one tail loop with its own tracking row; each document it writes is
also published on the live feed's `competition:<id>` channel. `rebuild_standings` empties both
tables and folds them again from position 0 to the same bytes, in one transaction holding the
tracking row (`rebuild_folds`).
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
from tableside.eventlog.folder import StreamFold
from tableside.eventlog.runner import Db
from tableside.eventlog.stream_folds import ReadModel, StreamFolds, rebuild_folds

NAME = "standings"
TABLES = ("competition_view", "competition_standings")
_EVENTS = frozenset(competition.EVENT_TYPES)
_DOC = "SELECT doc::text FROM competition_view WHERE competition_id = $1"
_ROWS = "SELECT row::text FROM competition_standings WHERE competition_id = $1 ORDER BY rank"
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


class StandingsRunner(StreamFolds[Competition]):
    """A consumer of the tail: folds competition streams (cached by stream), writes what each
    batch touched, and then hands each changed document to `publish` (the live feed)."""

    def __init__(
        self,
        pool: asyncpg.Pool,
        registry: EventRegistry,
        batch: int = 500,
        publish: Callable[[dict[str, Any]], None] | None = None,
    ) -> None:
        super().__init__(pool, registry, _MODEL, batch)
        self.publish = publish
        self.seen: int | None = None  # how far this process has followed (publishing)

    async def position(self, conn: asyncpg.Connection) -> int:
        """Where to follow on from: publishing, this process's own position — the shared
        tracking row moves on when another process projects a batch first, and this one's
        sockets still need that batch's documents; else the tracking row."""
        if self.publish is None or self.seen is None:
            shared = await super().position(conn)
            if self.publish is None:
                return shared
            self.seen = shared
        return self.seen

    async def take(self, db: Db, records: list) -> list[dict[str, Any]]:
        """Write the batch; once committed, publish every competition it changed — also those
        another process wrote first (each process publishes to its own sockets)."""
        async with db() as conn:
            return await self._publish(conn, records, await self.write(conn, records))

    async def _publish(self, conn: asyncpg.Connection, records: list, messages: list) -> list:
        """Hand the feed what the batch changed (read back what another process wrote)."""
        if self.publish is None:
            return messages
        self.seen = max(self.seen or 0, records[-1].position)
        changed = {r.stream_id for r in records if type(r.event) in _EVENTS}
        for stream in changed - {UUID(m["competition_id"]) for m in messages}:
            if (message := await current_message(conn, stream)) is not None:
                messages.append(message)
        for message in messages:
            self.publish(message)
        return messages


def _evolve(state: Competition | None, rec) -> Competition:
    return competition.evolve(state or Competition(), rec.event)


async def _write(
    conn: asyncpg.Connection, stream: UUID, version: int, state: Competition, position: int
) -> dict[str, Any]:
    """Replace one competition's document and standings rows; return them as the live
    feed's `competition` message."""
    guide = state.the_guide
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


_MODEL = ReadModel(NAME, TABLES, StreamFold(_EVENTS, _evolve), _write)


async def current_message(conn: asyncpg.Connection, stream: UUID) -> dict[str, Any] | None:
    """A competition's documents as they stand in the read model, as the feed's message."""
    doc = await conn.fetchval(_DOC, stream)
    if doc is None:
        return None
    rows = [msgspec.json.decode(r[0]) for r in await conn.fetch(_ROWS, stream)]
    return competition_message(stream, msgspec.json.decode(doc), rows)


async def rebuild_standings(pool: asyncpg.Pool, registry: EventRegistry) -> int:
    """Empty the read model and fold it again from 0, in one transaction (as `rebuild`)."""
    return await rebuild_folds(pool, StandingsRunner(pool, registry))
