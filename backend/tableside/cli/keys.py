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


def run(args: argparse.Namespace) -> int:
    from tableside.db.runtime import StartupError
    from tableside.eventlog.checkpoints import CheckpointError
    from tableside.settings import Settings, SettingsError

    try:
        settings = Settings.from_env().replace(data_dir=args.data_dir, key_file=args.key_file)
        return _rotate(settings)
    except CheckpointError as exc:
        print(f"tableside: {exc}", file=sys.stderr)
        return 1
    except (StartupError, SettingsError, OSError) as exc:
        print(f"tableside: {exc}", file=sys.stderr)
        return 2


def _rotate(settings) -> int:
    import psycopg
    from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

    from tableside.db.roles import register_key
    from tableside.db.runtime import database
    from tableside.eventlog import checkpoint_db
    from tableside.eventlog.checkpoints import Signer, public_hex, write_key
    from tableside.eventlog.key_identity import fingerprint, signing_key_for
    from tableside.eventlog.rotation import rotate

    path = settings.signing_key_path.expanduser()
    with database(settings, attach=True, existing=True) as db:
        old = signing_key_for(db.url, path)
        new = Ed25519PrivateKey.generate()
        statement = rotate(old, new)
        refused = register_key(db.migrate_url, bytes.fromhex(statement.new_key))
        if refused:
            print(f"tableside: the new key cannot be registered: {refused}", file=sys.stderr)
            return 1
        _record(db.url, statement, settings.checkpoint_log_path)
        retired = path.with_name(f"{path.stem}.retired-{statement.old_key[:16]}{path.suffix}")
        os.replace(path, retired)
        write_key(path, new)
        with psycopg.connect(db.url, autocommit=True) as conn:
            signed = checkpoint_db.take(conn, Signer(new, settings.checkpoint_log_path))
    print(
        f"rotated: key {fingerprint(statement.old_key)} (kept as {retired}) is replaced by"
        f" {fingerprint(public_hex(new))} in {path}"
        + (f"; it signed the head at position {signed.position}" if signed else "")
    )
    return 0


def _record(url: str, statement, log: Path | None) -> None:
    """The rotation as an event of the record's stream, and as a line of the signer's log."""
    import msgspec
    import psycopg

    from tableside.eventlog import EventRegistry, EventStore, signer_log
    from tableside.eventlog.standing import RECORD_EVENT_TYPES, RECORD_STREAM

    with psycopg.connect(url) as conn:
        row = conn.execute(
            "SELECT coalesce(max(originator_version), 0) FROM stored_events"
            " WHERE originator_id = %s",
            (RECORD_STREAM,),
        ).fetchone()
    with EventStore.connect(EventRegistry(*RECORD_EVENT_TYPES), url) as store:
        store.append(
            RECORD_STREAM,
            [statement],
            expected_version=row[0],
            command_id=uuid.uuid4(),
            meta={"recorder": "tableside keys rotate", "role": "owner"},
        )
    if log is not None:
        signer_log.append(log, {signer_log.ROTATION: msgspec.to_builtins(statement)})
