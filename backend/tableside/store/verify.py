"""Recompute hash chains in Python, independently of the database, and find the first break.

Works on any iterable of RawRecords in global order: rows from PostgreSQL, the in-memory
recorder, or (later) a JSONL export.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from uuid import UUID

from tableside.store.chain import GENESIS, link_hash
from tableside.store.records import RawRecord


@dataclass(frozen=True)
class BrokenLink:
    """The first event whose stored link does not match what it should be."""

    stream_id: UUID
    version: int
    position: int
    field: str
    expected: str
    found: str

    def describe(self) -> str:
        """One line for people: which event, which field, expected vs found."""
        return (
            f"broken link: stream {self.stream_id} version {self.version} "
            f"(position {self.position}): {self.field} expected {self.expected}, "
            f"found {self.found}"
        )


@dataclass
class ChainReport:
    """What a verification saw, and the first broken link if any."""

    events: int = 0
    streams: int = 0
    broken: BrokenLink | None = None


def verify(records: Iterable[RawRecord], *, dense_positions: bool = True) -> ChainReport:
    """Check versions, prev_hash and hash of every record; stop at the first break.

    With `dense_positions` (the whole store), a missing global position is a break too:
    positions are assigned without gaps, so a hole means a deleted event.
    """
    tips: dict[UUID, tuple[int, bytes]] = {}
    report = ChainReport()
    last_position = 0
    for record in records:
        broken = _check(record, tips.get(record.stream_id, (0, GENESIS)))
        if broken is None and dense_positions and record.position != last_position + 1:
            broken = _broken(record, "position", str(last_position + 1), str(record.position))
        if broken is not None:
            report.broken = broken
            break
        tips[record.stream_id] = (record.version, record.hash)
        last_position = record.position
        report.events += 1
    report.streams = len(tips)
    return report


def _check(record: RawRecord, tip: tuple[int, bytes]) -> BrokenLink | None:
    last_version, last_hash = tip
    if record.version != last_version + 1:
        return _broken(record, "version", str(last_version + 1), str(record.version))
    if record.prev_hash != last_hash:
        return _broken(record, "prev_hash", last_hash.hex(), record.prev_hash.hex())
    expected = link_hash(last_hash, record)
    if record.hash != expected:
        return _broken(record, "hash", expected.hex(), record.hash.hex())
    return None


def _broken(record: RawRecord, field: str, expected: str, found: str) -> BrokenLink:
    return BrokenLink(record.stream_id, record.version, record.position, field, expected, found)
