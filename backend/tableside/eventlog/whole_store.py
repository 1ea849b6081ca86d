"""The whole store as one sealed file, and a store built again from it (issue 33).

`export_store` writes every event in global order (both chains on every line: `prev_hash`,
`hash` and `global_hash`) in the JSON Lines format of a match's record (`jsonl`), with
`stream_id` null, the latest signed checkpoint as the seal and every stored checkpoint in
the header (`checkpoints`). The file ends at the sealing checkpoint's position: with the
signing key here the head is signed first, so that is every event.

`restore_store` checks the file offline first (`jsonl.verify_sealed`: every per-stream link,
the store-wide chain from position 1 to the seal, every checkpoint's head and signature),
then, in one transaction on an empty store, inserts the rows exactly as they were stored
(the linking trigger is off for it, so `recorded_at` and the hashes are the file's), reads
them back, verifies them again as stored and adds the checkpoints (their trigger checks each
names the stored head). Anything wrong rolls the whole transaction back.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import msgspec
import psycopg
from psycopg.rows import class_row

from tableside.db.rows import one
from tableside.eventlog import checkpoint_db
from tableside.eventlog.chain import GENESIS
from tableside.eventlog.checkpoints import Checkpoint
from tableside.eventlog.jsonl import ExportError, Header, Seal, export_lines, read_export
from tableside.eventlog.records import RAW_COLUMNS, RawRecord
from tableside.eventlog.verify import verify

_UP_TO = f"SELECT {RAW_COLUMNS} FROM stored_events WHERE notification_id <= %s ORDER BY 3"
_REGISTER = "INSERT INTO checkpoint_keys (public_key) VALUES (%s) ON CONFLICT DO NOTHING"
_INSERT = (
    "INSERT INTO stored_events (originator_id, originator_version, topic, state,"
    " notification_id, recorded_at, command_id, meta, prev_hash, hash, global_hash)"
    " VALUES (%s, %s, %s, %s, %s, %s, %s, %s, %s, %s, %s)"
)


class RestoreRefused(RuntimeError):
    """The file or the target store is not fit to restore; the message says why."""


@dataclass(frozen=True)
class Restored:
    """What a restore built: events, streams, the store-wide head and the checkpoints."""

    events: int
    streams: int
    head_position: int
    head_hash: str
    checkpoints: int


def export_store(url: str, key: Any) -> list[bytes]:
    """Every event up to the newest checkpoint (signed now when `key` is given and the head
    moved), sealed by it, every checkpoint in the header. ExportError when nothing seals."""
    with psycopg.connect(url, autocommit=True) as conn:
        checkpoint_db.take(conn, key)
    with psycopg.connect(url) as conn, conn.transaction():
        conn.execute("SET TRANSACTION ISOLATION LEVEL REPEATABLE READ READ ONLY")
        marks = checkpoint_db.all_checkpoints(conn)
        if not marks:
            raise ExportError(_unsealed_why(conn, key))
        seal = max(marks, key=lambda cp: cp.position)
        with conn.cursor(row_factory=class_row(RawRecord)) as cur:
            records = cur.execute(_UP_TO, (seal.position,)).fetchall()
    lines = export_lines(records, None, Seal(seal, GENESIS, []))
    header = msgspec.json.decode(lines[0], type=Header)
    header = msgspec.structs.replace(header, checkpoints=marks)
    return [msgspec.json.encode(header) + b"\n", *lines[1:]]


def _unsealed_why(conn: psycopg.Connection, key: Any) -> str:
    """Why nothing seals the store: it is empty (a key signs nothing then), or no key is here."""
    empty = not one(conn.execute("SELECT EXISTS (SELECT 1 FROM stored_events)"))[0]
    if empty:
        return "the store holds no events yet: there is nothing to export"
    if key is not None:  # take() signs a store that holds events: only a refusal ends here
        return "no checkpoint could be signed to seal the store"
    return (
        "no signed checkpoint to seal the store with, and no key here to sign one"
        " (run this where the server's key is, or `tableside audit checkpoint` there)"
    )


_COUNT_AFTER = "SELECT count(*) FROM stored_events WHERE notification_id > %s"


def unsealed_after(url: str, position: int) -> int:
    """How many events the store holds past `position` (appended after the seal)."""
    with psycopg.connect(url) as conn:
        row = one(conn.execute(_COUNT_AFTER, (position,)))
    return int(row[0])


def read_whole(raw: bytes, trusted_key: bytes | None) -> tuple[Header, list[RawRecord]]:
    """The file's header and events once it verifies as a whole-store export; else refuse."""
    from tableside.eventlog.jsonl import verify_sealed

    lines = raw.splitlines(keepends=True)
    try:
        report = verify_sealed(lines, trusted_key)
        header, records = read_export(lines)
        records = list(records)
    except ExportError as exc:
        raise RestoreRefused(str(exc)) from None
    if report.problem is not None:
        raise RestoreRefused(report.problem)
    if header.stream_id is not None or header.checkpoint is None:
        raise RestoreRefused("not a whole-store export (`tableside audit export --all`)")
    if records and records[0].position != 1:
        raise RestoreRefused(f"the file starts at position {records[0].position}, not 1")
    return header, records


def restore_store(owner_url: str, header: Header, records: list[RawRecord]) -> Restored:
    """Insert the verified file into an empty store as its owner, verify it as stored, add
    the checkpoints; one transaction."""
    with psycopg.connect(owner_url) as conn, conn.transaction():
        if conn.execute("SELECT 1 FROM stored_events LIMIT 1").fetchone():
            raise RestoreRefused("the target store already holds events; restore into an empty one")
        conn.execute("ALTER TABLE stored_events DISABLE TRIGGER stored_events_link")
        with conn.cursor() as cur:
            cur.executemany(_INSERT, [_row(r) for r in records])
        conn.execute("ALTER TABLE stored_events ENABLE TRIGGER stored_events_link")
        with conn.cursor(row_factory=class_row(RawRecord)) as cur:
            stored = cur.execute(_UP_TO, (records[-1].position,)).fetchall()
        marks = _sealing_checkpoints(header)
        report = verify(stored, watch={cp.position for cp in marks})
        _agrees(report, header, records, marks)
        for key in sorted({cp.public_key for cp in marks}):  # the owner vouches (schema/011)
            conn.execute(_REGISTER, (bytes.fromhex(key),))
        for checkpoint in marks:
            checkpoint_db.insert(conn, checkpoint)
    return Restored(
        report.events, report.streams, report.last_position, report.head.hex(), len(marks)
    )


def _sealing_checkpoints(header: Header) -> list[Checkpoint]:
    marks = list(header.checkpoints) or ([header.checkpoint] if header.checkpoint else [])
    return sorted(marks, key=lambda cp: (cp.position, cp.time))


def _agrees(report: Any, header: Header, records: list[RawRecord], marks: list) -> None:
    """The stored rows verify and end where the file does, at every checkpoint's head."""
    if report.broken is not None:
        raise RestoreRefused(f"as stored: {report.broken.describe()}")
    if report.events != len(records) or report.head != records[-1].global_hash:
        raise RestoreRefused(
            f"as stored: {report.events} events ending at {report.head.hex()},"
            f" the file has {len(records)} ending at {records[-1].global_hash.hex()}"
        )
    for checkpoint in marks:
        if report.heads.get(checkpoint.position, b"").hex() != checkpoint.head_hash:
            raise RestoreRefused(f"as stored: checkpoint at {checkpoint.position} is not reached")


def _row(record: RawRecord) -> tuple[Any, ...]:
    return (
        record.stream_id,
        record.version,
        record.type_name,
        record.payload,
        record.position,
        record.recorded_at,
        record.command_id,
        record.meta,
        record.prev_hash,
        record.hash,
        record.global_hash,
    )
