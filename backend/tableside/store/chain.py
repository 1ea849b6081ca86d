"""The per-stream hash chain, computed independently of the database's trigger.

Must match `tableside_link_hash` in schema/003_event_chain.sql byte for byte.
"""

from __future__ import annotations

import hashlib
import struct
from datetime import UTC, datetime, timedelta
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from tableside.store.records import RawRecord

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
