"""`tableside restore FILE --data-dir DIR`: a store built from `audit export --all`, verified.

The file is checked whole before anything is written (every link of both chains, every
checkpoint's head and signature); the events then go into an empty store as they were
stored, are verified again as stored, and the checkpoints follow; anything wrong and nothing
is kept. With DATABASE_URL (and TABLESIDE_MIGRATE_URL, the owner) it restores there instead:
how an event's record moves to the federation's server.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """FILE, --data-dir, --public-key."""
    parser.add_argument("file", type=Path, help="a whole-store export (`audit export --all`)")
    parser.add_argument("--data-dir", type=Path, help="embedded PostgreSQL data dir to build")
    parser.add_argument(
        "--public-key",
        help="the trusted signing key (file or 64 hex digits); without it the checkpoints"
        " are checked against the key the file names",
    )


def run(args: argparse.Namespace) -> int:
    """Exit 0 when restored and verified, 1 when refused, 2 when it cannot run."""
    from tableside.db import migrations
    from tableside.db.runtime import StartupError, database
    from tableside.eventlog.checkpoints import CheckpointError, read_public_key
    from tableside.eventlog.whole_store import RestoreRefused, read_whole, restore_store
    from tableside.settings import Settings, SettingsError

    try:
        settings = Settings.from_env().replace(data_dir=args.data_dir)
        trusted = read_public_key(args.public_key) if args.public_key else None
        header, records = read_whole(args.file.read_bytes(), trusted)
        with database(settings) as db:
            migrations.apply(db.migrate_url, app_role=db.app_role)
            done = restore_store(db.migrate_url, header, records)
    except RestoreRefused as exc:
        print(f"tableside: {args.file} refused, nothing restored: {exc}", file=sys.stderr)
        return 1
    except (
        StartupError,
        SettingsError,
        CheckpointError,
        migrations.MigrationError,
        OSError,
    ) as exc:
        print(f"tableside: {exc}", file=sys.stderr)
        return 2
    key = "" if trusted else " (signatures checked against the file's own key: give --public-key)"
    print(
        f"restored {done.events} events in {done.streams} streams on {db.label}, verified:"
        f" store-wide head {done.head_hash} at position {done.head_position},"
        f" {done.checkpoints} checkpoints reached{key}"
    )
    return 0
