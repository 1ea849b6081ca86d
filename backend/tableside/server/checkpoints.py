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
import uuid
from functools import partial
from typing import Any

import anyio.to_thread
import asyncpg
from litestar import Response, get
from litestar.openapi import ResponseSpec

from tableside.eventlog import standing_db
from tableside.eventlog.checkpoint_db import latest_async, take_async
from tableside.eventlog.checkpoints import Checkpoint, Signer, SigningRefused, public_hex
from tableside.eventlog.key_identity import (
    bound_log,
    signing_key_for,
    store_identity,
    trusted_in,
)
from tableside.eventlog.standing import RECORD_STREAM, DisputeAccepted
from tableside.web.context import Context, Pool

log = logging.getLogger(__name__)


async def load_key(ctx: Context) -> None:
    """The store's signing key named by the settings (made on an unsigned store's first
    start; another key, or none, stops the start: `key_identity`), and its log."""
    settings = ctx.settings
    key = await anyio.to_thread.run_sync(
        signing_key_for, settings.database, settings.signing_key_path
    )
    pub = bytes.fromhex(public_hex(key))
    trusted = await anyio.to_thread.run_sync(trusted_in, settings.database, pub)
    store = await anyio.to_thread.run_sync(store_identity, settings.database)
    log_path = settings.checkpoint_log_path
    await anyio.to_thread.run_sync(bound_log, log_path, store)
    ctx.signing_key = Signer(key, log_path, retired=trusted.retired, store=store)
    await look_at_start(ctx)


async def look_at_start(ctx: Context) -> None:
    """Verify the store against every head the key signed before serving it (#41): a store
    that no longer yields one is disputed, and the signer signs nothing (said here, on
    `/health` and on the console) unless the server was started with `--accept-disputed`:
    then the dispute is recorded as a signed event (mirrored in the log), and signing goes
    on."""
    signer = ctx.signer()
    accept = partial(_record_acceptance, ctx) if ctx.settings.accept_disputed else None
    look = partial(standing_db.look, ctx.settings.database, signer, accept)
    seen = await anyio.to_thread.run_sync(look)
    signer.dispute = seen.dispute
    if seen.adopted:
        log.warning(
            "the signer's log %s was missing: it starts with the store's %d checkpoints,"
            " which all still hold",
            signer.log,
            seen.adopted,
        )
    if seen.accepted is not None:
        log.warning("the disputed record was ACCEPTED as it stands: %s", seen.accepted.reason)
    if seen.dispute is not None:
        log.error("the record is DISPUTED, nothing will be signed: %s", seen.dispute.reason)


def _record_acceptance(ctx: Context, event: DisputeAccepted) -> None:
    """The dispute accepted, as a signed event of the record's own stream (a worker thread)."""
    ctx.store.append(
        RECORD_STREAM,
        [event],
        expected_version=ctx.store.current_version(RECORD_STREAM),
        command_id=uuid.uuid4(),
        meta={"recorder": "tableside serve --accept-disputed", "role": "server"},
    )


async def checkpoint_now(ctx: Context) -> Checkpoint | None:
    """Sign the head if it moved since the latest checkpoint; a failure is logged, not raised."""
    try:
        return await take_async(ctx.pool, ctx.signing_key)
    except SigningRefused as exc:
        log.error("checkpoint refused, the record is disputed: %s", exc)
        return None
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
async def latest_checkpoint(pool: Pool) -> Response[dict[str, Any] | None]:
    """Position, head hash (and its short form), time, Ed25519 signature and public key;
    204 while none is signed yet — a state of a new store (the first comes within
    TABLESIDE_CHECKPOINT_MINUTES of the first event), not an error a face would log."""
    checkpoint = await latest_async(pool)
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
