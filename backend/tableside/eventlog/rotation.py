"""Key rotations (#41): the old key signs the new one, and verification follows.

A rotation is recorded as a `KeyRotated` event of the record's own stream
(`standing.RECORD_STREAM`) and as a line of the signer's log. Its signature, by the old key,
covers

    b"tableside-rotation/1\\n" ‖ old key (32) ‖ new key (32) ‖ time µs since epoch int8

so nobody without the old key can name a successor. `trusted_with_rotations` starts from a
trusted key and walks back through the rotations that name it as the new key, each checked
against its old key: the keys so reached verify what they signed before (checkpoints,
receipts), and `/verify` pins them all.
"""

from __future__ import annotations

import struct
from collections.abc import Iterable
from datetime import UTC, datetime, timedelta

import msgspec
from cryptography.exceptions import InvalidSignature
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey, Ed25519PublicKey

from tableside.eventlog.checkpoints import Trusted, public_hex

FORMAT = "tableside-rotation/1"
_EPOCH = datetime(1970, 1, 1, tzinfo=UTC)
_MICROSECOND = timedelta(microseconds=1)


class KeyRotated(msgspec.Struct, frozen=True, kw_only=True, tag_field="type", tag="KeyRotated"):
    """The record's signing key was replaced: `new_key` signs from `at` on; `signature` is the
    old key's over both keys and the time (hex)."""

    old_key: str
    new_key: str
    at: str
    signature: str


def signed_bytes(old: bytes, new: bytes, at: datetime, kind: str = FORMAT) -> bytes:
    """The exact bytes a rotation's signature covers (`kind`: a loss's, `lost_bytes`)."""
    micros = (at - _EPOCH) // _MICROSECOND
    return kind.encode() + b"\n" + old + new + struct.pack(">q", micros)


def rotate(old: Ed25519PrivateKey, new: Ed25519PrivateKey) -> KeyRotated:
    """The old key's statement that the new key follows it, now (µs)."""
    at = datetime.now(UTC)
    old_hex, new_hex = public_hex(old), public_hex(new)
    signature = old.sign(signed_bytes(bytes.fromhex(old_hex), bytes.fromhex(new_hex), at))
    return KeyRotated(
        old_key=old_hex, new_key=new_hex, at=at.isoformat(), signature=signature.hex()
    )


def holds(rotation: KeyRotated) -> bool:
    """Is the rotation signed by the key it retires?"""
    try:
        old, new = bytes.fromhex(rotation.old_key), bytes.fromhex(rotation.new_key)
        at = datetime.fromisoformat(rotation.at)
        Ed25519PublicKey.from_public_bytes(old).verify(
            bytes.fromhex(rotation.signature), signed_bytes(old, new, at)
        )
    except (InvalidSignature, ValueError):
        return False
    return True


LOST_FORMAT = "tableside-key-lost/1"


class KeyLost(msgspec.Struct, frozen=True, kw_only=True, tag_field="type", tag="KeyLost"):
    """The record's signing key was lost (`tableside keys rotate --lost`, #50): its file is
    gone, so it cannot sign its successor; `new_key` signs from `at` on and signs this
    statement itself (hex). The audit shows it: what `lost_key` signed before still verifies,
    but nothing proves who holds it now."""

    lost_key: str
    new_key: str
    at: str
    operator: str
    signature: str


def lost_bytes(lost: bytes, new: bytes, at: datetime) -> bytes:
    """The exact bytes a loss statement's signature (by the new key) covers."""
    return signed_bytes(lost, new, at, LOST_FORMAT)


def declare_lost(lost: bytes, new: Ed25519PrivateKey, operator: str) -> KeyLost:
    """The new key's statement that `lost` (a public key) is lost and it follows, now."""
    at = datetime.now(UTC)
    new_hex = public_hex(new)
    signature = new.sign(lost_bytes(lost, bytes.fromhex(new_hex), at))
    return KeyLost(
        lost_key=lost.hex(),
        new_key=new_hex,
        at=at.isoformat(),
        operator=operator,
        signature=signature.hex(),
    )


def loss_holds(loss: KeyLost) -> bool:
    """Is the loss statement signed by the key it names as the successor?"""
    try:
        lost, new = bytes.fromhex(loss.lost_key), bytes.fromhex(loss.new_key)
        Ed25519PublicKey.from_public_bytes(new).verify(
            bytes.fromhex(loss.signature), lost_bytes(lost, new, datetime.fromisoformat(loss.at))
        )
    except (InvalidSignature, ValueError):
        return False
    return True


def trusted_with_rotations(key: bytes, rotations: Iterable[KeyRotated | KeyLost]) -> Trusted:
    """`key`, and every key it replaced through well-signed rotations and loss statements."""
    back = {r.new_key: r.old_key for r in rotations if isinstance(r, KeyRotated) and holds(r)}
    back |= {r.new_key: r.lost_key for r in rotations if isinstance(r, KeyLost) and loss_holds(r)}
    retired: set[bytes] = set()
    current = key.hex()
    while current in back and bytes.fromhex(back[current]) not in retired | {key}:
        current = back[current]
        retired.add(bytes.fromhex(current))
    return Trusted(key, frozenset(retired))
