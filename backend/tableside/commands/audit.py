"""`tableside audit verify [--stream ID]`: recompute hash chains and name the first break."""

from __future__ import annotations

import argparse
import sys
import uuid
from pathlib import Path


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """Subcommand `verify` with --stream and --data-dir."""
    actions = parser.add_subparsers(dest="action", required=True)
    verify = actions.add_parser("verify", help="recompute every chain (or one stream's)")
    verify.add_argument("--stream", type=uuid.UUID, help="verify only this stream")
    verify.add_argument("--data-dir", type=Path, help="embedded PostgreSQL data dir")


def run(args: argparse.Namespace) -> int:
    """Exit 0 if every chain holds, 1 at the first broken link, 2 if it cannot run."""
    from tableside.db.runtime import StartupError, database
    from tableside.settings import Settings, SettingsError
    from tableside.store.audit_source import records_from_database
    from tableside.store.verify import verify

    try:
        settings = Settings.from_env().replace(data_dir=args.data_dir)
        with database(settings, attach=True) as db:
            records = records_from_database(db.url, args.stream)
            report = verify(records, dense_positions=args.stream is None)
    except (StartupError, SettingsError) as exc:
        print(f"tableside: {exc}", file=sys.stderr)
        return 2
    if report.broken is not None:
        print(report.broken.describe())
        return 1
    print(f"ok: {report.events} events in {report.streams} streams verified on {db.label}")
    return 0
