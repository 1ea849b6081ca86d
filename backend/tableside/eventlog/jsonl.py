"""A match record as JSON Lines that an auditor can verify offline, away from the database.

Line 1 is a header (format, stream, event count, head hash, and the seal: the latest signed
checkpoint covering the record, the global hash just before the record's first event, and
how many link lines follow). Then one line per stored event (`"kind":"event"`), then one
`"kind":"link"` line per event of *other* streams between the record's first event and the
checkpoint: position, stream, version and hash only, no content. `payload` and `meta` are
embedded as the exact JSON bytes that were stored and hashed (msgspec.Raw keeps them byte for
byte); hashes are hex.

Offline, `verify_export` recomputes every per-stream link, then the store-wide chain from the
anchor through every position up to the checkpoint, which must end at the checkpoint's
signed head hash; given the public key (`--public-key`), the signature too. So editing any
byte, dropping, reordering or inserting a line, dropping the record's last events (a link
line would have to claim this stream), or editing the checkpoint is found.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from datetime import datetime
from typing import Any
from uuid import UUID

import msgspec

from tableside.eventlog import checkpoints
from tableside.eventlog.chain import global_link
from tableside.eventlog.checkpoints import Checkpoint
from tableside.eventlog.records import RawRecord

FORMAT = "tableside-events/2"


class Header(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """What the file claims: which stream, how many events, the last event's hash, the seal."""

    format: str
    stream_id: UUID | None
    events: int
    head_hash: str
    checkpoint: Checkpoint | None = None
    anchor: str = ""
    links: int = 0
    # A whole-store export (`audit export --all`, stream_id null): every stored checkpoint.
    checkpoints: tuple[Checkpoint, ...] = ()


class Link(msgspec.Struct, frozen=True, forbid_unknown_fields=True, tag_field="kind", tag="link"):
    """Another stream's event between the record and the checkpoint: enough to chain it."""

    position: int
    stream_id: UUID
    version: int
    hash: str


@dataclass(frozen=True)
class Seal:
    """What ties a record to a signed checkpoint: the checkpoint, the global hash before
    the record's first event, and the other streams' events up to the checkpoint."""

    checkpoint: Checkpoint
    anchor: bytes
    links: list[Link]


class Line(msgspec.Struct, frozen=True, forbid_unknown_fields=True, tag_field="kind", tag="event"):
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
    global_hash: str = ""


class ExportError(ValueError):
    """The file is not a well-formed export; the message names the line."""


def export_lines(
    records: Iterable[RawRecord], stream_id: UUID | None = None, seal: Seal | None = None
) -> list[bytes]:
    """The header line, one line per record and one per link, each ending in a newline."""
    records = list(records)
    head = records[-1].hash.hex() if records else ""
    header = Header(FORMAT, stream_id, len(records), head)
    links: list[Link] = []
    if seal is not None:
        links = seal.links
        header = msgspec.structs.replace(
            header, checkpoint=seal.checkpoint, anchor=seal.anchor.hex(), links=len(links)
        )
    return [
        msgspec.json.encode(header) + b"\n",
        *(_line(r) for r in records),
        *(msgspec.json.encode(link) + b"\n" for link in links),
    ]


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
        global_hash=record.global_hash.hex(),
    )
    return msgspec.json.encode(line) + b"\n"


def read_export(lines: Iterable[bytes], links: list[Link] | None = None):
    """Parse the header, then yield event records lazily (link lines go into `links`);
    malformed input raises ExportError."""
    numbered = enumerate(lines, start=1)
    try:
        _, first = next(numbered)
    except StopIteration:
        raise ExportError("empty file: expected a header line") from None
    header = _decode(first, Header, 1)
    if header.format != FORMAT:
        raise ExportError(f"line 1: format {header.format!r} is not {FORMAT!r}")
    return header, _records(numbered, links if links is not None else [])


def _records(numbered: Iterator[tuple[int, bytes]], links: list[Link]) -> Iterator[RawRecord]:
    for number, raw in numbered:
        if not raw.strip():
            continue
        item = _decode(raw, Line | Link, number)
        if isinstance(item, Link):
            links.append(item)
        elif links:
            raise ExportError(f"line {number}: an event after the link lines")
        else:
            yield _record(item, number)


def _decode(raw: bytes, kind: Any, number: int):
    try:
        return msgspec.json.decode(raw, type=kind)
    except msgspec.DecodeError as exc:
        raise ExportError(f"line {number}: {exc}") from None


def _record(line: Line, number: int) -> RawRecord:
    try:
        prev_hash, hash_ = bytes.fromhex(line.prev_hash), bytes.fromhex(line.hash)
        global_hash = bytes.fromhex(line.global_hash)
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
        global_hash=global_hash,
    )


@dataclass
class ExportReport:
    """What an offline verification found: events checked, the first problem, the seal."""

    events: int = 0
    problem: str | None = None
    checkpoint: Checkpoint | None = None
    signature_checked: bool = False


def verify_export(
    lines: Iterable[bytes], public_key: bytes | None = None
) -> tuple[int, str | None]:
    """Verify an export offline: (events checked, None) if intact, else the first problem."""
    report = verify_sealed(lines, public_key)
    return report.events, report.problem


def verify_sealed(lines: Iterable[bytes], public_key: bytes | None = None) -> ExportReport:
    """Verify an export offline: every link, then the seal up to its signed checkpoint.

    With `public_key` (the signer's, obtained out of band) a missing, foreign or badly
    signed checkpoint is a problem; without it the signature is checked against the key the
    file names, which proves only that the file is self-consistent.
    """
    from tableside.eventlog.verify import verify

    links: list[Link] = []
    header, records = read_export(lines, links)
    seen: list[RawRecord] = []
    report = verify(_tap(records, header, seen), dense_positions=header.stream_id is None)
    result = ExportReport(report.events, checkpoint=header.checkpoint)
    if report.broken is not None:
        result.problem = report.broken.describe()
        return result
    result.problem = (
        _header_problem(header, report.events, seen[-1:])
        or _seal_problem(header, seen, links, public_key)
        or _checkpoints_problem(header, seen, public_key)
    )
    result.signature_checked = public_key is not None and result.problem is None
    return result


def _tap(records: Iterator[RawRecord], header: Header, seen: list[RawRecord]):
    """Pass records through, keeping them and refusing other streams' events."""
    for record in records:
        if header.stream_id is not None and record.stream_id != header.stream_id:
            raise ExportError(
                f"event of stream {record.stream_id} in an export of {header.stream_id}"
            )
        seen.append(record)
        yield record


def _header_problem(header: Header, events: int, seen: list[RawRecord]) -> str | None:
    if events != header.events:
        return f"header says {header.events} events, the file holds {events}"
    head = seen[0].hash.hex() if seen else ""
    if head != header.head_hash:
        return f"header head hash {header.head_hash} does not match the last event's {head}"
    return None


def _seal_problem(
    header: Header, records: list[RawRecord], links: list[Link], public_key: bytes | None
) -> str | None:
    checkpoint = header.checkpoint
    if checkpoint is None:
        return "no checkpoint in the file" if public_key is not None or links else None
    if len(links) != header.links:
        return f"header says {header.links} link lines, the file holds {len(links)}"
    problem = _chain_problem(header, checkpoint, records, links)
    return problem or checkpoints.problem(checkpoint, public_key)


def _checkpoints_problem(
    header: Header, records: list[RawRecord], public_key: bytes | None
) -> str | None:
    """Every checkpoint a whole-store file carries names the global hash at its position."""
    if not header.checkpoints or header.checkpoint is None:
        return None
    heads = {r.position: r.global_hash.hex() for r in records}
    # Without a trusted key, every checkpoint must at least be the seal's signer's.
    public_key = public_key or bytes.fromhex(header.checkpoint.public_key)
    for checkpoint in header.checkpoints:
        if heads.get(checkpoint.position) != checkpoint.head_hash:
            return (
                f"the checkpoint signed at {checkpoint.time.isoformat()} names"
                f" {checkpoint.head_hash} at position {checkpoint.position}, the file has"
                f" {heads.get(checkpoint.position, 'no event there')}"
            )
        if problem := checkpoints.problem(checkpoint, public_key):
            return problem
    return None


def _chain_problem(
    header: Header, checkpoint: Checkpoint, records: list[RawRecord], links: list[Link]
) -> str | None:
    """Walk the store-wide chain from the anchor to the checkpoint over events and links."""
    if not records:
        return "an empty record cannot be sealed"
    if records[-1].position > checkpoint.position:
        return f"events after position {checkpoint.position} are not covered by the checkpoint"
    try:
        head = bytes.fromhex(header.anchor)
        steps = _steps(records, links)
        for link in links:
            bytes.fromhex(link.hash)
    except ValueError as exc:
        return f"bad seal: {exc}"
    position = records[0].position - 1
    for step in steps:
        position += 1
        if step.position != position:
            return f"the store-wide chain has no position {position} (found {step.position})"
        if isinstance(step, Link) and header.stream_id == step.stream_id:
            return f"stream {step.stream_id} version {step.version} is missing from the file"
        head = global_link(head, step.position, step.stream_id, step.version, _hash(step))
        if isinstance(step, RawRecord) and step.global_hash not in (b"", head):
            return (
                f"broken link: stream {step.stream_id} version {step.version} (position "
                f"{step.position}): global_hash expected {head.hex()},"
                f" found {step.global_hash.hex()}"
            )
    if position != checkpoint.position:
        return (
            f"the store-wide chain ends at {position}, the checkpoint is at {checkpoint.position}"
        )
    if head.hex() != checkpoint.head_hash:
        return (
            f"the store-wide chain reaches {head.hex()} at position {position}, the checkpoint"
            f" says {checkpoint.head_hash}"
        )
    return None


def _steps(records: list[RawRecord], links: list[Link]) -> list[RawRecord | Link]:
    return sorted([*records, *links], key=lambda step: step.position)


def _hash(step: RawRecord | Link) -> bytes:
    return step.hash if isinstance(step, RawRecord) else bytes.fromhex(step.hash)
