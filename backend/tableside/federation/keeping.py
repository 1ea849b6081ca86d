"""Keep a venue's push, verified (`judge.py`), in one transaction on one connection: the
venue's row is locked first (`FOR UPDATE`), so two nodes or two pushes of one venue never
judge against the same held head at once; a refusal writes nothing but its alarm (a fork),
once per distinct fork; a kept push is acknowledged with the federation's own key."""

from __future__ import annotations

from dataclasses import dataclass
from uuid import UUID

import asyncpg
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

from tableside.eventlog import federation_ack
from tableside.eventlog.chain import GENESIS
from tableside.eventlog.checkpoints import Checkpoint
from tableside.eventlog.federation_ack import Ack
from tableside.eventlog.records import RawRecord
from tableside.federation.judge import Held, Keep, Offer, Refusal, judge, touched
from tableside.federation.relay import notify

_LOCK = "SELECT venue_id FROM venues WHERE venue_id = $1 FOR UPDATE"
_HEAD = "SELECT coalesce(max(position), 0) FROM venue_events WHERE venue_id = $1"
_HASHES = (
    "SELECT position, global_hash FROM venue_events WHERE venue_id = $1"
    " AND position = ANY($2::bigint[])"
)
# Each stream's newest kept event, one probe of the (venue, stream, version) key per stream:
# the cost of a push does not grow with what is already kept.
_TIPS = """
SELECT s.stream_id, t.version, t.hash FROM unnest($2::uuid[]) AS s(stream_id)
CROSS JOIN LATERAL (
    SELECT version, hash FROM venue_events e
    WHERE e.venue_id = $1 AND e.stream_id = s.stream_id ORDER BY version DESC LIMIT 1
) AS t
"""
_SIGNED = "SELECT coalesce(max(position), 0) FROM venue_checkpoints WHERE venue_id = $1"
_KEYS = "SELECT public_key FROM venue_keys WHERE venue_id = $1"
_ADD_KEY = "INSERT INTO venue_keys (venue_id, public_key) VALUES ($1, $2) ON CONFLICT DO NOTHING"
_CHECKPOINT = """
INSERT INTO venue_checkpoints (venue_id, position, head_hash, signed_at, public_key, signature)
VALUES ($1, $2, $3, $4, $5, $6) ON CONFLICT DO NOTHING
"""
_ACK_AT = (
    "SELECT position, head_hash, signed_at, public_key, signature FROM venue_acks"
    " WHERE venue_id = $1 AND position = $2"
)
_ACK = """
INSERT INTO venue_acks (venue_id, position, head_hash, signed_at, public_key, signature)
VALUES ($1, $2, $3, $4, $5, $6)
"""
_LAST_ALARM = """
SELECT code, position, offered_hash FROM venue_alarms WHERE venue_id = $1
ORDER BY alarm_id DESC LIMIT 1
"""
_ALARM = """
INSERT INTO venue_alarms (venue_id, code, position, held_hash, offered_hash, detail)
VALUES ($1, $2, $3, $4, $5, $6)
"""
EVENT_COLUMNS = (
    "venue_id",
    "position",
    "stream_id",
    "version",
    "type_name",
    "payload",
    "recorded_at",
    "command_id",
    "meta",
    "prev_hash",
    "hash",
    "global_hash",
)


@dataclass(frozen=True)
class Kept:
    """A push kept: how many events were new, the head now held, its acknowledgement."""

    kept: int
    offered: int
    ack: Ack | None  # None while nothing is kept of the venue yet


async def keep(
    pool: asyncpg.Pool, key: Ed25519PrivateKey, venue_id: UUID, offer: Offer
) -> Kept | Refusal:
    """Judge the offer against what is held and keep it, or refuse it (a fork's alarm kept)."""
    async with pool.acquire() as conn, conn.transaction():
        await conn.execute(_LOCK, venue_id)
        held = await _held(conn, venue_id, offer)
        verdict = judge(offer, held)
        if isinstance(verdict, Refusal):
            if verdict.fork:
                await _alarm(conn, venue_id, verdict)
            return verdict
        await _write(conn, venue_id, verdict)
        ack = await _acknowledge(conn, key, venue_id, verdict.head)
        await notify.kept(conn, venue_id, verdict.head[0])  # the remote live relay (0195)
        return Kept(len(verdict.records), len(offer.records), ack)


async def _held(conn: asyncpg.Connection, venue_id: UUID, offer: Offer) -> Held:
    position = await conn.fetchval(_HEAD, venue_id)
    wanted = sorted(touched(offer, position) | ({position} if position else set()))
    hashes = {r[0]: bytes(r[1]) for r in await conn.fetch(_HASHES, venue_id, wanted)}
    streams = sorted({r.stream_id for r in offer.records if r.position > position})
    tips = {
        r["stream_id"]: (r["version"], bytes(r["hash"]))
        for r in (await conn.fetch(_TIPS, venue_id, streams) if streams else [])
    }
    signed = await conn.fetchval(_SIGNED, venue_id)
    keys = frozenset(bytes(r[0]) for r in await conn.fetch(_KEYS, venue_id))
    return Held(position, hashes, tips, signed, keys)


async def _write(conn: asyncpg.Connection, venue_id: UUID, keep: Keep) -> None:
    for key in keep.keys:
        await conn.execute(_ADD_KEY, venue_id, key)
    if keep.records:
        rows = [event_row(venue_id, r) for r in keep.records]
        await conn.copy_records_to_table("venue_events", records=rows, columns=EVENT_COLUMNS)
    if keep.checkpoints:
        await conn.executemany(
            _CHECKPOINT, [_checkpoint_row(venue_id, c) for c in keep.checkpoints]
        )


def event_row(venue_id: UUID, r: RawRecord) -> tuple:
    """A kept event's row, in EVENT_COLUMNS' order (what COPY is handed)."""
    return (
        venue_id,
        r.position,
        r.stream_id,
        r.version,
        r.type_name,
        r.payload,
        r.recorded_at,
        r.command_id,
        r.meta,
        r.prev_hash,
        r.hash,
        r.global_hash,
    )


def _checkpoint_row(venue_id: UUID, checkpoint: Checkpoint) -> tuple:
    return (
        venue_id,
        checkpoint.position,
        bytes.fromhex(checkpoint.head_hash),
        checkpoint.time,
        bytes.fromhex(checkpoint.public_key),
        bytes.fromhex(checkpoint.signature),
    )


async def _acknowledge(
    conn: asyncpg.Connection, key: Ed25519PrivateKey, venue_id: UUID, head: tuple[int, bytes]
) -> Ack | None:
    """The federation's signature on the held head (the one already given, when it is)."""
    position, head_hash = head
    if position == 0:
        return None
    row = await conn.fetchrow(_ACK_AT, venue_id, position)
    if row is not None:
        return ack_of(venue_id, row)
    ack = federation_ack.sign(key, venue_id, position, head_hash)
    await conn.execute(
        _ACK,
        venue_id,
        position,
        head_hash,
        ack.time,
        bytes.fromhex(ack.public_key),
        bytes.fromhex(ack.signature),
    )
    return ack


def ack_of(venue_id: UUID, row: asyncpg.Record) -> Ack:
    """An acknowledgement as kept in `venue_acks`."""
    return Ack(
        venue_id,
        row["position"],
        bytes(row["head_hash"]).hex(),
        row["signed_at"],
        bytes(row["public_key"]).hex(),
        bytes(row["signature"]).hex(),
    )


async def _alarm(conn: asyncpg.Connection, venue_id: UUID, refusal: Refusal) -> None:
    """The fork kept as an alarm, unless the newest alarm is this same fork again."""
    last = await conn.fetchrow(_LAST_ALARM, venue_id)
    offered = refusal.offered_hash
    if last is not None:
        again = (last["code"], last["position"]) == (refusal.code, refusal.position)
        if again and (bytes(last["offered_hash"]) if last["offered_hash"] else None) == offered:
            return
    await conn.execute(
        _ALARM,
        venue_id,
        refusal.code,
        refusal.position,
        refusal.held_hash,
        offered,
        refusal.detail,
    )


async def held_head(pool: asyncpg.Pool, venue_id: UUID) -> tuple[int, bytes]:
    """The newest kept position of a venue and its store-wide hash ((0, zeros) for none)."""
    row = await pool.fetchrow(
        "SELECT position, global_hash FROM venue_events WHERE venue_id = $1"
        " ORDER BY position DESC LIMIT 1",
        venue_id,
    )
    return (row[0], bytes(row[1])) if row else (0, GENESIS)
