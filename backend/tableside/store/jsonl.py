"""A match record as JSON Lines that an auditor can verify offline, away from the database.

Line 1 is a header (format, stream, event count, head hash); every further line is one
stored event. `payload` and `meta` are embedded as the exact JSON bytes that were stored and
hashed (msgspec.Raw keeps them byte for byte), so `verify` can recompute every link without
the server; hashes are hex. Editing any byte of an event, dropping or reordering a line, or
changing the header's count or head hash is found.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from datetime import datetime
from uuid import UUID

import msgspec

from tableside.store.records import RawRecord

FORMAT = "tableside-events/1"


class Header(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """What the file claims: which stream, how many events, and the last event's hash."""

    format: str
    stream_id: UUID | None
    events: int
    head_hash: str


class Line(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """One stored event as exported; payload and meta are the stored JSON, untouched."""

    stream_id: UUID
    version: int
    position: int
    type: str
    recorded_at: datetime
    command_id: UUID
    prev_hash: str
    hash: str
    payload: msgspec.Raw
    meta: msgspec.Raw


class ExportError(ValueError):
    """The file is not a well-formed export; the message names the line."""


def export_lines(records: Iterable[RawRecord], stream_id: UUID | None = None) -> list[bytes]:
    """The header line and one line per record, each ending in a newline."""
    records = list(records)
    head = records[-1].hash.hex() if records else ""
    header = Header(FORMAT, stream_id, len(records), head)
    return [msgspec.json.encode(header) + b"\n", *(_line(r) for r in records)]


def _line(record: RawRecord) -> bytes:
    line = Line(
        stream_id=record.stream_id,
        version=record.version,
        position=record.position,
        type=record.type_name,
        recorded_at=record.recorded_at,
        command_id=record.command_id,
        prev_hash=record.prev_hash.hex(),
        hash=record.hash.hex(),
        payload=msgspec.Raw(record.payload),
        meta=msgspec.Raw(record.meta.encode()),
    )
    return msgspec.json.encode(line) + b"\n"


def read_export(lines: Iterable[bytes]) -> tuple[Header, Iterator[RawRecord]]:
    """Parse the header, then yield records lazily; malformed input raises ExportError."""
    numbered = enumerate(lines, start=1)
    try:
        _, first = next(numbered)
    except StopIteration:
        raise ExportError("empty file: expected a header line") from None
    header = _decode(first, Header, 1)
    if header.format != FORMAT:
        raise ExportError(f"line 1: format {header.format!r} is not {FORMAT!r}")
    return header, (_record(_decode(raw, Line, n), n) for n, raw in numbered if raw.strip())


def _decode(raw: bytes, kind: type, number: int):
    try:
        return msgspec.json.decode(raw, type=kind)
    except msgspec.DecodeError as exc:
        raise ExportError(f"line {number}: {exc}") from None


def _record(line: Line, number: int) -> RawRecord:
    try:
        prev_hash, hash_ = bytes.fromhex(line.prev_hash), bytes.fromhex(line.hash)
        meta = bytes(line.meta).decode()
    except (ValueError, UnicodeDecodeError) as exc:
        raise ExportError(f"line {number}: {exc}") from None
    return RawRecord(
        stream_id=line.stream_id,
        version=line.version,
        position=line.position,
        type_name=line.type,
        payload=bytes(line.payload),
        recorded_at=line.recorded_at,
        command_id=line.command_id,
        meta=meta,
        prev_hash=prev_hash,
        hash=hash_,
    )


def verify_export(lines: Iterable[bytes]) -> tuple[int, str | None]:
    """Verify an export offline: (events checked, None) if intact, else the first problem."""
    from tableside.store.verify import verify

    header, records = read_export(lines)
    seen: list[RawRecord] = []
    report = verify(_tap(records, header, seen), dense_positions=header.stream_id is None)
    if report.broken is not None:
        return report.events, report.broken.describe()
    return report.events, _header_problem(header, report.events, seen)


def _tap(records: Iterator[RawRecord], header: Header, seen: list[RawRecord]):
    """Pass records through, keeping the last one and refusing other streams' events."""
    for record in records:
        if header.stream_id is not None and record.stream_id != header.stream_id:
            raise ExportError(
                f"event of stream {record.stream_id} in an export of {header.stream_id}"
            )
        seen[:] = [record]
        yield record


def _header_problem(header: Header, events: int, seen: list[RawRecord]) -> str | None:
    if events != header.events:
        return f"header says {header.events} events, the file holds {events}"
    head = seen[0].hash.hex() if seen else ""
    if head != header.head_hash:
        return f"header head hash {header.head_hash} does not match the last event's {head}"
    return None
