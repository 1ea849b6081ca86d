"""Auditor reads: a match's full event record with hashes, and a chain verification."""

from __future__ import annotations

import contextlib
from typing import Any
from uuid import UUID

import anyio.to_thread
import msgspec
from litestar import Request, get
from litestar.datastructures import State
from litestar.exceptions import NotFoundException
from litestar.params import FromPath

from tableside.eventlog.checkpoint_db import (
    ALL_CHECKPOINTS,
    from_row,
    seal_with_async,
    signer_marks,
    take_async,
)
from tableside.eventlog.checkpoints import SigningRefused
from tableside.eventlog.jsonl import export_lines, verify_sealed
from tableside.eventlog.record_notes import accepted_line, as_dict, touching
from tableside.eventlog.records import RAW_COLUMNS, RawRecord
from tableside.eventlog.standing import newest_covering
from tableside.eventlog.verdict import ACCEPTED, UNPROVEN, record_verdict
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
    to the newest signed checkpoint covering it, stored or in the signer's log (one is
    signed now if none does and the record is not disputed, as for a download), and that
    checkpoint's signature against this server's key. `verdict`, `checks` and `missing` say
    which checks ran: "unproven" where nothing signed covers the match (#41), never "ok";
    `seal` names the checkpoint, `disputed` why this server vouches for nothing now."""
    records = await _records(request, state, match_id)
    report = verify(records, dense_positions=False)
    broken = report.broken
    ctx = context(state)
    signer = ctx.signing_key
    sealed = None if broken else await newest_seal(ctx, records)
    trusted = signer.trusted if signer else None
    checked = verify_sealed(export_lines(records, match_id, sealed), trusted)
    verdict = record_verdict(checked, trusted, in_store=True)
    dispute = signer.dispute if signer else None
    if dispute is not None and verdict.proven:
        verdict.missing.append(UNPROVEN)
        verdict.ran.append(
            f"this server vouches for nothing: the record is disputed ({dispute.reason})"
        )
    async with ctx.pool.acquire() as conn:
        accepted = await touching(conn, trusted, records[0].position)
    if accepted:
        verdict.missing.append(ACCEPTED)
        verdict.ran.extend(accepted_line(event, holds=True) for event in accepted)
    seal = None
    if sealed is not None:
        seal = {"position": sealed.checkpoint.position, "signature_checked": trusted is not None}
    return {
        "intact": verdict.proven,
        "events": report.events,
        "broken": verdict.problem,
        "broken_version": None if broken is None else broken.version,
        "seal": seal,
        "disputed": None if dispute is None else {"code": dispute.code, "reason": dispute.reason},
        "accepted": [as_dict(event) for event in accepted],
        **verdict.as_dict(),
    }


async def newest_seal(ctx: Any, records: list[RawRecord]) -> Any:
    """Sign the head if no checkpoint covers the records yet (not while disputed), then seal
    them with the newest signed checkpoint covering them: stored or in the signer's log."""
    with contextlib.suppress(SigningRefused):
        await take_async(ctx.pool, ctx.signing_key, covering=records[-1].position)
    async with ctx.pool.acquire() as conn:
        stored = [from_row(r) for r in await conn.fetch(ALL_CHECKPOINTS)]
    if ctx.signing_key is not None:
        _, logged, _ = await anyio.to_thread.run_sync(signer_marks, ctx.signing_key, [])
        stored = [*stored, *logged]
    return await seal_with_async(ctx.pool, newest_covering(stored, records[-1].position), records)


AUDIT_ROUTES = [get_record, verify_match]
