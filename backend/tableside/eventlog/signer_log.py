"""The signer's log as a chain of signed lines (#41, #50).

A line is one JSON object (a checkpoint's fields, `eventlog/checkpoints.py`, or a mirror of a
fact of the record: a rotation, an accepted dispute, the log's opening) with `prev`: the hex
SHA-256 of the previous line's bytes, newline included (64 zeros on the first line);
`written`: when it was written; `key`: the public key that signed it; and last `sig`: that
key's Ed25519 signature over

    b"tableside-log/1\\n" ‖ the line's JSON without its `sig` (`{…,"key":"…"}`)

A line removed from the middle, or rewritten, breaks the next line's `prev` or its own
signature; a line not signed by the store's key (`trusts`), or dated in the future, or
before the line above it by more than a clock's step, is evidence of tampering, never a
fact (decision 0160). A log cut short or emptied is found by what it lacks (the store's
checkpoints and its key's history, `standing`), which the callers count. Lines written
before #41 carry no `prev`, before #50 no `sig`: they are read as an unchained or unsigned
prefix of checkpoints (each carries its own signature); once a line is chained or signed,
every later one must be, and an unsigned line is never more than a checkpoint.

The log's first line (#50) names the store it witnesses (`store`: its identity,
`key_identity.store_identity`). A log that names another store is no witness of this one
(`key_identity.bound_log`).

Appends take an exclusive `flock` on the file: the previous line is read and the new one
written under it, so workers sharing the log never fork its chain.
"""

from __future__ import annotations

import fcntl
import hashlib
import os
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import msgspec
from cryptography.exceptions import InvalidSignature
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey, Ed25519PublicKey

FIRST = "0" * 64
ACCEPTED = "accepted"  # a line that is no checkpoint: a dispute accepted on the record
ROTATION = "rotation"  # nor is this: the key replaced (`eventlog/rotation.py`)
LOST = "lost"  # nor this: a key declared lost (`tableside keys rotate --lost`)
FACTS = (ACCEPTED, ROTATION, LOST)
STORE = "store"  # the first line's: the identity of the store the log witnesses
_DOMAIN = b"tableside-log/1\n"
_SIG = b',"sig":"'
# How far a line may be dated past now, or before the line above it (a clock stepped back).
SKEW = timedelta(minutes=5)


def line_hash(line: bytes) -> str:
    """What the next line's `prev` names: SHA-256 of the line as written (with its newline)."""
    return hashlib.sha256(line).hexdigest()


@dataclass
class LogReading:
    """A log as read: its checkpoint lines' fields (without `prev`, `written`, `key`, `sig`),
    the first problem, if any, whether there is a file, the store its opening line names,
    and how many lines it has."""

    entries: list[dict[str, Any]] = field(default_factory=list)
    problem: str | None = None
    exists: bool = True
    store: str | None = None
    lines: int = 0


def _public(key: Ed25519PrivateKey) -> str:
    raw = key.public_key().public_bytes(serialization.Encoding.Raw, serialization.PublicFormat.Raw)
    return raw.hex()


def signed_line(
    fields: dict[str, Any], prev: str, key: Ed25519PrivateKey, written: datetime | None = None
) -> bytes:
    """One signed line (with its newline) of `fields` after the line hashed `prev`, written
    now (or at `written`: what a forger would date it)."""
    at = (written or datetime.now(UTC)).isoformat()
    body = msgspec.json.encode({**fields, "prev": prev, "written": at, "key": _public(key)})
    signature = key.sign(_DOMAIN + body).hex().encode()
    return body[:-1] + _SIG + signature + b'"}\n'


def append(
    path: Path, fields: dict[str, Any], *, key: Ed25519PrivateKey, store: str | None = None
) -> int:
    """Append one signed, chained line (fsync'd; the folder too when the log is new); a new
    log's first line names `store`. Returns the log's line count after it."""
    new = not path.exists()
    if new:
        path.parent.mkdir(mode=0o700, parents=True, exist_ok=True)
    fd = os.open(path, os.O_RDWR | os.O_APPEND | os.O_CREAT, 0o600)
    try:
        fcntl.flock(fd, fcntl.LOCK_EX)
        lines = _lines(fd)
        prev = line_hash(lines[-1]) if lines else FIRST
        opening = {STORE: store} if not lines and store is not None else {}
        out = signed_line({**fields, **opening}, prev, key)
        os.write(fd, out)
        os.fsync(fd)
        count = len(lines) + 1
    finally:
        os.close(fd)  # releases the lock
    if new:
        folder = os.open(path.parent, os.O_RDONLY)
        try:
            os.fsync(folder)
        finally:
            os.close(folder)
    return count


def _lines(fd: int) -> list[bytes]:
    size = os.fstat(fd).st_size
    raw = os.pread(fd, size, 0) if size else b""
    return [line for line in raw.splitlines(keepends=True) if line.strip()]


Trusts = Callable[[bytes], bool]


@dataclass
class _Walk:
    """Where a reading is: the line before, whether the chain and the signatures began, the
    newest time written so far."""

    before: bytes | None = None
    chained: bool = False
    signed: bool = False
    newest: datetime | None = None


def read(path: Path, trusts: Trusts | None = None, *, now: datetime | None = None) -> LogReading:
    """Every checkpoint line's fields, checking each line's `prev`, signature (by a key
    `trusts` accepts; any key when None) and date; `exists` False when there is no file.
    `problem` names the first break: nothing after it undoes it."""
    if not path.is_file():
        return LogReading(exists=False)
    reading, walk = LogReading(), _Walk()
    now = now or datetime.now(UTC)
    for number, line in enumerate(path.read_bytes().splitlines(keepends=True), 1):
        if not line.strip():
            continue
        reading.lines += 1
        fields = _fields(line)
        if fields is None:
            reading.problem = reading.problem or f"line {number} is not JSON of a checkpoint"
            continue
        found = _line_problem(number, line, fields, walk, trusts, now)
        reading.problem = reading.problem or found
        walk.before = line
        if number == 1 and STORE in fields:
            reading.store = str(fields.pop(STORE))
        if not any(fact in fields for fact in FACTS):
            reading.entries.append(fields)
    return reading


def _line_problem(
    number: int, line: bytes, fields: dict[str, Any], walk: _Walk, trusts: Trusts | None, now
) -> str | None:
    prev = fields.pop("prev", None)
    broken = _break(number, prev, walk.before, chained=walk.chained)
    walk.chained = walk.chained or prev is not None
    signature = fields.pop("sig", None)
    key = fields.pop("key", None)
    written = fields.pop("written", None)
    if signature is None:
        return broken or _unsigned(number, fields, signed=walk.signed)
    walk.signed = True
    return broken or _signature(number, line, key, trusts) or _dated(number, written, walk, now)


def _unsigned(number: int, fields: dict[str, Any], *, signed: bool) -> str | None:
    if signed:
        return f"line {number} is not signed, after signed lines: a line the signer did not write"
    if any(fact in fields for fact in FACTS):
        return f"line {number} is not signed: a fact the signer did not write"
    return None


def _signature(number: int, line: bytes, key: Any, trusts: Trusts | None) -> str | None:
    at = line.rfind(_SIG)
    try:
        raw = bytes.fromhex(str(key))
        signature = bytes.fromhex(line[at + len(_SIG) :].rstrip(b'"}\r\n').decode())
        Ed25519PublicKey.from_public_bytes(raw).verify(signature, _DOMAIN + line[:at] + b"}")
    except (InvalidSignature, ValueError, UnicodeDecodeError):
        return f"line {number} has a bad signature: it was rewritten"
    if trusts is not None and not trusts(raw):
        return f"line {number} is signed by key {raw.hex()[:16]}…, not the store's key"
    return None


def _dated(number: int, written: Any, walk: _Walk, now: datetime) -> str | None:
    try:
        at = datetime.fromisoformat(str(written))
    except ValueError:
        return f"line {number} has no time it was written"
    if at > now + SKEW:
        return f"line {number} is dated {at.isoformat()}, in the future: it was not written then"
    if walk.newest is not None and at < walk.newest - SKEW:
        return f"line {number} is dated {at.isoformat()}, before the line above it"
    walk.newest = max(at, walk.newest or at)
    return None


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
