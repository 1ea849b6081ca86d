"""Signed checkpoints while serving: the key, a periodic one, one on shutdown, the public route.

The key (Ed25519, outside the database: `Settings.signing_key_path`, made on first start
with mode 0600) signs the store's head every `TABLESIDE_CHECKPOINT_MINUTES` when the store
has moved, once more on shutdown, and whenever a record export needs one that covers it.
`GET /api/checkpoints/latest` publishes the newest (public: anyone may keep a copy and
later hold the store to it with `tableside audit verify --checkpoint FILE`).
"""

from __future__ import annotations

import asyncio
import logging
from typing import Any

import anyio.to_thread
import asyncpg
from litestar import Response, get
from litestar.datastructures import State
from litestar.openapi import ResponseSpec

from tableside.eventlog.checkpoint_db import latest_async, take_async
from tableside.eventlog.checkpoints import Checkpoint, load_signer
from tableside.web.context import Context, context

log = logging.getLogger(__name__)


async def load_key(ctx: Context) -> None:
    """Read (or make, on first start) the signing key named by the settings, and its log."""
    settings = ctx.settings
    ctx.signing_key = await anyio.to_thread.run_sync(
        load_signer, settings.signing_key_path, settings.checkpoint_log_path
    )


async def checkpoint_now(ctx: Context) -> Checkpoint | None:
    """Sign the head if it moved since the latest checkpoint; a failure is logged, not raised."""
    try:
        return await take_async(ctx.pool, ctx.signing_key)
    except (asyncpg.PostgresError, OSError) as exc:
        log.warning("checkpoint not taken: %s", exc)
        return None


async def periodic_checkpoints(ctx: Context) -> None:
    """Every TABLESIDE_CHECKPOINT_MINUTES, a checkpoint when there are new events."""
    every = ctx.settings.checkpoint_minutes * 60
    while True:
        await asyncio.sleep(every)
        await checkpoint_now(ctx)


@get(
    "/api/checkpoints/latest",
    summary="The newest signed checkpoint of the store",
    status_code=200,
    responses={204: ResponseSpec(None, description="No checkpoint is signed yet")},
)
async def latest_checkpoint(state: State) -> Response[dict[str, Any] | None]:
    """Position, head hash (and its short form), time, Ed25519 signature and public key;
    204 while none is signed yet — a state of a new store (the first comes within
    TABLESIDE_CHECKPOINT_MINUTES of the first event), not an error a face would log."""
    checkpoint = await latest_async(context(state).pool)
    if checkpoint is None:
        return Response(None, status_code=204)
    return Response(
        {
            "format": checkpoint.format,
            "position": checkpoint.position,
            "head_hash": checkpoint.head_hash,
            "short_hash": checkpoint.short_hash,
            "time": checkpoint.time.isoformat(),
            "signature": checkpoint.signature,
            "public_key": checkpoint.public_key,
        }
    )
