"""The bare endpoint `bench/command_path.py` measures the judge's command against: Litestar
validates the same body with msgspec and does one asyncpg INSERT on the same PostgreSQL.

    DATABASE_URL=... uvicorn command_bare:app --port P --workers W   (cwd: bench/)
"""

from __future__ import annotations

import os
import uuid
from typing import Any

import asyncpg
import msgspec
from litestar import Litestar, post


class Body(msgspec.Struct, forbid_unknown_fields=True):
    command_id: uuid.UUID
    expected_version: int
    command: dict[str, Any]


_pool: asyncpg.Pool | None = None
_INSERT = "INSERT INTO bare_commands (command_id, stream_id, version, body) VALUES ($1, $2, $3, $4)"


async def _open() -> None:
    global _pool
    _pool = await asyncpg.create_pool(os.environ["DATABASE_URL"], min_size=2, max_size=10)
    async with _pool.acquire() as conn:
        await conn.execute(
            "CREATE TABLE IF NOT EXISTS bare_commands (command_id uuid PRIMARY KEY, "
            "stream_id uuid, version int, body jsonb)"
        )


async def _close() -> None:
    if _pool is not None:
        await _pool.close()


@post("/api/matches/{match_id:uuid}/commands", status_code=201)
async def command(match_id: uuid.UUID, data: Body) -> dict[str, Any]:
    """Validate, insert, answer with what a judge's client reads."""
    version = data.expected_version + 1
    await _pool.execute(
        _INSERT, data.command_id, match_id, version, msgspec.json.encode(data.command).decode()
    )
    return {"last_version": version, "positions": [version], "events": []}


app = Litestar([command], on_startup=[_open], on_shutdown=[_close])
