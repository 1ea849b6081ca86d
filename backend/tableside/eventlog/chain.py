"""The hash chains, computed independently of the database's trigger.

Two chains, both SHA-256, integers big-endian, uuids as their 16 bytes:

- per stream (`link_hash`, schema/003 `tableside_link_hash`): an event's `hash` covers the
  stream's previous `hash` (32 zero bytes for version 1) and every stored field of the event:
  `prev_hash ‖ stream ‖ version int8 ‖ recorded_at µs since epoch int8 ‖ command_id
  ‖ len int4 ‖ topic ‖ len int4 ‖ payload ‖ len int4 ‖ meta`.
- store-wide (`global_link`, schema/006 `tableside_global_hash`): an event's `global_hash`
  covers the previous position's `global_hash` (32 zero bytes before position 1), its own
  position, stream and version, and its `hash`: `prev ‖ position int8 ‖ stream ‖ version int8
  ‖ hash`. Any reorder, insertion or removal in the global order breaks it, and checking
  it needs only (position, stream, version, hash) of events outside the one being audited.

Both must match the SQL byte for byte.
"""

from __future__ import annotations

import hashlib
import struct
from collections.abc import Iterable
from datetime import UTC, datetime, timedelta
from typing import TYPE_CHECKING
from uuid import UUID

if TYPE_CHECKING:
    from tableside.eventlog.records import RawRecord

GENESIS = bytes(32)
_EPOCH = datetime(1970, 1, 1, tzinfo=UTC)
_MICROSECOND = timedelta(microseconds=1)


def link_hash(prev_hash: bytes, record: RawRecord) -> bytes:
    """SHA-256 of one event's link, chained to `prev_hash`."""
    micros = (record.recorded_at - _EPOCH) // _MICROSECOND
    digest = hashlib.sha256()
    digest.update(prev_hash)
    digest.update(record.stream_id.bytes)
    digest.update(struct.pack(">qq", record.version, micros))
    digest.update(record.command_id.bytes)
    for part in (record.type_name.encode(), record.payload, record.meta.encode()):
        digest.update(struct.pack(">i", len(part)))
        digest.update(part)
    return digest.digest()


def global_link(
    prev_global: bytes, position: int, stream_id: UUID, version: int, hash_: bytes
) -> bytes:
    """SHA-256 of one event's store-wide link, chained to the previous position's."""
    head = struct.pack(">q", position) + stream_id.bytes + struct.pack(">q", version)
    return hashlib.sha256(prev_global + head + hash_).digest()


def linked(drafts: Iterable[RawRecord]) -> list[RawRecord]:
    """The records (in global order) with `prev_hash`, `hash` and `global_hash` made as the
    store's trigger makes them (schema/003, 006): a store built away from PostgreSQL (the
    federation's tests and bench)."""
    import msgspec

    tips: dict[UUID, bytes] = {}
    head, made = GENESIS, []
    for draft in drafts:
        prev = tips.get(draft.stream_id, GENESIS)
        record = msgspec.structs.replace(draft, prev_hash=prev)
        hash_ = link_hash(prev, record)
        head = global_link(head, record.position, record.stream_id, record.version, hash_)
        made.append(msgspec.structs.replace(record, hash=hash_, global_hash=head))
        tips[draft.stream_id] = hash_
    return made
