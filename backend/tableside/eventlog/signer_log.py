"""The signer's log as a chain of lines (#41): each line names the SHA-256 of the line before.

A line is one JSON object (a checkpoint's fields, `eventlog/checkpoints.py`) with `prev`: the
hex SHA-256 of the previous line's bytes, newline included (64 zeros on the first line). A
line removed from the middle, or rewritten, breaks the next line's `prev`; a log cut short or
emptied is found by what it lacks (the store's checkpoints it no longer holds), which the
callers count. Lines written before #41 carry no `prev`: they are read as an unchained
prefix, and once a line is chained every later one must be.

Appends take an exclusive `flock` on the file: the previous line is read and the new one
written under it, so workers sharing the log never fork its chain.
"""

from __future__ import annotations

import fcntl
import hashlib
import os
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import msgspec

FIRST = "0" * 64
ACCEPTED = "accepted"  # a line that is no checkpoint: a dispute accepted on the record
ROTATION = "rotation"  # nor is this: the key replaced (`eventlog/rotation.py`)


def line_hash(line: bytes) -> str:
    """What the next line's `prev` names: SHA-256 of the line as written (with its newline)."""
    return hashlib.sha256(line).hexdigest()


@dataclass
class LogReading:
    """A log as read: its lines' fields (without `prev`), the first break, if any, and when
    a dispute was last accepted on it (`accepted`, an ISO time: `serve --accept-disputed`)."""

    entries: list[dict[str, Any]] = field(default_factory=list)
    problem: str | None = None
    exists: bool = True
    accepted: str | None = None
    accepted_reason: str | None = None


def append(path: Path, fields: dict[str, Any]) -> None:
    """Append one chained line (fsync'd; the folder too when the log is new)."""
    new = not path.exists()
    if new:
        path.parent.mkdir(mode=0o700, parents=True, exist_ok=True)
    fd = os.open(path, os.O_RDWR | os.O_APPEND | os.O_CREAT, 0o600)
    try:
        fcntl.flock(fd, fcntl.LOCK_EX)
        last = _last_line(fd)
        prev = line_hash(last) if last else FIRST
        os.write(fd, msgspec.json.encode({**fields, "prev": prev}) + b"\n")
        os.fsync(fd)
    finally:
        os.close(fd)  # releases the lock
    if new:
        folder = os.open(path.parent, os.O_RDONLY)
        try:
            os.fsync(folder)
        finally:
            os.close(folder)


def _last_line(fd: int) -> bytes:
    size = os.fstat(fd).st_size
    raw = os.pread(fd, size, 0) if size else b""
    lines = raw.splitlines(keepends=True)
    return lines[-1] if lines else b""


def read(path: Path) -> LogReading:
    """Every line's fields, checking each line's `prev`; `exists` False when there is no file.
    `problem` names the first break after the last accepted dispute (a break before it was
    accepted with it)."""
    if not path.is_file():
        return LogReading(exists=False)
    reading = LogReading()
    before: bytes | None = None
    chained = False
    for number, line in enumerate(path.read_bytes().splitlines(keepends=True), 1):
        if not line.strip():
            continue
        fields = _fields(line)
        if fields is None:
            reading.problem = reading.problem or f"line {number} is not JSON of a checkpoint"
            continue
        prev = fields.pop("prev", None)
        broken = _break(number, prev, before, chained=chained)
        reading.problem = reading.problem or broken
        chained = chained or prev is not None
        before = line
        if ACCEPTED in fields:
            reading.accepted, reading.problem = str(fields[ACCEPTED]), None
            reading.accepted_reason = fields.get("reason")
        elif ROTATION not in fields:
            reading.entries.append(fields)
    return reading


def _fields(line: bytes) -> dict[str, Any] | None:
    try:
        fields = msgspec.json.decode(line)
    except msgspec.DecodeError:
        return None
    return fields if isinstance(fields, dict) else None


def _break(number: int, prev: str | None, before: bytes | None, *, chained: bool) -> str | None:
    expected = line_hash(before) if before is not None else FIRST
    if prev is None and chained:
        return f"line {number} is not chained to line {number - 1}"
    if prev is not None and prev != expected:
        return (
            f"line {number} names a previous line that is not line {number - 1}"
            " as it stands: a line was removed or rewritten"
        )
    return None
