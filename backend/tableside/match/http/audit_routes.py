"""Auditor reads: a match's full event record with hashes, and a chain verification."""

from __future__ import annotations

from typing import Any
from uuid import UUID

import msgspec
from litestar import Request, get
from litestar.datastructures import State
from litestar.exceptions import NotFoundException
from litestar.params import FromPath

from tableside.eventlog.checkpoint_db import seal_async
from tableside.eventlog.checkpoints import public_hex
from tableside.eventlog.jsonl import export_lines, verify_sealed
from tableside.eventlog.records import RAW_COLUMNS, RawRecord
from tableside.eventlog.verdict import record_verdict
from tableside.eventlog.verify import verify
from tableside.web.auth import bearer, require, resolve
from tableside.web.context import context
from tableside.web.problems import coded

_RAW = (
    f"SELECT {RAW_COLUMNS} FROM stored_events WHERE originator_id = $1 ORDER BY originator_version"
)


async def _records(request: Request, state: State, match_id: FromPath[UUID]) -> list[RawRecord]:
    ctx = context(state)
    require(await resolve(ctx.pool, bearer(request)), "auditor", "head_judge")
    rows = await ctx.pool.fetch(_RAW, match_id)
    if not rows:
        raise NotFoundException(f"No match {match_id}", extra=coded("no_match"))
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


@get("/api/matches/{match_id:uuid}/verify", summary="Verify a match's hash chain and seal")
async def verify_match(request: Request, state: State, match_id: FromPath[UUID]) -> dict[str, Any]:
    """Recompute the chain, then the seal: the store-wide chain from the match's first event
    to a checkpoint covering it (signed now if none does, as for a download) and that
    checkpoint's signature against this server's key. Intact, or the first problem and why;
    `verdict`, `checks` and `missing` say which checks ran ("ok, unsealed" is not "ok"),
    `seal` where it was sealed (#29)."""
    records = await _records(request, state, match_id)
    report = verify(records, dense_positions=False)
    broken = report.broken
    ctx = context(state)
    sealed = None if broken else await seal_async(ctx.pool, ctx.signing_key, records)
    trusted = bytes.fromhex(public_hex(ctx.signing_key.key)) if ctx.signing_key else None
    checked = verify_sealed(export_lines(records, match_id, sealed), trusted)
    verdict = record_verdict(checked, trusted)
    seal = None
    if sealed is not None:
        seal = {"position": sealed.checkpoint.position, "signature_checked": trusted is not None}
    return {
        "intact": verdict.ok,
        "events": report.events,
        "broken": verdict.problem,
        "broken_version": None if broken is None else broken.version,
        "seal": seal,
        **verdict.as_dict(),
    }


AUDIT_ROUTES = [get_record, verify_match]
