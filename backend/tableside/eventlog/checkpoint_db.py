"""Checkpoints in the database (`event_checkpoints`, schema/007): take, read, latest.

Sync (psycopg) for the `tableside audit` commands, async (asyncpg) for the server's periodic
checkpoint and its public route. A checkpoint is taken only when the store has moved past
the latest one.
"""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

from tableside.eventlog import standing
from tableside.eventlog.chain import GENESIS
from tableside.eventlog.checkpoints import (
    Checkpoint,
    Signer,
    SigningRefused,
    append_to_log,
    as_signer,
    read_log,
)
from tableside.eventlog.jsonl import Link, Seal
from tableside.eventlog.records import RAW_COLUMNS, RawRecord, raw_record
from tableside.eventlog.signer_log import LogReading
from tableside.eventlog.verify import verify_segment

_HEAD = (
    "SELECT notification_id, global_hash FROM stored_events ORDER BY notification_id DESC LIMIT 1"
)
# One signer at a time across processes and nodes: two nodes seeing the same new head would
# each sign it. The second waits, then finds it signed (issue 32).
ONE_SIGNER = "SELECT pg_advisory_xact_lock(7202613)"
_COLUMNS = "position, head_hash, signed_at, public_key, signature"
_LATEST = (
    f"SELECT {_COLUMNS} FROM event_checkpoints ORDER BY position DESC, checkpoint_id DESC LIMIT 1"
)
ALL_CHECKPOINTS = f"SELECT {_COLUMNS} FROM event_checkpoints ORDER BY position, checkpoint_id"
# The only way in for the server's role (schema/011): the owner's function checks the
# signature against a key registered at migrate time; the trigger of 007 checks the head.
_INSERT = "SELECT tableside_append_checkpoint({})"
_PSYCOPG_INSERT = _INSERT.format("%s, %s, %s, %s, %s")
_ASYNCPG_INSERT = _INSERT.format("$1, $2, $3, $4, $5")


def from_row(row: Any) -> Checkpoint:
    """A stored row as a Checkpoint."""
    position, head, time, key, signature = row
    return Checkpoint(position, bytes(head).hex(), time, bytes(key).hex(), bytes(signature).hex())


def _params(checkpoint: Checkpoint) -> tuple[Any, ...]:
    return (
        checkpoint.position,
        bytes.fromhex(checkpoint.head_hash),
        checkpoint.time,
        bytes.fromhex(checkpoint.public_key),
        bytes.fromhex(checkpoint.signature),
    )


SigningKey = Signer | Ed25519PrivateKey | None


def _due(head: Any, latest: Checkpoint | None, covering: int, key: Any) -> bool:
    if head is None or key is None:
        return False
    return latest is None or latest.position < max(covering, 1)


def take(conn: Any, key: SigningKey, *, covering: int | None = None) -> Checkpoint | None:
    """Sign and store the head when it is past the latest checkpoint (psycopg connection).

    With `covering`: only when the latest checkpoint is before that position; returns the
    newest checkpoint then (new or latest). Without: None when nothing is new. Without a
    key nothing is signed. A Signer keeps the checkpoint in its log before it is stored.
    """
    signer = as_signer(key)
    with conn.transaction():
        conn.execute(ONE_SIGNER)
        head = conn.execute(_HEAD).fetchone()
        latest = latest_checkpoint(conn)
        target = covering if covering is not None else _position(head) or 0
        if signer is None or not _due(head, latest, target, signer):
            return latest if covering is not None else None
        _refuse(signer, _holds(conn, signer, head[0]))
        return insert(conn, signer.sign(head[0], bytes(head[1])))


def insert(conn: Any, checkpoint: Checkpoint) -> Checkpoint:
    """Store a checkpoint as it is (psycopg); refused (CheckViolation) when its head is not
    the stored one, its key is not registered or its signature does not verify."""
    conn.execute(_PSYCOPG_INSERT, _params(checkpoint))
    return checkpoint


def latest_checkpoint(conn: Any) -> Checkpoint | None:
    """The newest stored checkpoint (psycopg)."""
    row = conn.execute(_LATEST).fetchone()
    return from_row(row) if row else None


def all_checkpoints(conn: Any) -> list[Checkpoint]:
    """Every stored checkpoint, oldest first (psycopg)."""
    return [from_row(r) for r in conn.execute(ALL_CHECKPOINTS).fetchall()]


async def take_async(
    pool: Any, key: SigningKey, *, covering: int | None = None
) -> Checkpoint | None:
    """`take` over an asyncpg pool."""
    signer = as_signer(key)
    async with pool.acquire() as conn, conn.transaction():
        await conn.execute(ONE_SIGNER)
        head = await conn.fetchrow(_HEAD)
        latest = await latest_async(conn)
        target = covering if covering is not None else _position(head) or 0
        if signer is None or not _due(head, latest, target, signer):
            return latest if covering is not None else None
        _refuse(signer, await _holds_async(conn, signer, head[0]))
        checkpoint = signer.sign(head[0], bytes(head[1]))
        await conn.execute(_ASYNCPG_INSERT, *_params(checkpoint))
        return checkpoint


async def latest_async(conn: Any) -> Checkpoint | None:
    """The newest stored checkpoint (asyncpg pool or connection)."""
    row = await conn.fetchrow(_LATEST)
    return from_row(row) if row else None


# Before each signature (#41): the store still yields every head signed (the stored global
# hash at each signed position), the log is whole, and the stretch since the newest signed
# head chains (`verify_segment`); at start the whole chain is recomputed (`standing_db`).
_AT = "SELECT notification_id, global_hash FROM stored_events WHERE notification_id = ANY({})"
_STRETCH = (
    f"SELECT {RAW_COLUMNS} FROM stored_events"
    " WHERE notification_id > {} AND notification_id <= {} ORDER BY notification_id"
)
Log = tuple[Path, LogReading] | None


def _refuse(signer: Signer, dispute: standing.Dispute | None) -> None:
    if dispute is not None:
        signer.dispute = dispute
        raise SigningRefused(dispute)


def signer_marks(
    signer: Signer, stored: list[Checkpoint]
) -> tuple[list[Checkpoint], list[Checkpoint], Log]:
    """(stored, logged, the log as read) signed since the last dispute accepted
    (`signer.since`: the store's signed `RecordDisputeAccepted`, never a line of the log,
    #50); without a log: (stored, [], None). The log's lines must be signed by the store's
    key or one it replaced."""
    if signer.log is None:
        return standing.since(stored, signer.since), [], None
    logged, reading = read_log(signer.log, signer.trusted)
    kept = standing.since(stored, signer.since), standing.since(logged, signer.since)
    return kept[0], kept[1], (signer.log, reading)


# The keys' history (schema/013): what each registered key signed.
HISTORY = (
    "SELECT public_key, signed_count, last_position, last_head, last_signed_at FROM checkpoint_keys"
)


def history_of(rows: list[Any], held: int, signer: Signer | None = None) -> standing.KeyHistory:
    """The keys' history from `HISTORY`'s rows, beside the `held` stored checkpoints; each
    key's newest head only when signed after the last accepted dispute (the signer's; none
    without a signer: `audit verify` holds the store to everything ever signed)."""
    newest = [
        Checkpoint(r[2], bytes(r[3]).hex(), r[4], bytes(r[0]).hex(), "")
        for r in rows
        if r[2] is not None
    ]
    return standing.KeyHistory(
        signed=sum(r[1] for r in rows),
        held=held,
        newest=tuple(standing.since(newest, signer.since if signer else None)),
        accepted_missing=signer.accepted_missing if signer else 0,
    )


def _positions(
    stored: list[Checkpoint], logged: list[Checkpoint], end: int, history: Any = None
) -> list[int]:
    more = list(history.newest) if history is not None else []
    return sorted({cp.position for cp in [*stored, *logged, *more] if cp.position <= end})


def _stretch_dispute(rows: list[Any], anchor: int, heads: dict[int, bytes]) -> Any:
    records = [raw_record(r) for r in rows]
    broken = verify_segment(records, anchor, heads.get(anchor, GENESIS))
    return standing.Dispute(standing.CHAIN_BROKEN, broken.describe()) if broken else None


def adopt(signer: Signer, stored: list[Checkpoint], logged: list[Checkpoint]) -> int:
    """Write the stored checkpoints the log lacks into it, marked `adopted` (their heads were
    found to hold); how many."""
    found = standing.lacking(stored, logged) if signer.log is not None else []
    for checkpoint in found:
        append_to_log(signer, checkpoint, adopted=True)
    return len(found)


FIRST = "SELECT global_hash FROM stored_events WHERE notification_id = 1"


def _holds(conn: Any, signer: Signer, end: int) -> standing.Dispute | None:
    """Why the store at `end` must not be signed, or None (psycopg)."""
    everything = all_checkpoints(conn)
    stored, logged, log = signer_marks(signer, everything)
    history = history_of(conn.execute(HISTORY).fetchall(), len(everything), signer)
    positions = _positions(stored, logged, end, history)
    rows = conn.execute(_AT.format("%s"), (positions,)).fetchall()
    heads = {r[0]: bytes(r[1]) for r in rows}
    found = foreign(signer, log, conn.execute(FIRST).fetchone()) or standing.judge(
        stored, logged, log, heads, end, history
    )
    if found is not None:
        return found
    anchor = max(_positions(stored, logged, end), default=0)
    stretch = conn.execute(_STRETCH.format("%s", "%s"), (anchor, end)).fetchall()
    found = _stretch_dispute(stretch, anchor, heads)
    if found is None:
        adopt(signer, stored, logged)
    return found


async def _holds_async(conn: Any, signer: Signer, end: int) -> standing.Dispute | None:
    """`_holds` on an asyncpg connection (the log is read in a thread)."""
    everything = [from_row(r) for r in await conn.fetch(ALL_CHECKPOINTS)]
    stored, logged, log = await asyncio.to_thread(signer_marks, signer, everything)
    history = history_of(await conn.fetch(HISTORY), len(everything), signer)
    positions = _positions(stored, logged, end, history)
    rows = await conn.fetch(_AT.format("$1::bigint[]"), positions)
    heads = {r[0]: bytes(r[1]) for r in rows}
    found = foreign(signer, log, await conn.fetchrow(FIRST)) or standing.judge(
        stored, logged, log, heads, end, history
    )
    if found is not None:
        return found
    anchor = max(_positions(stored, logged, end), default=0)
    stretch = await conn.fetch(_STRETCH.format("$1", "$2"), anchor, end)
    found = _stretch_dispute(stretch, anchor, heads)
    if found is None:
        await asyncio.to_thread(adopt, signer, stored, logged)
    return found


def history_dispute(conn: Any, stored: list[Checkpoint]) -> standing.Dispute | None:
    """The store against everything its keys ever signed (psycopg; `audit verify`)."""
    history = history_of(conn.execute(HISTORY).fetchall(), len(stored))
    positions = [cp.position for cp in history.newest]
    rows = conn.execute(_AT.format("%s"), (positions,)).fetchall()
    end = conn.execute(_HEAD).fetchone()
    heads = {r[0]: bytes(r[1]) for r in rows}
    return standing.history_problem(history, heads, end[0] if end else 0)


def foreign(signer: Signer, log: Log, first: Any) -> standing.Dispute | None:
    """Learn the store's identity (`first`: its first event's global hash, for a new log's
    first line, `key_identity.store_identity`); a log naming another store is a dispute
    (a store empty at start learns it only here)."""
    if signer.store is None and first is not None:
        signer.store = bytes(first[0]).hex()
    if log is None or signer.store is None:
        return None
    return standing.foreign_log(log[0], log[1].store, signer.store)


def _position(head: Any) -> int | None:
    return head[0] if head is not None else None


_ANCHOR = "SELECT global_hash FROM stored_events WHERE notification_id = {}"
_LINKS = (
    "SELECT notification_id, originator_id, originator_version, hash FROM stored_events"
    " WHERE notification_id > {} AND notification_id <= {} AND originator_id <> {}"
    " ORDER BY notification_id"
)


def seal(conn: Any, key: SigningKey, records: list[RawRecord]) -> Seal | None:
    """What ties one stream's records to a checkpoint covering them (psycopg); None when
    no checkpoint covers them and there is no key here to sign one."""
    if not records:
        return None
    return seal_with(conn, take(conn, key, covering=records[-1].position), records)


def seal_with(conn: Any, checkpoint: Checkpoint | None, records: list[RawRecord]) -> Seal | None:
    """The store-wide links from the records' first event to `checkpoint` (psycopg); None
    when it does not cover them."""
    if not records or checkpoint is None or checkpoint.position < records[-1].position:
        return None
    first = records[0].position
    row = conn.execute(_ANCHOR.format("%s"), (first - 1,)).fetchone()
    rows = conn.execute(
        _LINKS.format("%s", "%s", "%s"), (first, checkpoint.position, records[0].stream_id)
    ).fetchall()
    return _seal(checkpoint, row, rows)


async def seal_async(pool: Any, key: SigningKey, records: list[RawRecord]) -> Seal | None:
    """`seal` over an asyncpg pool."""
    if not records:
        return None
    checkpoint = await take_async(pool, key, covering=records[-1].position)
    return await seal_with_async(pool, checkpoint, records)


async def seal_with_async(
    pool: Any, checkpoint: Checkpoint | None, records: list[RawRecord]
) -> Seal | None:
    """`seal_with` over an asyncpg pool."""
    if not records or checkpoint is None or checkpoint.position < records[-1].position:
        return None
    first = records[0].position
    async with pool.acquire() as conn:
        row = await conn.fetchrow(_ANCHOR.format("$1"), first - 1)
        rows = await conn.fetch(
            _LINKS.format("$1", "$2", "$3"), first, checkpoint.position, records[0].stream_id
        )
    return _seal(checkpoint, row, rows)


def _seal(checkpoint: Checkpoint, anchor_row: Any, rows: list[Any]) -> Seal:
    anchor = bytes(anchor_row[0]) if anchor_row else GENESIS
    links = [Link(r[0], r[1], r[2], bytes(r[3]).hex()) for r in rows]
    return Seal(checkpoint, anchor, links)
