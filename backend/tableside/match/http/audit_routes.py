"""Auditor reads: a match's full event record with hashes, and a chain verification."""

from __future__ import annotations

from typing import Any
from uuid import UUID

import msgspec
from litestar import Request, get
from litestar.datastructures import State
from litestar.exceptions import NotFoundException
from litestar.params import FromPath

from tableside.eventlog.records import RAW_COLUMNS, RawRecord
from tableside.eventlog.verify import verify
from tableside.web.auth import bearer, require, resolve
from tableside.web.context import context

_RAW = (
    f"SELECT {RAW_COLUMNS} FROM stored_events WHERE originator_id = $1 ORDER BY originator_version"
)


async def _records(request: Request, state: State, match_id: FromPath[UUID]) -> list[RawRecord]:
    ctx = context(state)
    require(await resolve(ctx.pool, bearer(request)), "auditor", "head_judge")
    rows = await ctx.pool.fetch(_RAW, match_id)
    if not rows:
        raise NotFoundException(f"No match {match_id}")
    return [RawRecord(*(bytes(v) if isinstance(v, memoryview) else v for v in r)) for r in rows]


def _entry(r: RawRecord) -> dict[str, Any]:
    meta = msgspec.json.decode(r.meta)
    return {
        "version": r.version,
        "position": r.position,
        "type": r.type_name,
        "event": msgspec.json.decode(r.payload),
        "recorded_at": r.recorded_at.isoformat(),
        "command_id": str(r.command_id),
        "recorder": meta.get("recorder", ""),
        "role": meta.get("role", ""),
        "device_id": meta.get("device_id", ""),
        "device_time": meta.get("device_time", ""),
        "meta": meta,
        "prev_hash": r.prev_hash.hex(),
        "hash": r.hash.hex(),
    }


@get("/api/matches/{match_id:uuid}/record", summary="The auditor's full event record")
async def get_record(
    request: Request, state: State, match_id: FromPath[UUID]
) -> list[dict[str, Any]]:
    """Every stored event of a match with its hash, recorder and device (auditor, head judge)."""
    return [_entry(r) for r in await _records(request, state, match_id)]


@get("/api/matches/{match_id:uuid}/verify", summary="Verify a match's hash chain")
async def verify_match(request: Request, state: State, match_id: FromPath[UUID]) -> dict[str, Any]:
    """Recompute the chain: intact, or the first broken event and why."""
    report = verify(await _records(request, state, match_id), dense_positions=False)
    broken = report.broken
    return {
        "intact": broken is None,
        "events": report.events,
        "broken": None if broken is None else broken.describe(),
        "broken_version": None if broken is None else broken.version,
    }


AUDIT_ROUTES = [get_record, verify_match]
