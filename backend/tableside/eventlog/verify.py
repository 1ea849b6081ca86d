"""Recompute hash chains in Python, independently of the database, and find the first break.

Works on any iterable of RawRecords in global order: rows from PostgreSQL, the in-memory
recorder, or a JSONL export (`eventlog/jsonl.py`).
"""

from __future__ import annotations

from collections.abc import Collection, Iterable
from dataclasses import dataclass, field
from uuid import UUID

from tableside.eventlog.chain import GENESIS, global_link, link_hash
from tableside.eventlog.records import RawRecord


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
    """What a verification saw, and the first broken link if any.

    `last_position` and `head` are the last verified position and its global hash;
    `heads` holds the global hash at each position asked for in `watch` (checkpoints).
    """

    events: int = 0
    streams: int = 0
    broken: BrokenLink | None = None
    last_position: int = 0
    head: bytes = GENESIS
    heads: dict[int, bytes] = field(default_factory=dict)


def verify(
    records: Iterable[RawRecord],
    *,
    dense_positions: bool = True,
    watch: Collection[int] = (),
) -> ChainReport:
    """Check versions, prev_hash, hash and (whole store) global_hash; stop at the first break.

    With `dense_positions` (the whole store), a missing global position is a break too:
    positions are assigned without gaps, so a hole means a deleted event; and every
    global_hash must chain to the one before (schema/006), so a reorder, insertion or
    removal is a break even where each stream's own chain still holds.
    """
    tips: dict[UUID, tuple[int, bytes]] = {}
    report = ChainReport()
    for record in records:
        broken = _check(record, tips.get(record.stream_id, (0, GENESIS)))
        if broken is None and dense_positions:
            broken = _check_global(record, report.last_position, report.head)
        if broken is not None:
            report.broken = broken
            break
        tips[record.stream_id] = (record.version, record.hash)
        report.last_position = record.position
        report.head = record.global_hash
        if record.position in watch:
            report.heads[record.position] = record.global_hash
        report.events += 1
    report.streams = len(tips)
    return report


def verify_segment(
    records: Iterable[RawRecord], anchor_position: int, anchor_head: bytes
) -> BrokenLink | None:
    """A stretch of the store after a verified head (#41: what the signer checks before it
    signs the next one): positions dense from `anchor_position`, each event's `hash` over
    its own fields and `prev_hash`, each `global_hash` chained to the one before. Without
    the streams' earlier events, `prev_hash` is taken as stored (it is inside `hash`, which
    the store-wide chain covers)."""
    position, head = anchor_position, anchor_head
    for record in records:
        broken = _check_global(record, position, head)
        expected = link_hash(record.prev_hash, record)
        if broken is None and record.hash != expected:
            broken = _broken(record, "hash", expected.hex(), record.hash.hex())
        if broken is not None:
            return broken
        position, head = record.position, record.global_hash
    return None


def _check_global(record: RawRecord, last_position: int, head: bytes) -> BrokenLink | None:
    if record.position != last_position + 1:
        return _broken(record, "position", str(last_position + 1), str(record.position))
    expected = global_link(head, record.position, record.stream_id, record.version, record.hash)
    if record.global_hash != expected:
        return _broken(record, "global_hash", expected.hex(), record.global_hash.hex())
    return None


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
