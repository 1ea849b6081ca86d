"""`tableside audit verify [--stream ID | --file F]` and `tableside audit export --stream ID`."""

from __future__ import annotations

import argparse
import sys
import uuid
from pathlib import Path


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """Subcommands `verify` (database or an exported file) and `export` (JSON Lines)."""
    actions = parser.add_subparsers(dest="action", required=True)
    verify = actions.add_parser("verify", help="recompute every chain (or one stream's)")
    source = verify.add_mutually_exclusive_group()
    source.add_argument("--stream", type=uuid.UUID, help="verify only this stream")
    source.add_argument("--file", type=Path, help="verify an exported JSON Lines file offline")
    verify.add_argument("--data-dir", type=Path, help="embedded PostgreSQL data dir")
    export = actions.add_parser("export", help="write a stream's record as JSON Lines")
    export.add_argument("--stream", type=uuid.UUID, required=True, help="the match's stream id")
    export.add_argument("--out", type=Path, help="output file (default: standard output)")
    export.add_argument("--data-dir", type=Path, help="embedded PostgreSQL data dir")


def run(args: argparse.Namespace) -> int:
    """Exit 0 if intact / written, 1 at the first broken link, 2 if it cannot run."""
    if args.action == "verify" and args.file is not None:
        return _verify_file(args.file)
    from tableside.db.runtime import StartupError
    from tableside.settings import SettingsError

    try:
        return _verify_database(args) if args.action == "verify" else _export(args)
    except (StartupError, SettingsError) as exc:
        print(f"tableside: {exc}", file=sys.stderr)
        return 2


def _verify_database(args: argparse.Namespace) -> int:
    from tableside.store.audit_source import records_from_database
    from tableside.store.verify import verify

    with _attached(args) as db:
        report = verify(
            records_from_database(db.url, args.stream), dense_positions=args.stream is None
        )
    if report.broken is not None:
        print(report.broken.describe())
        return 1
    print(f"ok: {report.events} events in {report.streams} streams verified on {db.label}")
    return 0


def _export(args: argparse.Namespace) -> int:
    from tableside.store.audit_source import records_from_database
    from tableside.store.jsonl import export_lines

    with _attached(args) as db:
        lines = export_lines(records_from_database(db.url, args.stream), args.stream)
    if len(lines) == 1:
        print(f"tableside: stream {args.stream} has no events", file=sys.stderr)
        return 2
    out = args.out.open("wb") if args.out else sys.stdout.buffer
    with out:
        out.writelines(lines)
    return 0


def _verify_file(path: Path) -> int:
    from tableside.store.jsonl import ExportError, verify_export

    try:
        with path.open("rb") as lines:
            events, problem = verify_export(lines)
    except (OSError, ExportError) as exc:
        print(f"tableside: {path}: {exc}", file=sys.stderr)
        return 2
    if problem is not None:
        print(problem)
        return 1
    print(f"ok: {events} events in {path} verified")
    return 0


def _attached(args: argparse.Namespace):
    from tableside.db.runtime import database
    from tableside.settings import Settings

    return database(Settings.from_env().replace(data_dir=args.data_dir), attach=True)
