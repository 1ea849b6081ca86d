"""What the store hands back: stored events, append results, conflicts."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any
from uuid import UUID

import msgspec

# stored_events columns under the names RawRecord uses (one SELECT list for every reader).
RAW_COLUMNS = (
    "originator_id AS stream_id, originator_version AS version,"
    " notification_id AS position, topic AS type_name, state AS payload, recorded_at,"
    " command_id, meta, prev_hash, hash, global_hash"
)


class RawRecord(msgspec.Struct, frozen=True):
    """One row of stored_events exactly as stored: undecoded, enough to verify its link."""

    stream_id: UUID
    version: int
    position: int
    type_name: str
    payload: bytes
    recorded_at: datetime
    command_id: UUID
    meta: str
    prev_hash: bytes
    hash: bytes
    # The store-wide chain (schema/006); empty where a source does not carry it.
    global_hash: bytes = b""


def raw_record(row: Sequence[Any]) -> RawRecord:
    """A stored_events row as a driver read it (bytea may come as a memoryview)."""
    values: list[Any] = [bytes(v) if isinstance(v, memoryview) else v for v in row]
    return RawRecord(*values)


class StoredEvent(msgspec.Struct, frozen=True):
    """A decoded event with everything the store recorded around it."""

    stream_id: UUID
    version: int
    position: int
    type: str
    event: msgspec.Struct
    recorded_at: datetime
    command_id: UUID
    meta: Mapping[str, str]
    prev_hash: bytes
    hash: bytes


class AppendResult(msgspec.Struct, frozen=True):
    """Outcome of an append; `replayed` means the command_id was already stored."""

    stream_id: UUID
    first_version: int
    last_version: int
    positions: tuple[int, ...]
    replayed: bool = False
    # (stable name, JSON bytes) of each event a fresh append stored — exactly the stored
    # bytes, so an answer can be built without reading them back; empty for a replay.
    payloads: tuple[tuple[str, bytes], ...] = ()


class VersionConflict(Exception):
    """The stream moved on: `current_version` is what a retry should expect."""

    def __init__(self, stream_id: UUID, expected_version: int, current_version: int) -> None:
        super().__init__(
            f"stream {stream_id} is at version {current_version}, not {expected_version}"
        )
        self.stream_id = stream_id
        self.expected_version = expected_version
        self.current_version = current_version


class CommandReused(Exception):
    """The command_id is stored already, for a different command (another digest)."""

    def __init__(self, command_id: UUID) -> None:
        super().__init__(f"command_id {command_id} was already used for a different command")
        self.command_id = command_id


class StoreNotReady(RuntimeError):
    """The database lacks the schema/ migrations the store needs."""


@dataclass(frozen=True, slots=True)
class Envelope:
    """A domain event addressed to a stream version; the library's DomainEventProtocol."""

    originator_id: UUID
    originator_version: int
    event: msgspec.Struct


def result_from(records: list[RawRecord], *, replayed: bool) -> AppendResult:
    """Rebuild the AppendResult of one command from its stored rows."""
    records = sorted(records, key=lambda r: r.version)
    return AppendResult(
        stream_id=records[0].stream_id,
        first_version=records[0].version,
        last_version=records[-1].version,
        positions=tuple(r.position for r in records),
        replayed=replayed,
    )
