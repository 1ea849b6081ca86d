"""A player's match receipt checked at the federation (decision 0174), by the venue's own
receipt machinery (`eventlog/receipts.py`): its signature against the keys the venue enrolled
(every key its record was signed with, rotations too), then the kept record against what was
receipted (`held_by`). Where the federation has not kept that match yet it says it cannot
check the record — never "ok" without the evidence."""

from __future__ import annotations

from uuid import UUID

import asyncpg

from tableside.eventlog import receipts
from tableside.eventlog.checkpoints import CheckpointError
from tableside.federation.archive.kept import kept_stream


async def check(conn: asyncpg.Connection, raw: str) -> dict:
    """The verdict on a receipt (its JSON, a verify link or its fragment): which venue signed
    it, whether the signature verifies, whether the kept record holds it."""
    try:
        receipt = receipts.decode(raw.encode())
        match_id = UUID(receipt.match_id)
        key = bytes.fromhex(receipt.public_key)
    except (CheckpointError, ValueError) as exc:
        return {"receipt": "unreadable", "detail": str(exc)}
    venue = await conn.fetchrow(
        "SELECT v.venue_id, v.name FROM venue_keys k JOIN venues v USING (venue_id)"
        " WHERE k.public_key = $1 UNION SELECT venue_id, name FROM venues WHERE public_key = $1"
        " LIMIT 1",
        key,
    )
    if venue is None:
        return {"receipt": "unknown_venue", "match_id": receipt.match_id}
    signed = receipts.problem(receipt, key)
    said = {"match_id": receipt.match_id, "venue": venue["name"], "result": receipt.result}
    if signed is not None:
        return {**said, "receipt": "bad_signature", "detail": signed}
    records = await kept_stream(conn, venue["venue_id"], match_id)
    if not records or records[-1].version < receipt.version:
        return {**said, "receipt": "not_kept_yet"}
    differs = receipts.held_by(receipt, records)
    if differs is not None:
        return {**said, "receipt": "record_differs", "detail": differs}
    return {**said, "receipt": "holds", "version": receipt.version, "position": receipt.position}
