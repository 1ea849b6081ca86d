"""`tableside keys rotate`: replace the record's signing key, on the record (#41).

With the old key present (the store's own: `key_identity`): a new key is made, the old key
signs a statement naming it (`eventlog/rotation.py`), the new key is registered (the
migrations' role), the statement is recorded as a `KeyRotated` event and in the signer's
log, the old key file is kept beside as `<key>.retired-<fingerprint>.pem`, the new one takes
its place, and it signs the head at once: from then on the store is the new key's, and
every check follows the rotation back to the keys it replaced (receipts, checkpoints,
`/verify`). Exit 0 when rotated, 1 when refused, 2 when it cannot run.
"""

from __future__ import annotations

import argparse
import os
import sys
import uuid
from pathlib import Path


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """`rotate`, with --data-dir and --key-file."""
    actions = parser.add_subparsers(dest="action", required=True)
    rotate = actions.add_parser("rotate", help="replace the signing key, signed by the old one")
    rotate.add_argument("--data-dir", type=Path, help="embedded PostgreSQL data dir")
    rotate.add_argument("--key-file", type=Path, help="the signing key (env TABLESIDE_KEY_FILE)")
    rotate.add_argument(
        "--lost",
        action="store_true",
        help="the store's key file is lost: make a new key and record the loss as an event"
        " signed by it (the audit shows it)",
    )


def run(args: argparse.Namespace) -> int:
    from tableside.db.runtime import StartupError
    from tableside.eventlog.checkpoints import CheckpointError
    from tableside.settings import Settings, SettingsError

    try:
        settings = Settings.from_env().replace(data_dir=args.data_dir, key_file=args.key_file)
        return _rotate_lost(settings) if args.lost else _rotate(settings)
    except CheckpointError as exc:
        print(f"tableside: {exc}", file=sys.stderr)
        return 1
    except (StartupError, SettingsError, OSError) as exc:
        print(f"tableside: {exc}", file=sys.stderr)
        return 2


def _rotate(settings) -> int:
    from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

    from tableside.db.runtime import database
    from tableside.eventlog.checkpoints import public_hex
    from tableside.eventlog.key_identity import fingerprint, signing_key_for
    from tableside.eventlog.rotation import rotate

    path = settings.signing_key_path.expanduser()
    with database(settings, attach=True, existing=True) as db:
        old = signing_key_for(db.url, path)
        new = Ed25519PrivateKey.generate()
        statement = rotate(old, new)
        retired = path.with_name(f"{path.stem}.retired-{statement.old_key[:16]}{path.suffix}")
        signed = _hand_over(db, settings, statement, old, new, "rotation", retired)
    if signed is None:
        return 1
    print(
        f"rotated: key {fingerprint(statement.old_key)} (kept as {retired}) is replaced by"
        f" {fingerprint(public_hex(new))} in {path}; {signed}"
    )
    return 0


def _rotate_lost(settings) -> int:
    """`keys rotate --lost`: the store's key (the newest that signed) has no file here; a new
    key is made and registered, the loss recorded as a `KeyLost` event signed by the new key
    (and mirrored in the log), and the new key signs the head when the record holds."""
    from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

    from tableside.db.runtime import database
    from tableside.eventlog.checkpoints import public_hex
    from tableside.eventlog.key_identity import expected_key, fingerprint
    from tableside.eventlog.rotation import declare_lost
    from tableside.eventlog.standing_db import operator_name

    path = settings.signing_key_path.expanduser()
    with database(settings, attach=True, existing=True) as db:
        lost = expected_key(db.url)
        if lost is None or path.exists():
            why = "no key signed this store" if lost is None else f"{path} is here"
            print(f"tableside: nothing is lost: {why} (`keys rotate` replaces a key that is)")
            return 1
        new = Ed25519PrivateKey.generate()
        statement = declare_lost(lost, new, operator_name())
        signed = _hand_over(db, settings, statement, new, new, "lost")
    if signed is None:
        return 1
    print(
        f"lost: key {fingerprint(statement.lost_key)} is recorded lost (signed by the new key);"
        f" {fingerprint(public_hex(new))} in {path} signs from now on; {signed}"
    )
    return 0


def _hand_over(db, settings, statement, by, new, fact: str, retired: Path | None = None):
    """The new key takes over: registered, the statement recorded (the log's line written
    by `by`), the old file kept as `retired` (a rotation's), the new file written, the head
    signed now. What was signed, in words; None when the new key cannot be registered."""
    from tableside.db.roles import register_key
    from tableside.eventlog.checkpoints import Signer, write_key
    from tableside.eventlog.key_identity import store_identity, trusted_in

    refused = register_key(db.migrate_url, bytes.fromhex(statement.new_key))
    if refused:
        print(f"tableside: the new key cannot be registered: {refused}", file=sys.stderr)
        return None
    log, path = settings.checkpoint_log_path, settings.signing_key_path.expanduser()
    _record(db.url, statement, Signer(by, log, store=store_identity(db.url)), fact)
    if retired is not None:
        os.replace(path, retired)
    write_key(path, new)
    trusted = trusted_in(db.url, bytes.fromhex(statement.new_key))
    return _sign_now(db.url, Signer(new, log, retired=trusted.retired))


def _sign_now(url: str, signer) -> str:
    """The new key signs the head, unless the record is disputed (then `serve` says so)."""
    import psycopg

    from tableside.eventlog import checkpoint_db
    from tableside.eventlog.checkpoints import SigningRefused

    try:
        with psycopg.connect(url, autocommit=True) as conn:
            signed = checkpoint_db.take(conn, signer)
    except SigningRefused as exc:
        return f"nothing signed now: the record is disputed: {exc}"
    return f"it signed the head at position {signed.position}" if signed else "nothing to sign"


def _record(url: str, statement, signer, fact: str) -> None:
    """The statement as an event of the record's stream, and as a line of the signer's log."""
    import msgspec
    import psycopg

    from tableside.db.rows import one
    from tableside.eventlog import EventRegistry, EventStore
    from tableside.eventlog.standing import RECORD_EVENT_TYPES, RECORD_STREAM

    with psycopg.connect(url) as conn:
        row = one(
            conn.execute(
                "SELECT coalesce(max(originator_version), 0) FROM stored_events"
                " WHERE originator_id = %s",
                (RECORD_STREAM,),
            )
        )
    with EventStore.connect(EventRegistry(*RECORD_EVENT_TYPES), url) as store:
        store.append(
            RECORD_STREAM,
            [statement],
            expected_version=row[0],
            command_id=uuid.uuid4(),
            meta={
                "recorder": f"tableside keys rotate{' --lost' if fact == 'lost' else ''}",
                "role": "owner",
            },
        )
    signer.write({fact: msgspec.to_builtins(statement)})
