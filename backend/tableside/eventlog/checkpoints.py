"""Signed checkpoints of the store-wide chain: (position, global hash there, time), Ed25519.

The key lives in a file outside the database (created on first use, mode 0600); its public
half is what an auditor needs. Signed bytes:

    b"tableside-checkpoint/1\\n" ‖ position int8 ‖ head_hash (32) ‖ time µs since epoch int8

(integers big-endian; `head_hash` is `stored_events.global_hash` at `position`). A
checkpoint printed, published or carried in an export is the JSON of `Checkpoint`; the
database keeps them in the append-only `event_checkpoints` (schema/007, 011).

The signer also keeps every checkpoint it signs in a log beside its key (`Signer`,
`<key>.log`: JSON Lines, append-only, each line naming the previous line's hash
(`signer_log`), fsync'd before the checkpoint is stored), outside
PostgreSQL: a witness that whoever holds the database cannot rewrite (`audit verify` reads
it; `read_witness` reads it and any other witness file or folder).
"""

from __future__ import annotations

import base64
import binascii
import os
import struct
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from functools import partial
from pathlib import Path
from typing import Any

import msgspec
from cryptography.exceptions import InvalidSignature
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey, Ed25519PublicKey

from tableside.eventlog import signer_log

FORMAT = "tableside-checkpoint/1"
_DOMAIN = FORMAT.encode() + b"\n"
_EPOCH = datetime(1970, 1, 1, tzinfo=UTC)
_MICROSECOND = timedelta(microseconds=1)


class Trusted(bytes):
    """The trusted public key (raw 32 bytes) and the keys it replaced (`retired`): keys the
    record followed through `tableside keys rotate`, each rotation signed by the key before
    (#41). Anything that asks whether a key is trusted asks `trusts`."""

    retired: frozenset[bytes] = frozenset()

    def __new__(cls, key: bytes, retired: frozenset[bytes] = frozenset()) -> Trusted:
        made = super().__new__(cls, key)
        made.retired = frozenset(retired)
        return made


def trusts(trusted: bytes | None, key: bytes) -> bool:
    """Is `key` the trusted key or one it replaced by a rotation? (True without a key.)"""
    return trusted is None or key == trusted or key in getattr(trusted, "retired", ())


class CheckpointError(ValueError):
    """A key, public key or checkpoint that cannot be read; the message says which and why."""


class Checkpoint(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """One signed checkpoint, as printed, published and exported (hex for bytes)."""

    position: int
    head_hash: str
    time: datetime
    public_key: str
    signature: str
    format: str = FORMAT

    @property
    def short_hash(self) -> str:
        """The first 12 hex digits of the head hash, for a screen or a results page."""
        return self.head_hash[:12]


def signed_bytes(position: int, head_hash: bytes, time: datetime) -> bytes:
    """The exact bytes a checkpoint's signature covers."""
    micros = (time - _EPOCH) // _MICROSECOND
    return _DOMAIN + struct.pack(">q", position) + head_hash + struct.pack(">q", micros)


def sign(key: Ed25519PrivateKey, position: int, head_hash: bytes) -> Checkpoint:
    """Sign the store's head at `position` now (time truncated to µs, as stored)."""
    time = datetime.now(UTC)
    signature = key.sign(signed_bytes(position, head_hash, time))
    return Checkpoint(position, head_hash.hex(), time, public_hex(key), signature.hex())


def problem(checkpoint: Checkpoint, trusted_key: bytes | None) -> str | None:
    """Why a checkpoint cannot be trusted (bad signature, unknown key), or None."""
    try:
        head, key, signature = (
            bytes.fromhex(checkpoint.head_hash),
            bytes.fromhex(checkpoint.public_key),
            bytes.fromhex(checkpoint.signature),
        )
    except ValueError:
        return f"checkpoint at position {checkpoint.position} is not hex"
    if trusted_key is not None and not trusts(trusted_key, key):
        return (
            f"checkpoint at position {checkpoint.position} is signed by key {key.hex()[:16]}…,"
            f" not the trusted key {trusted_key.hex()[:16]}…"
        )
    try:
        Ed25519PublicKey.from_public_bytes(key).verify(
            signature, signed_bytes(checkpoint.position, head, checkpoint.time)
        )
    except (InvalidSignature, ValueError):
        return f"checkpoint at position {checkpoint.position} has a bad signature"
    return None


def encode(checkpoint: Checkpoint) -> bytes:
    """One line of JSON (what `audit checkpoint --print` writes)."""
    return msgspec.json.encode(checkpoint) + b"\n"


def decode(raw: bytes) -> Checkpoint:
    """Parse a checkpoint's JSON; CheckpointError when it is not one."""
    try:
        checkpoint = msgspec.json.decode(raw, type=Checkpoint)
    except msgspec.DecodeError as exc:
        raise CheckpointError(f"not a checkpoint: {exc}") from None
    if checkpoint.format != FORMAT:
        raise CheckpointError(f"checkpoint format {checkpoint.format!r} is not {FORMAT!r}")
    return checkpoint


class SigningRefused(RuntimeError):
    """The signer will not sign: the store is disputed (`standing.Dispute`, #41)."""

    def __init__(self, dispute: Any) -> None:
        super().__init__(dispute.reason)
        self.dispute = dispute


@dataclass
class Signer:
    """The signing key and its log: every checkpoint signed is appended to `log` (fsync'd)
    before anyone stores it, so the log holds at least what the database was given. While
    `dispute` is set (the store no longer yields a head it signed, #41) it signs nothing;
    `since` is when a dispute was last accepted on the record (`serve --accept-disputed`):
    only what was signed after it is held against the store from then on."""

    key: Ed25519PrivateKey
    log: Path | None = None
    dispute: Any = None
    since: datetime | None = None
    retired: frozenset[bytes] = frozenset()  # keys this one replaced (`keys rotate`)
    store: str | None = None  # the store's identity, named by a new log's first line (#50)
    accepted_missing: int = 0  # stored checkpoints lacking when a dispute was last accepted

    @property
    def trusted(self) -> Trusted:
        """This key and the keys it replaced: what checks of this store trust."""
        return Trusted(bytes.fromhex(public_hex(self.key)), self.retired)

    def sign(self, position: int, head_hash: bytes) -> Checkpoint:
        """Sign the head at `position` now and keep the checkpoint in the log."""
        if self.dispute is not None:
            raise SigningRefused(self.dispute)
        checkpoint = sign(self.key, position, head_hash)
        if self.log is not None:
            append_to_log(self, checkpoint)
        return checkpoint

    def write(self, fields: dict[str, Any]) -> None:
        """One signed line of the log (a checkpoint's, or a fact's it mirrors); none without
        a log."""
        if self.log is not None:
            signer_log.append(self.log, fields, key=self.key, store=self.store)


def as_signer(key: Signer | Ed25519PrivateKey | None) -> Signer | None:
    """A bare key signs without a log (tests, tools); a Signer as it is."""
    if key is None or isinstance(key, Signer):
        return key
    return Signer(key)


def load_signer(key_path: Path, log: Path | None) -> Signer:
    """The key at `key_path` (made on first use) with its log (`Settings.checkpoint_log_path`:
    beside the key unless told otherwise)."""
    return Signer(load_or_create_key(key_path), log)


def append_to_log(signer: Signer, checkpoint: Checkpoint, **more: Any) -> None:
    """One signed, chained line (`signer_log`: it names the previous line's hash), fsync'd;
    `more` adds fields (`adopted`: copied from the store, not signed here and now)."""
    signer.write({**msgspec.to_builtins(checkpoint), **more})


def read_log(
    path: Path, trusted: bytes | None = None
) -> tuple[list[Checkpoint], signer_log.LogReading]:
    """The signer's log: its checkpoints, and how it reads (missing, or where its chain
    breaks, a line not signed by `trusted` or a key it replaced). A line that is no
    checkpoint is a break too."""
    reading = signer_log.read(path.expanduser(), partial(trusts, trusted))
    found = []
    for number, fields in enumerate(reading.entries, 1):
        try:
            found.append(_from_fields(fields))
        except CheckpointError as exc:
            reading.problem = reading.problem or f"line {number}: {exc}"
            break
    return found, reading


def read_witness(path: Path) -> list[Checkpoint]:
    """Every checkpoint a witness holds: a file of one checkpoint's JSON or of JSON Lines
    (the signer's log, `audit witness`'s files, `/api/checkpoints/latest` saved), or a folder
    of such files. CheckpointError names the file and line that is not a checkpoint."""
    path = path.expanduser()
    if path.is_dir():
        files = sorted(p for p in path.iterdir() if p.is_file() and not p.name.startswith("."))
        return [cp for f in files for cp in read_witness(f)]
    found = []
    for number, line in enumerate(path.read_bytes().splitlines(), 1):
        if line.strip() and not _is_fact(line):
            try:
                found.append(_published(line))
            except CheckpointError as exc:
                raise CheckpointError(f"{path}, line {number}: {exc}") from None
    return found


def _is_fact(line: bytes) -> bool:
    """A line of the signer's log that is no checkpoint (its opening, a rotation, …)."""
    try:
        fields = msgspec.json.decode(line)
    except msgspec.DecodeError:
        return False
    return isinstance(fields, dict) and any(fact in fields for fact in signer_log.FACTS)


def read_published(raw: bytes) -> Checkpoint:
    """A checkpoint as `/api/checkpoints/latest` serves it (with `short_hash`), or as kept."""
    return _published(raw)


def _published(raw: bytes) -> Checkpoint:
    """A checkpoint's JSON, also as `/api/checkpoints/latest` serves it (with `short_hash`)."""
    try:
        fields: Any = msgspec.json.decode(raw)
    except msgspec.DecodeError as exc:
        raise CheckpointError(f"not a checkpoint: {exc}") from None
    return _from_fields(fields)


# Fields a served or logged checkpoint carries beside the signed ones.
_BESIDE = ("short_hash", "prev", "adopted", "written", "key", "sig", "store")


def _from_fields(fields: Any) -> Checkpoint:
    if isinstance(fields, dict):
        fields = {k: v for k, v in fields.items() if k not in _BESIDE}
    return decode(msgspec.json.encode(fields))


def public_hex(key: Ed25519PrivateKey) -> str:
    """The raw 32-byte public key, hex."""
    raw = key.public_key().public_bytes(serialization.Encoding.Raw, serialization.PublicFormat.Raw)
    return raw.hex()


def load_or_create_key(path: Path) -> Ed25519PrivateKey:
    """The signing key at `path`; made there (0600, folder 0700) when there is none yet."""
    path = path.expanduser()
    if path.exists():
        try:
            key = serialization.load_pem_private_key(path.read_bytes(), password=None)
        except (ValueError, TypeError, OSError) as exc:
            raise CheckpointError(f"{path}: not an unencrypted Ed25519 PEM key ({exc})") from None
        if not isinstance(key, Ed25519PrivateKey):
            raise CheckpointError(f"{path}: not an Ed25519 key")
        return key
    key = Ed25519PrivateKey.generate()
    write_key(path, key)
    return key


def write_key(path: Path, key: Ed25519PrivateKey) -> None:
    """A new key file (0600, folder 0700); refused (FileExistsError) where one is."""
    path.parent.mkdir(mode=0o700, parents=True, exist_ok=True)
    pem = key.private_bytes(
        serialization.Encoding.PEM,
        serialization.PrivateFormat.PKCS8,
        serialization.NoEncryption(),
    )
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    with os.fdopen(fd, "wb") as out:
        out.write(pem)


def read_public_key(spec: str) -> bytes:
    """A trusted public key from `--public-key`: a file (PEM, hex, base64, or a checkpoint's
    JSON) or the key itself as 64 hex digits or base64."""
    path = Path(spec).expanduser()
    text = path.read_bytes() if path.is_file() else spec.encode()
    text = text.strip()
    if text.startswith(b"-----BEGIN"):
        try:
            key = serialization.load_pem_public_key(text)
        except ValueError as exc:
            raise CheckpointError(f"{spec}: not a PEM public key ({exc})") from None
        if not isinstance(key, Ed25519PublicKey):
            raise CheckpointError(f"{spec}: not an Ed25519 public key")
        return key.public_bytes(serialization.Encoding.Raw, serialization.PublicFormat.Raw)
    raw = _hex_or_base64(decode(text).public_key.encode()) if text.startswith(b"{") else None
    raw = raw if raw is not None else _hex_or_base64(text)
    if raw is None or len(raw) != 32:
        raise CheckpointError(f"{spec}: not an Ed25519 public key (64 hex digits, base64, or PEM)")
    return raw


def _hex_or_base64(text: bytes) -> bytes | None:
    try:
        return bytes.fromhex(text.decode())
    except (ValueError, UnicodeDecodeError):
        pass
    try:
        return base64.b64decode(text, validate=True)
    except binascii.Error:
        return None
