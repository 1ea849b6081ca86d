"""`tableside migrate`: apply schema/ migrations to the configured database and exit."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """Flags: --data-dir (embedded server) — DATABASE_URL wins when set."""
    parser.add_argument("--data-dir", type=Path, help="embedded PostgreSQL data dir")


def run(args: argparse.Namespace) -> int:
    """Apply pending migrations; print what was applied."""
    from tableside.db import migrations
    from tableside.db.runtime import StartupError, database
    from tableside.settings import Settings, SettingsError

    try:
        settings = Settings.from_env().replace(data_dir=args.data_dir)
        with database(settings, attach=True) as db:
            applied = migrations.apply(db.url)
    except (StartupError, SettingsError, migrations.MigrationError) as exc:
        print(f"tableside: {exc}", file=sys.stderr)
        return 1
    names = ", ".join(m.name for m in applied) or "nothing to apply"
    print(f"migrations on {db.label}: {names}")
    return 0
