"""`tableside migrate`: apply schema/ migrations to the configured database and exit."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """Flags: --data-dir (embedded server) — DATABASE_URL wins when set; --print-grants."""
    parser.add_argument("--data-dir", type=Path, help="embedded PostgreSQL data dir")
    parser.add_argument(
        "--print-grants",
        action="store_true",
        help="print the SQL that gives the server's role its privileges, and exit",
    )
    parser.add_argument(
        "--role",
        help="the server's role for --print-grants (default: DATABASE_URL's user when "
        "TABLESIDE_MIGRATE_URL is set, else tableside_app)",
    )


def run(args: argparse.Namespace) -> int:
    """Apply pending migrations; print what was applied."""
    from tableside.db import migrations
    from tableside.db.runtime import StartupError, database
    from tableside.settings import Settings, SettingsError

    try:
        settings = Settings.from_env().replace(data_dir=args.data_dir)
        if args.print_grants:
            return _print_grants(settings, args.role)
        with database(settings, attach=True) as db:
            applied = migrations.apply(db.migrate_url, app_role=db.app_role)
            key_note = _register_signing_key(settings, db.migrate_url)
    except (StartupError, SettingsError, migrations.MigrationError) as exc:
        print(f"tableside: {exc}", file=sys.stderr)
        return 1
    names = ", ".join(m.name for m in applied) or "nothing to apply"
    print(f"migrations on {db.label}: {names}")
    print(key_note)
    return 0


def _register_signing_key(settings, url: str) -> str:
    """Register the key file's public half as the checkpoint signer (schema/011)."""
    from tableside.db.roles import register_key
    from tableside.eventlog.checkpoints import load_or_create_key, public_hex

    path = settings.signing_key_path
    if not path.is_file():
        return f"checkpoint key: none at {path} yet (`tableside serve` makes and registers it)"
    public = public_hex(load_or_create_key(path))
    problem = register_key(url, bytes.fromhex(public))
    return f"warning: {problem}" if problem else f"checkpoint key registered: {public}"


def _print_grants(settings, role: str | None) -> int:
    """The grant script, for the owner to run after `tableside migrate` (no connection)."""
    from tableside.db.roles import APP_ROLE, grant_sql
    from tableside.db.url import user_of

    if role is None:
        both = settings.database_url and settings.migrate_url
        role = user_of(settings.database_url) if both else APP_ROLE
    print("-- run as the owner of the tables (TABLESIDE_MIGRATE_URL) after `tableside migrate`")
    print(grant_sql(role), end="")
    return 0
