"""`tableside projections rebuild [NAME ...]`: empty read models and fold them again from 0."""

from __future__ import annotations

import argparse
import asyncio
import sys
from pathlib import Path

NAMES = ("live", "protocol", "tables", "history")


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """Subcommand `rebuild` with optional projection names and --data-dir."""
    actions = parser.add_subparsers(dest="action", required=True)
    rebuild = actions.add_parser("rebuild", help="rebuild read models from position 0")
    rebuild.add_argument("names", nargs="*", metavar="NAME",
                         help=f"projections to rebuild (default: all of {', '.join(NAMES)})")
    rebuild.add_argument("--data-dir", type=Path, help="embedded PostgreSQL data dir")


def run(args: argparse.Namespace) -> int:
    """Exit 0 when rebuilt, 1 when the database cannot be reached."""
    from tableside.db.runtime import StartupError, database
    from tableside.settings import Settings, SettingsError

    try:
        settings = Settings.from_env().replace(data_dir=args.data_dir)
        with database(settings, attach=True) as db:
            position = asyncio.run(_rebuild(db.url, args.names))
    except (StartupError, SettingsError, ValueError) as exc:
        print(f"tableside: {exc}", file=sys.stderr)
        return 1
    print(f"\nrebuilt {', '.join(args.names or NAMES)} up to position {position} on {db.label}")
    return 0


async def _rebuild(url: str, names: list[str]) -> int:
    import asyncpg

    from tableside.matches.registry import build_registry
    from tableside.projections.rebuild import rebuild
    from tableside.projections.source import head

    pool = await asyncpg.create_pool(url, min_size=1, max_size=2)
    try:
        async with pool.acquire() as conn:
            total = await head(conn)
        return await rebuild(pool, build_registry(), names, _bar(total))
    finally:
        await pool.close()


def _bar(total: int, width: int = 40):
    def show(position: int) -> None:
        done = width * position // total if total else width
        sys.stderr.write(f"\r[{'#' * done}{'.' * (width - done)}] {position}/{total} events")
        sys.stderr.flush()

    return show
