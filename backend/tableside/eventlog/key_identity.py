"""Keys are an identity, not a file that happens to be there (#41).

A store is signed by the key of its newest stored checkpoint (after `tableside keys rotate`,
the new key: the rotation signs a checkpoint with it at once). `signing_key_for` gives the
key at the settings' path only when it is that key; a store nobody signed yet gets a key made
on first use, as before. A missing key file beside a signed store is said plainly, and
nothing is made: a new key would leave every receipt and checkpoint without the key they
verify against (decision 0121).
"""

from __future__ import annotations

from pathlib import Path

import msgspec
import psycopg
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

from tableside.eventlog.checkpoints import CheckpointError, Trusted, load_or_create_key, public_hex
from tableside.eventlog.rotation import KeyRotated, trusted_with_rotations

_NEWEST_KEY = (
    "SELECT public_key FROM event_checkpoints ORDER BY position DESC, checkpoint_id DESC LIMIT 1"
)


_ROTATIONS = (
    "SELECT state FROM stored_events WHERE originator_id = %s AND topic = 'KeyRotated'"
    " ORDER BY originator_version"
)


def rotations_in(url: str) -> list[KeyRotated]:
    """Every key rotation the store records, oldest first."""
    from tableside.eventlog.standing import RECORD_STREAM

    with psycopg.connect(url) as conn:
        rows = conn.execute(_ROTATIONS, (RECORD_STREAM,)).fetchall()
    return [msgspec.json.decode(bytes(r[0]), type=KeyRotated) for r in rows]


def trusted_in(url: str, key: bytes) -> Trusted:
    """`key` and the keys it replaced, as the store's rotations say (each checked)."""
    return trusted_with_rotations(key, rotations_in(url))


def fingerprint(public_key: bytes | str) -> str:
    """The first 16 hex digits of a public key, as every message names a key."""
    raw = public_key if isinstance(public_key, str) else public_key.hex()
    return f"{raw[:16]}…"


def store_key(url: str) -> bytes | None:
    """The public key of the store's newest checkpoint, or None before the first."""
    with psycopg.connect(url) as conn:
        row = conn.execute(_NEWEST_KEY).fetchone()
    return bytes(row[0]) if row else None


def signing_key_for(url: str, path: Path) -> Ed25519PrivateKey:
    """The key at `path` when it is the store's key (made there for an unsigned store);
    CheckpointError naming both fingerprints when it is another, or saying the key is lost."""
    path = path.expanduser()
    signed_by = store_key(url)
    if signed_by is None:
        return load_or_create_key(path)
    if not path.exists():
        raise CheckpointError(
            f"the signing key {path} is missing, and this store is signed by key"
            f" {fingerprint(signed_by)}: restore that key file (no new key was made: one would"
            " leave every checkpoint and receipt of this store without the key they verify"
            " against)"
        )
    key = load_or_create_key(path)
    found = public_hex(key)
    if found != signed_by.hex():
        raise CheckpointError(
            f"this store is signed by key {fingerprint(signed_by)}, but {path} holds key"
            f" {fingerprint(found)}: give the store's key file (TABLESIDE_KEY_FILE), or move to"
            " a new key with `tableside keys rotate` while the old one is present"
        )
    return key
