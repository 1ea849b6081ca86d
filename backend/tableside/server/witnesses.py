"""Witnesses outside the laptop, collected by the head judge's console (#41, point 6).

`POST /api/witnesses` (head judge): a witness file as the faces export it (JSON Lines of
checkpoints, `pwa/js/checkpoint-witness.js`) or as `audit witness` keeps them. Each line must
be signed by this store's key (or one it replaced), and the store must still yield its head:
each is recorded as a `CheckpointWitnessed` event of the record's own stream (what the audit
reads; `source` says whose). A line whose head the store no longer yields makes the record
disputed (409 `record_disputed`), and is recorded all the same: it is the evidence.

`GET /api/witnesses/newest` (head judge): when the newest witness outside this machine was
taken (a collected device's or mirror's checkpoint, or now while a standby holds every
commit) and whether a checkpoint signed since has waited longer than the checkpoint
interval for one (`stale`): the console warns.
"""

from __future__ import annotations

import uuid
from datetime import UTC, datetime, timedelta
from typing import Any, Literal

import msgspec
from litestar import Request, get, post

from tableside.eventlog import standing
from tableside.eventlog.checkpoints import Checkpoint, CheckpointError, problem, read_published
from tableside.web.auth import bearer, require, resolve
from tableside.web.context import Context, Services
from tableside.web.disputed import disputed, witness_refused
from tableside.web.health import federation_seen

_MAX_BYTES = 256 * 1024  # a day of a mirror's checkpoints, many times over
_HEAD_AT = "SELECT global_hash FROM stored_events WHERE notification_id = $1"
_NEWEST = (
    "SELECT state FROM stored_events WHERE originator_id = $1 AND topic = 'CheckpointWitnessed'"
    " ORDER BY originator_version DESC LIMIT 1"
)
_VERSION = "SELECT coalesce(max(originator_version), 0) FROM stored_events WHERE originator_id = $1"


def _lines(raw: bytes) -> list[Checkpoint]:
    if len(raw) > _MAX_BYTES:
        raise witness_refused(f"a witness file is at most {_MAX_BYTES} bytes")
    found = []
    for number, line in enumerate(raw.splitlines(), 1):
        if line.strip():
            try:
                found.append(read_published(line))
            except CheckpointError as exc:
                raise witness_refused(f"line {number}: {exc}") from None
    if not found:
        raise witness_refused("the witness file holds no checkpoint")
    return found


async def _held(ctx: Context, checkpoint: Checkpoint) -> bool:
    row = await ctx.pool.fetchrow(_HEAD_AT, checkpoint.position)
    return row is not None and bytes(row[0]).hex() == checkpoint.head_hash


@post("/api/witnesses", summary="Collect a device's or a mirror's witness file", status_code=200)
async def collect(
    request: Request, ctx: Services, source: Literal["device", "mirror"] = "device"
) -> dict[str, Any]:
    """Each checkpoint of the file checked (key, signature, the store's head there) and
    recorded; 422 naming the line that is not the venue's, 409 when the store no longer
    yields a head a witness holds (the record is disputed from then on)."""
    require(await resolve(ctx.pool, bearer(request)), "head_judge")
    signer = ctx.signer()
    marks = _lines(await request.body())
    for number, checkpoint in enumerate(marks, 1):
        wrong = problem(checkpoint, signer.trusted)
        if wrong:
            raise witness_refused(f"line {number}: {wrong}")
    held = [await _held(ctx, cp) for cp in marks]
    await _record(ctx, marks, held, source)
    if not all(held):
        lost = marks[held.index(False)]
        reason = (
            f"a {source} witness holds the head {lost.head_hash} at position {lost.position},"
            " which the store no longer yields"
        )
        signer.dispute = standing.Dispute(standing.HEAD_CHANGED, reason)
        raise disputed(signer.dispute)
    return {"recorded": len(marks), "newest": max(cp.position for cp in marks)}


async def _record(ctx: Context, marks: list[Checkpoint], held: list[bool], source: str) -> None:
    now = datetime.now(UTC).isoformat()
    events = [
        standing.CheckpointWitnessed(
            position=cp.position,
            head_hash=cp.head_hash,
            signed_at=cp.time.isoformat(),
            public_key=cp.public_key,
            signature=cp.signature,
            source=source,
            held=ok,
            at=now,
        )
        for cp, ok in zip(marks, held, strict=True)
    ]
    version = await ctx.pool.fetchval(_VERSION, standing.RECORD_STREAM)
    await ctx.store.append_async(
        standing.RECORD_STREAM,
        events,
        expected_version=version,
        command_id=uuid.uuid4(),
        meta={"recorder": "head judge console", "role": "head_judge"},
    )


@get("/api/witnesses/newest", summary="When the newest witness outside this machine was taken")
async def newest(request: Request, ctx: Services) -> dict[str, Any]:
    """`at` (ISO, or null), `source`, `interval_minutes`, and `stale`: a checkpoint signed
    after the newest witness has waited longer than the checkpoint interval for one; with a
    federation (issue 49) its newest acknowledgement is the newest witness (`source`
    "federation", `position`), and `federation` what the uplink saw (a fork refused too)."""
    require(await resolve(ctx.pool, bearer(request)), "head_judge")
    row = await ctx.pool.fetchrow(_NEWEST, standing.RECORD_STREAM)
    seen = msgspec.json.decode(bytes(row[0]), type=standing.CheckpointWitnessed) if row else None
    at, source = (datetime.fromisoformat(seen.at), seen.source) if seen else (None, None)
    replication = ctx.health.replication
    if replication is not None and replication[0] and replication[1]:  # a standby holds it all
        at, source = datetime.now(UTC), "standby"
    federation = federation_seen(ctx.settings)
    position = None
    if federation is not None and federation.get("ack"):  # the federation witnessed it
        at, source = datetime.fromisoformat(federation["ack"]["time"]), "federation"
        position = federation["ack"]["position"]
    waiting = await ctx.pool.fetchval(_UNWITNESSED, at or datetime(1970, 1, 1, tzinfo=UTC))
    interval = ctx.settings.checkpoint_minutes
    late = waiting is not None and datetime.now(UTC) - waiting > timedelta(minutes=interval)
    return {
        "at": at.isoformat() if at else None,
        "source": source,
        "position": position,
        "stale": late,
        "interval_minutes": interval,
        "federation": federation,
    }


_UNWITNESSED = "SELECT min(signed_at) FROM event_checkpoints WHERE signed_at > $1"


WITNESS_ROUTES = [collect, newest]
