"""The federation's signed acknowledgement of a venue's head: a witness outside the venue.

When the federation has verified and kept a venue's record up to `position` (every chain
link, every checkpoint against the venue's keys, every position it already held), it signs

    b"tableside-federation-ack/1\\n" ‖ venue id (16) ‖ position int8 ‖ head_hash (32)
    ‖ time µs since epoch int8

with its own Ed25519 key (integers big-endian; `head_hash` is the venue's
`stored_events.global_hash` at `position`). The venue keeps the newest acknowledgements as
JSON Lines (`uplink/`); `tableside audit verify --witness FILE` reads them beside checkpoints:
the store must still reach `position` with `head_hash` there, and the signature must hold
against the federation key the file names (or `--federation-key`). Shared by the federation
(which signs) and the venue (which verifies): nothing here does I/O beyond a file read.
"""

from __future__ import annotations

import struct
import uuid
from datetime import UTC, datetime, timedelta
from pathlib import Path

import msgspec
from cryptography.exceptions import InvalidSignature
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey, Ed25519PublicKey

from tableside.eventlog.checkpoints import Checkpoint, CheckpointError, public_hex, read_published

FORMAT = "tableside-federation-ack/1"
_DOMAIN = FORMAT.encode() + b"\n"
_EPOCH = datetime(1970, 1, 1, tzinfo=UTC)
_MICROSECOND = timedelta(microseconds=1)


class AckError(ValueError):
    """Not an acknowledgement; the message says why."""


class Ack(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """One signed acknowledgement, as the federation answers a push and the venue keeps it."""

    venue_id: uuid.UUID
    position: int
    head_hash: str
    time: datetime
    public_key: str  # the federation's
    signature: str
    format: str = FORMAT


def signed_bytes(venue_id: uuid.UUID, position: int, head_hash: bytes, time: datetime) -> bytes:
    """The exact bytes an acknowledgement's signature covers."""
    micros = (time - _EPOCH) // _MICROSECOND
    return (
        _DOMAIN
        + venue_id.bytes
        + struct.pack(">q", position)
        + head_hash
        + struct.pack(">q", micros)
    )


def sign(key: Ed25519PrivateKey, venue_id: uuid.UUID, position: int, head_hash: bytes) -> Ack:
    """Acknowledge the venue's head at `position` now (time truncated to µs)."""
    time = datetime.now(UTC)
    signature = key.sign(signed_bytes(venue_id, position, head_hash, time))
    return Ack(venue_id, position, head_hash.hex(), time, public_hex(key), signature.hex())


def problem(ack: Ack, federation_key: bytes | None = None) -> str | None:
    """Why the acknowledgement cannot be trusted (another key, a bad signature), or None."""
    try:
        head, key, signature = (
            bytes.fromhex(ack.head_hash),
            bytes.fromhex(ack.public_key),
            bytes.fromhex(ack.signature),
        )
    except ValueError:
        return f"the federation's acknowledgement of position {ack.position} is not hex"
    if federation_key is not None and key != federation_key:
        return (
            f"the acknowledgement of position {ack.position} is signed by {key.hex()[:16]}…,"
            f" not the federation's key {federation_key.hex()[:16]}…"
        )
    try:
        Ed25519PublicKey.from_public_bytes(key).verify(
            signature, signed_bytes(ack.venue_id, ack.position, head, ack.time)
        )
    except (InvalidSignature, ValueError):
        return f"the federation's acknowledgement of position {ack.position} has a bad signature"
    return None


def encode(ack: Ack) -> bytes:
    """One line of JSON."""
    return msgspec.json.encode(ack) + b"\n"


def decode(raw: bytes) -> Ack:
    """An acknowledgement's JSON; AckError when it is not one."""
    try:
        ack = msgspec.json.decode(raw, type=Ack)
    except msgspec.DecodeError as exc:
        raise AckError(f"not a federation acknowledgement: {exc}") from None
    if ack.format != FORMAT:
        raise AckError(f"format {ack.format!r} is not {FORMAT!r}")
    return ack


def is_ack(raw: bytes) -> bool:
    """Does this JSON line name the acknowledgement's format?"""
    return f'"format":"{FORMAT}"'.encode() in raw.replace(b" ", b"")


def read_witness(path: Path) -> tuple[list[Checkpoint], list[Ack]]:
    """A witness file (or folder) that may hold the federation's acknowledgements beside
    checkpoints (`checkpoints.read_witness`'s files): both, each in file order.
    CheckpointError names the file and line that is neither."""
    path = path.expanduser()
    if path.is_dir():
        files = sorted(p for p in path.iterdir() if p.is_file() and not p.name.startswith("."))
        found = [read_witness(f) for f in files]
        return [c for cps, _ in found for c in cps], [a for _, acks in found for a in acks]
    marks: list[Checkpoint] = []
    acks: list[Ack] = []
    for number, line in enumerate(path.read_bytes().splitlines(), 1):
        if not line.strip():
            continue
        try:
            if is_ack(line):
                acks.append(decode(line))
            else:
                marks.append(read_published(line))
        except (AckError, CheckpointError) as exc:
            raise CheckpointError(f"{path}, line {number}: {exc}") from None
    return marks, acks
