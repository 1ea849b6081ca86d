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

from tableside.eventlog import signer_log
from tableside.eventlog.checkpoint_db import FIRST
from tableside.eventlog.checkpoints import CheckpointError, Trusted, load_or_create_key, public_hex
from tableside.eventlog.rotation import (
    KeyLost,
    KeyRotated,
    holds,
    loss_holds,
    trusted_with_rotations,
)

_NEWEST_KEY = (
    "SELECT public_key FROM event_checkpoints ORDER BY position DESC, checkpoint_id DESC LIMIT 1"
)


_ROTATIONS = (
    "SELECT topic, state FROM stored_events WHERE originator_id = %s"
    " AND topic IN ('KeyRotated', 'KeyLost') ORDER BY originator_version"
)
_KINDS: dict[str, type] = {"KeyRotated": KeyRotated, "KeyLost": KeyLost}


def rotations_in(url: str) -> list[KeyRotated | KeyLost]:
    """Every key rotation and loss the store records, oldest first."""
    from tableside.eventlog.standing import RECORD_STREAM

    with psycopg.connect(url) as conn:
        rows = conn.execute(_ROTATIONS, (RECORD_STREAM,)).fetchall()
    return [msgspec.json.decode(bytes(r[1]), type=_KINDS[r[0]]) for r in rows]


def trusted_in(url: str, key: bytes) -> Trusted:
    """`key` and the keys it replaced, as the store's rotations say (each checked)."""
    return trusted_with_rotations(key, rotations_in(url))


# Keys that signed (schema/013 counts what each registered key signed), newest first.
_SIGNERS = (
    "SELECT public_key FROM checkpoint_keys WHERE signed_count > 0"
    " ORDER BY last_signed_at DESC NULLS LAST"
)


def replaced_keys(url: str) -> set[bytes]:
    """The keys well-signed rotations retired and loss statements declared lost."""
    return {
        bytes.fromhex(r.old_key if isinstance(r, KeyRotated) else r.lost_key)
        for r in rotations_in(url)
        if (holds(r) if isinstance(r, KeyRotated) else loss_holds(r))
    }


def live_keys(url: str) -> list[bytes]:
    """The registered keys that signed for this store and were not replaced (rotated away or
    declared lost), the newest signer first: keys whose file must be here (#50)."""
    replaced = replaced_keys(url)
    with psycopg.connect(url) as conn:
        rows = conn.execute(_SIGNERS).fetchall()
    return [bytes(r[0]) for r in rows if bytes(r[0]) not in replaced]


def store_identity(url: str) -> str | None:
    """The store's identity: the store-wide hash of its first event (hex; the same on its
    standby and after an export's restore, another for every other store), None while empty."""
    with psycopg.connect(url) as conn:
        row = conn.execute(FIRST).fetchone()
    return bytes(row[0]).hex() if row else None


def bound_log(log: Path | None, store: str | None) -> None:
    """CheckpointError naming both stores when the signer's log opens naming another store
    (#50: two stores side by side never share a key's log)."""
    from tableside.eventlog.standing import foreign_log

    if log is None:
        return
    found = foreign_log(log, signer_log.read(log.expanduser()).store, store)
    if found is not None:
        raise CheckpointError(found.reason)


def fingerprint(public_key: bytes | str) -> str:
    """The first 16 hex digits of a public key, as every message names a key."""
    raw = public_key if isinstance(public_key, str) else public_key.hex()
    return f"{raw[:16]}…"


def store_key(url: str) -> bytes | None:
    """The public key of the store's newest checkpoint, or None before the first."""
    with psycopg.connect(url) as conn:
        row = conn.execute(_NEWEST_KEY).fetchone()
    return bytes(row[0]) if row else None


def expected_key(url: str) -> bytes | None:
    """The key this store is signed by: its newest checkpoint's, else (the checkpoints
    deleted) the newest registered key that signed and was not replaced; None for a store
    nobody signed yet."""
    signed_by = store_key(url)
    if signed_by is not None and signed_by not in replaced_keys(url):
        return signed_by
    live = live_keys(url)
    return live[0] if live else None


def signing_key_for(url: str, path: Path) -> Ed25519PrivateKey:
    """The key at `path` when it is the store's key (made there for an unsigned store);
    CheckpointError naming both fingerprints when it is another, or saying the key is lost."""
    path = path.expanduser()
    signed_by = expected_key(url)
    if signed_by is None:
        return load_or_create_key(path)
    if not path.exists():
        raise CheckpointError(
            f"the signing key {path} is missing, and this store is signed by key"
            f" {fingerprint(signed_by)} (registered in checkpoint_keys): restore that key file,"
            " or record its loss with `tableside keys rotate --lost` (no new key was made: one"
            " would leave every checkpoint and receipt of this store without the key they"
            " verify against)"
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
