"""The library's in-memory (POPO) recorder, extended like the PostgreSQL one.

For fast tests of code above the store. The chain is computed in Python with the same
function `audit verify` uses, so both backends produce verifiable records.
"""

from __future__ import annotations

from collections import defaultdict
from datetime import UTC, datetime
from typing import Any
from uuid import UUID

import msgspec
from eventsourcing.persistence import IntegrityError, ProgrammingError, StoredEvent
from eventsourcing.popo import POPOApplicationRecorder

from tableside.eventlog.chain import GENESIS, global_link, link_hash
from tableside.eventlog.records import CommandReused, RawRecord


class MemoryEventRecorder(POPOApplicationRecorder):
    """Keeps RawRecords beside the library's own lists, under the library's lock."""

    def __init__(self) -> None:
        super().__init__()
        self._records: list[RawRecord] = []
        self._by_stream: dict[UUID, list[RawRecord]] = defaultdict(list)
        self._by_command: dict[UUID, list[RawRecord]] = defaultdict(list)
        self._global_tip = GENESIS
        self._digests: dict[UUID, bytes | None] = {}

    def _insert_events(self, stored_events: Any, **kwargs: Any) -> Any:
        with self._database_lock:
            # As tableside_append does: a stored command_id means "already done", store nothing.
            command_id = kwargs.get("command_id")
            if command_id in self._digests:
                stored, asked = self._digests[command_id], kwargs.get("command_digest")
                if stored is not None and asked is not None and stored != asked:
                    raise CommandReused(command_id)
                return []
            return super()._insert_events(stored_events, **kwargs)

    def _assert_uniqueness(self, stored_events: Any, **kwargs: Any) -> None:
        super()._assert_uniqueness(stored_events, **kwargs)
        tips: dict[Any, int] = {}
        for event in stored_events:
            # Same rule as the trigger: a version follows its predecessor or is the first.
            tip = tips.get(event.originator_id, len(self._by_stream[event.originator_id]))
            if event.originator_version != tip + 1:
                raise IntegrityError(f"stream {event.originator_id} has no version {tip}")
            tips[event.originator_id] = tip + 1

    def _update_table(
        self,
        stored_events: Any,
        *,
        command_id: UUID | None = None,
        meta: str = "{}",
        command_digest: bytes | None = None,
        **kwargs: Any,
    ) -> Any:
        if command_id is None:
            raise ProgrammingError("every append needs a command_id")
        ids = super()._update_table(stored_events, **kwargs) or ()
        self._digests[command_id] = command_digest
        recorded_at = datetime.now(UTC)
        for event, position in zip(stored_events, ids, strict=True):
            record = _record(event, position, recorded_at, command_id, meta, self._tip(event))
            self._global_tip = global_link(
                self._global_tip, position, record.stream_id, record.version, record.hash
            )
            self._add(msgspec.structs.replace(record, global_hash=self._global_tip))
        return ids

    def _tip(self, event: StoredEvent) -> bytes:
        stream = self._by_stream[event.originator_id]  # type: ignore[index]
        return stream[-1].hash if stream else GENESIS

    def _add(self, record: RawRecord) -> None:
        self._records.append(record)
        self._by_stream[record.stream_id].append(record)
        self._by_command[record.command_id].append(record)

    def stream_records(self, stream_id: UUID, after_version: int = 0) -> list[RawRecord]:
        """Rows of one stream after a version, in version order."""
        with self._database_lock:
            return list(self._by_stream.get(stream_id, [])[after_version:])

    def records_after(self, position: int, limit: int) -> list[RawRecord]:
        """Rows after a global position, in global order."""
        with self._database_lock:
            return self._records[position : position + limit]

    def command_records(self, command_id: UUID) -> list[RawRecord]:
        """Rows a command stored, if it was stored."""
        with self._database_lock:
            return list(self._by_command.get(command_id, []))

    def stream_version(self, stream_id: UUID) -> int:
        """The stream's last version, 0 if it has none."""
        with self._database_lock:
            return len(self._by_stream.get(stream_id, []))


def _record(
    event: StoredEvent,
    position: int,
    recorded_at: datetime,
    command_id: UUID,
    meta: str,
    prev_hash: bytes,
) -> RawRecord:
    unsigned = RawRecord(
        stream_id=event.originator_id,  # type: ignore[arg-type]
        version=event.originator_version,
        position=position,
        type_name=event.topic,
        payload=event.state,
        recorded_at=recorded_at,
        command_id=command_id,
        meta=meta,
        prev_hash=prev_hash,
        hash=b"",
    )
    return msgspec.structs.replace(unsigned, hash=link_hash(prev_hash, unsigned))
