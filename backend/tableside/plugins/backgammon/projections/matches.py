"""Read model `backgammon`: one row per backgammon match (`backgammon_matches`) — players,
length, score, status, winner, table, start and last activity — a consumer of the one tail loop
(`eventlog.stream_folds`) folding in the process's fold cache (`plugins/backgammon/folding.py`),
rebuilt by `tableside projections rebuild backgammon`."""

from __future__ import annotations

from uuid import UUID

import asyncpg

from tableside.eventlog import EventRegistry
from tableside.eventlog.folder import Folder
from tableside.eventlog.stream_folds import ReadModel, StreamFolds, rebuild_folds
from tableside.plugins.backgammon.folding import BG_FOLD, Folded

NAME = "backgammon"
TABLES = ("backgammon_matches",)
_UPSERT = """
INSERT INTO backgammon_matches (match_id, player_a, player_b, length, score_a, score_b, games,
    status, winner, confirmed, version, position, started_at, updated_at, table_no,
    spectators_barred)
VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16)
ON CONFLICT (match_id) DO UPDATE SET player_a = EXCLUDED.player_a,
    player_b = EXCLUDED.player_b, length = EXCLUDED.length, score_a = EXCLUDED.score_a,
    score_b = EXCLUDED.score_b, games = EXCLUDED.games, status = EXCLUDED.status,
    winner = EXCLUDED.winner, confirmed = EXCLUDED.confirmed, version = EXCLUDED.version,
    position = EXCLUDED.position, updated_at = EXCLUDED.updated_at,
    table_no = EXCLUDED.table_no, spectators_barred = EXCLUDED.spectators_barred
"""


async def write(
    conn: asyncpg.Connection, match_id: UUID, version: int, folded: Folded, position: int
) -> None:
    """The match's row as its stream stands at `version` (global `position`)."""
    s = folded.state
    if not s.created:
        return
    await conn.execute(
        _UPSERT,
        match_id,
        *s.players,
        s.length,
        *s.score,
        s.games,
        "over" if s.over else "playing",
        s.winner,
        s.confirmed,
        version,
        position,
        folded.started_at,
        folded.updated_at,
        s.table or None,
        bool(s.barred_by),
    )


MODEL = ReadModel(NAME, TABLES, BG_FOLD, write)


def backgammon_folds(
    pool: asyncpg.Pool,
    registry: EventRegistry,
    batch: int = 500,
    folder: Folder[Folded] | None = None,
) -> StreamFolds[Folded]:
    """The read model's consumer for the tail loop, folding in the process's one `folder` of
    backgammon streams (the live feed's too) when handed it."""
    return StreamFolds(pool, registry, MODEL, batch, folder)


async def rebuild_backgammon(pool: asyncpg.Pool, registry: EventRegistry) -> int:
    """Empty `backgammon_matches` and fold it again from position 0, in one transaction."""
    return await rebuild_folds(pool, backgammon_folds(pool, registry))
